/// Constants of the MotionCollector CSV format (see FORMAT.md and the README).
public enum CSVFormat {
    /// The first line of every file, byte for byte (note ", " in the header only), without LF.
    public static let headerLine = "Source, Label, When, X, Y, Z, UA_X, UA_Y, UA_Z, Pitch, Roll, Yaw"
    /// The header line with its LF, as bytes.
    public static let headerBytes: [UInt8] = Array((headerLine + "\n").utf8)
    public static let comma: UInt8 = 0x2C
    public static let newline: UInt8 = 0x0A
    /// The longest a row can be: 12 fields of at most 24 characters plus separators.
    public static let maxRowBytes = 12 * 25 + 1
}

extension CSVFormat {
    /// The longest line a reader keeps: a longer line is an error as soon as the limit is
    /// crossed (room for rows written by other tools with long, non-shortest numbers).
    public static let maxLineBytes = 1024

    /// Latest When accepted: 9999-12-31T23:59:59Z, the last instant ISO 8601, GPX and
    /// GeoJSON's `coordTimes` can write without an expanded year.
    public static let maxWhen = 253_402_300_799.999

    /// The name of field `index` (0-based, 0 = Source) of a `source` row, for messages.
    public static func fieldName(_ source: Source, _ index: Int) -> String {
        switch index {
        case 0: return "Source"
        case 1: return "Label"
        case 2: return "When"
        default: break
        }
        let names: [String]
        switch source {
        case .accelerometer, .gyroscope, .magnetometer: names = ["X", "Y", "Z"]
        case .deviceMotion: names = ["X", "Y", "Z", "UA_X", "UA_Y", "UA_Z", "Pitch", "Roll", "Yaw"]
        case .location: names = ["latitude", "longitude", "altitude", "speed", "course", "climb", "eph", "epv", "mode"]
        }
        let i = index - 3
        return i < names.count ? "\(source) \(names[i]) (field \(index + 1))" : "field \(index + 1)"
    }

    /// Why `value` cannot be field `index` of a `source` row (docs/FORMAT.md, "Ranges"),
    /// or nil when it is in range. `nan` (not measured) is allowed except for When and
    /// an L row's latitude and longitude; infinities never are.
    public static func rangeProblem(_ source: Source, _ index: Int, _ value: Double) -> String? {
        if index == 2 {
            guard value.isFinite else { return "When must be a finite number of seconds" }
            // Negative: relative When of a GPS fix taken just before the first tick.
            guard abs(value) <= maxWhen else {
                return "When must be seconds within ±\(maxWhen) (up to the year 9999)"
            }
            return nil
        }
        if value.isInfinite { return "infinity is not a measurement (write nan for a value not measured)" }
        guard source == .location else { return nil }
        switch index {
        case 3:
            return value.isFinite && (-90...90).contains(value) ? nil : "latitude must be within -90...90 degrees"
        case 4:
            return value.isFinite && (-180...180).contains(value) ? nil : "longitude must be within -180...180 degrees"
        case 6, 9, 10:
            return value.isNaN || value >= 0 ? nil : "must not be negative (or nan when unknown)"
        default:
            return nil
        }
    }
}
