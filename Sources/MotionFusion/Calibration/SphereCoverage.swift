import Foundation
import MotionMath

/// How well a set of directions covers the sphere: 32 cells of equal area (4 bands of
/// equal height in z × 8 sectors of 45° in azimuth); a cell counts as covered once it
/// holds `minimumPerCell` samples. Also names the device-frame directions (±X, ±Y, ±Z)
/// around which nothing was seen, to tell the user how to turn the device.
public struct SphereCoverage: Sendable, Equatable {
    public static let bands = 4
    public static let sectors = 8
    public static let cellCount = bands * sectors
    public var minimumPerCell: Int
    public private(set) var counts: [Int]
    /// Closest approach (largest cosine) of the samples to each of +X, −X, +Y, −Y, +Z, −Z.
    private var nearest: [Double]

    public init(minimumPerCell: Int = 3) {
        self.minimumPerCell = minimumPerCell
        counts = [Int](repeating: 0, count: Self.cellCount)
        nearest = [Double](repeating: -1, count: 6)
    }

    /// Adds one direction (any length > 0).
    public mutating func add(_ v: Vector3) {
        let n = v.norm
        guard n > 0, n.isFinite else { return }
        let u = v / n
        let band = min(Self.bands - 1, Int((u.z + 1) / 2 * Double(Self.bands)))
        var azimuth = atan2(u.y, u.x)
        if azimuth < 0 { azimuth += 2 * Double.pi }
        let sector = min(Self.sectors - 1, Int(azimuth / (2 * Double.pi) * Double(Self.sectors)))
        counts[band * Self.sectors + sector] += 1
        let c = [u.x, -u.x, u.y, -u.y, u.z, -u.z]
        for i in 0..<6 where c[i] > nearest[i] { nearest[i] = c[i] }
    }

    /// Fraction of the cells covered, 0...1.
    public var fraction: Double {
        Double(counts.filter { $0 >= minimumPerCell }.count) / Double(Self.cellCount)
    }

    /// Cells with fewer than `minimumPerCell` samples: directions not yet seen.
    public var unseenCells: Int { counts.filter { $0 < minimumPerCell }.count }

    /// The axis directions no sample came within 30° of, e.g. `["-Z"]`.
    public var missingAxes: [String] {
        (0..<6).filter { nearest[$0] < cos(Double.pi / 6) }.map { Self.axisNames[$0] }
    }

    /// The six axis directions, in the order `missingAxes` lists them.
    public static let axisNames = ["+X", "-X", "+Y", "-Y", "+Z", "-Z"]
}
