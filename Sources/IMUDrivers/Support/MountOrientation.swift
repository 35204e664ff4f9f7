import MotionMath

/// How the chip sits on the board: each DEVICE axis (X right, Y forward, Z out of the
/// face) named as a signed CHIP axis, as in a board file's `mount: ["-y", "+x", "+z"]`
/// ("device X is chip −Y, device Y is chip +X, device Z is chip +Z").
///
/// Only proper rotations are accepted: a mount that mirrors the chip (a left-handed set
/// such as `["+x", "+y", "-z"]`) cannot be built from a real chip and is rejected, as
/// are repeated axes and anything that is not `±x`, `±y` or `±z`.
public struct MountOrientation: Sendable, Equatable, CustomStringConvertible {
    /// For device axis i: the chip axis index (0 x, 1 y, 2 z) and its sign (+1 or −1).
    public let chipAxis: [Int]
    public let sign: [Double]

    /// The chip frame is the device frame.
    public static let identity = MountOrientation(checkedAxis: [0, 1, 2], sign: [1, 1, 1])

    private init(checkedAxis: [Int], sign: [Double]) { self.chipAxis = checkedAxis; self.sign = sign }

    /// Parses `["+x", "+y", "+z"]`-style text.
    public init(_ axes: [String]) throws(MountOrientationError) {
        guard axes.count == 3 else { throw .wrongCount(axes.count) }
        var index: [Int] = [], signs: [Double] = []
        for text in axes {
            let chars = Array(text.filter { $0 != " " }.lowercased())
            guard chars.count == 2, chars[0] == "+" || chars[0] == "-",
                  let axis = ["x", "y", "z"].firstIndex(of: String(chars[1])) else { throw .notAnAxis(text) }
            index.append(axis)
            signs.append(chars[0] == "-" ? -1 : 1)
        }
        guard Set(index).count == 3 else { throw .repeatedAxis(axes) }
        let candidate = MountOrientation(checkedAxis: index, sign: signs)
        guard candidate.matrix.determinant > 0 else { throw .mirrored(axes) }
        self = candidate
    }

    /// Device-frame vector from a chip-frame vector.
    @inlinable public func toDevice(_ chip: Vector3) -> Vector3 {
        Vector3(sign[0] * chip[chipAxis[0]], sign[1] * chip[chipAxis[1]], sign[2] * chip[chipAxis[2]])
    }

    /// Chip-frame vector from a device-frame vector (the inverse mapping).
    public func toChip(_ device: Vector3) -> Vector3 {
        var chip = Vector3.zero
        for i in 0..<3 { chip[chipAxis[i]] = sign[i] * device[i] }
        return chip
    }

    /// The rotation matrix R with `R * chip == toDevice(chip)`.
    public var matrix: Matrix3 {
        var m = Matrix3(rows: .zero, .zero, .zero)
        for i in 0..<3 { m[i, chipAxis[i]] = sign[i] }
        return m
    }

    /// The board-file text, e.g. `["-y", "+x", "+z"]`.
    public var axes: [String] { (0..<3).map { (sign[$0] < 0 ? "-" : "+") + ["x", "y", "z"][chipAxis[$0]] } }

    public var description: String { "[" + axes.map { "\"\($0)\"" }.joined(separator: ", ") + "]" }
}

/// Why a mount orientation was rejected.
public enum MountOrientationError: Error, Sendable, Equatable, CustomStringConvertible {
    case wrongCount(Int)
    case notAnAxis(String)
    case repeatedAxis([String])
    case mirrored([String])

    public var description: String {
        switch self {
        case .wrongCount(let n):
            return "mount needs three axes (device X, Y, Z as chip axes, e.g. [\"+x\", \"+y\", \"+z\"]), got \(n)"
        case .notAnAxis(let t):
            return "mount axis \"\(t)\" is not one of +x, -x, +y, -y, +z, -z"
        case .repeatedAxis(let a):
            return "mount \(a) uses a chip axis twice: each of x, y, z must appear exactly once"
        case .mirrored(let a):
            return "mount \(a) is a mirror image, which no real chip placement gives: flip the sign of one axis "
                + "(device Z = device X × device Y must hold)"
        }
    }
}
