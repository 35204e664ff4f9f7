/// The kind of a row in a recording: the first field of every data row.
public enum Source: UInt8, CaseIterable, Sendable, Codable, Comparable, CustomStringConvertible {
    /// Accelerometer: x, y, z in g, raw, gravity included, CoreMotion signs (face up: z ≈ −1).
    case accelerometer = 0x41  // "A"
    /// Gyroscope: x, y, z in rad/s, raw (not bias-corrected), right-handed.
    case gyroscope = 0x47      // "G"
    /// Magnetometer: x, y, z in µT, raw (device bias included).
    case magnetometer = 0x4D   // "M"
    /// Device motion: rotation rate (rad/s, bias-corrected), user acceleration (g), pitch, roll, yaw (rad).
    case deviceMotion = 0x44   // "D"
    /// Location (format extension): lat, lon, altMSL, speed, course, climb, eph, epv, mode.
    case location = 0x4C       // "L"

    /// The one-letter code written in the file.
    public var letter: Character { Character(Unicode.Scalar(rawValue)) }

    /// Number of values after `Source,Label,When`: 3 for A/G/M, 9 for D/L.
    public var valueCount: Int {
        switch self {
        case .accelerometer, .gyroscope, .magnetometer: return 3
        case .deviceMotion, .location: return 9
        }
    }

    /// Total comma-separated fields on a row of this source (6 or 12).
    public var fieldCount: Int { valueCount + 3 }

    public init?(letter: Character) {
        guard let ascii = letter.asciiValue, let source = Source(rawValue: ascii) else { return nil }
        self = source
    }

    /// The order in which rows of one tick are written, and in which sources are listed.
    public static let canonicalOrder: [Source] = [.accelerometer, .gyroscope, .magnetometer, .deviceMotion, .location]

    public static func < (a: Source, b: Source) -> Bool {
        a.order < b.order
    }

    public var description: String { String(letter) }

    /// Position in `canonicalOrder` (A, G, M, D, L).
    public var order: Int {
        switch self {
        case .accelerometer: return 0
        case .gyroscope: return 1
        case .magnetometer: return 2
        case .deviceMotion: return 3
        case .location: return 4
        }
    }

    /// Parses a set such as `"AGMDL"`; nil (with the offending character) when a letter is unknown.
    public static func parseSet(_ text: String) -> Result<Set<Source>, SourceSetError> {
        var set = Set<Source>()
        for ch in text where ch != "," && ch != " " {
            let upper = ch.uppercased()
            guard upper.count == 1, let letter = upper.first, let s = Source(letter: letter) else {
                return .failure(.unknownLetter(ch))
            }
            set.insert(s)
        }
        if set.isEmpty { return .failure(.empty) }
        return .success(set)
    }
}

/// Why a source set such as `--sources AGX` was rejected.
public enum SourceSetError: Error, Equatable, CustomStringConvertible {
    case unknownLetter(Character)
    case empty

    public var description: String {
        switch self {
        case .unknownLetter(let c): return "unknown source '\(c)': use letters from AGMDL (A accelerometer, G gyroscope, M magnetometer, D device motion, L location)"
        case .empty: return "no sources given: use letters from AGMDL"
        }
    }
}

extension Set where Element == Source {
    /// The letters in canonical order, e.g. `"AGML"`.
    public var letters: String { String(Source.canonicalOrder.filter(contains).map(\.letter)) }
}
