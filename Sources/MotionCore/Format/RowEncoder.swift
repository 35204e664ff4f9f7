/// Encodes binary `Row`s into the CSV text of FORMAT.md: `A,W,1763735405.01,0.1,-0.2,-0.98`.
/// Ragged rows (6 fields for A/G/M, 12 for D/L), no spaces, LF line ends.
public enum RowEncoder {
    /// Appends one row, with its LF, to `bytes`.
    @inlinable
    public static func append(_ row: Row, to bytes: inout [UInt8]) {
        bytes.append(row.source.rawValue)
        bytes.append(CSVFormat.comma)
        bytes.append(row.label)
        bytes.append(CSVFormat.comma)
        NumberText.append(row.when, to: &bytes)
        let n = row.source.valueCount
        for i in 0..<n {
            bytes.append(CSVFormat.comma)
            if row.source == .location && i == 8 {
                appendMode(row[i], to: &bytes)
            } else {
                NumberText.append(row[i], to: &bytes)
            }
        }
        bytes.append(CSVFormat.newline)
    }

    /// The fix mode of an `L` row is written as the integer 2 or 3 (as in FORMAT.md's example).
    @inlinable
    static func appendMode(_ mode: Double, to bytes: inout [UInt8]) {
        if mode == 2 { bytes.append(0x32) } else if mode == 3 { bytes.append(0x33) } else {
            NumberText.append(mode, to: &bytes)
        }
    }

    /// One row as a String (tests and tools).
    public static func line(_ row: Row) -> String {
        var bytes: [UInt8] = []
        append(row, to: &bytes)
        return String(decoding: bytes.dropLast(), as: UTF8.self)
    }
}

extension Row {
    /// An `L` row from a fix; `whenOffset` is subtracted from the fix time (relative When).
    public init(fix: LocationFix, label: UInt8, whenOffset: Double = 0) {
        self.init(source: .location, label: label, when: fix.when - whenOffset,
                  values: (fix.latitude, fix.longitude, fix.altitudeMSL, fix.speed, fix.course,
                           fix.climb, fix.eph, fix.epv, Double(fix.mode)))
    }

    /// A `D` row from device motion.
    public init(deviceMotion d: DeviceMotion, label: UInt8, when: Double) {
        self.init(source: .deviceMotion, label: label, when: when,
                  values: (d.rotationRate.x, d.rotationRate.y, d.rotationRate.z,
                           d.userAcceleration.x, d.userAcceleration.y, d.userAcceleration.z,
                           d.pitch, d.roll, d.yaw))
    }
}
