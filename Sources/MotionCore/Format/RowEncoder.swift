/// Encodes binary `Row`s into the CSV text of FORMAT.md: `A,W,1763735405.01,0.1,-0.2,-0.98`.
/// Ragged rows (6 fields for A/G/M, 12 for D/L), no spaces, LF line ends.
public enum RowEncoder {
    /// Appends one row, with its LF, to `bytes`.
    @inlinable
    public static func append(_ row: Row, to bytes: inout [UInt8]) {
        var when = WhenText()
        append(row, to: &bytes, when: &when)
    }

    /// Appends one row, with its LF, to `bytes`, reusing the When text of the previous row
    /// when it has the same time (the rows of one tick share it).
    @inlinable
    public static func append(_ row: Row, to bytes: inout [UInt8], when: inout WhenText) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: CSVFormat.maxRowBytes) { scratch in
            guard let base = scratch.baseAddress else { return }
            let n = encode(row, into: base, when: &when)
            bytes.append(contentsOf: UnsafeBufferPointer(start: base, count: n))
        }
    }

    /// Writes one row, with its LF, at `out` (room for `CSVFormat.maxRowBytes`); returns
    /// the byte count. No allocation. Numbers are written with `DoubleText.write(_:withSlackTo:)`:
    /// a number starts before byte 254 of the longest row (4 + 25 + 9 · 25 bytes), so its
    /// `DoubleText.slackBytes` fit in `maxRowBytes` (301); bytes past the row's LF may change.
    @inlinable
    public static func encode(_ row: Row, into out: UnsafeMutablePointer<UInt8>, when: inout WhenText) -> Int {
        out[0] = row.source.rawValue
        out[1] = CSVFormat.comma
        out[2] = row.label
        out[3] = CSVFormat.comma
        var n = 4
        n &+= when.write(row.when, to: out + n)
        // The values straight from the row's tuple, unrolled (3 for A/G/M, 9 for D/L).
        @inline(__always) func value(_ v: Double) {
            out[n] = CSVFormat.comma
            n &+= 1 &+ DoubleText.write(v, withSlackTo: out + (n &+ 1))
        }
        value(row.values.0)
        value(row.values.1)
        value(row.values.2)
        if row.source.valueCount == 9 {
            value(row.values.3)
            value(row.values.4)
            value(row.values.5)
            value(row.values.6)
            value(row.values.7)
            if row.source == .location {
                out[n] = CSVFormat.comma
                n &+= 1 &+ writeMode(row.values.8, to: out + (n &+ 1))
            } else {
                value(row.values.8)
            }
        }
        out[n] = CSVFormat.newline
        return n &+ 1
    }

    /// One row through `Double.description` (the reference, for benchmarks).
    public static func appendWithDescriptions(_ row: Row, to bytes: inout [UInt8]) {
        bytes.append(row.source.rawValue)
        bytes.append(CSVFormat.comma)
        bytes.append(row.label)
        bytes.append(CSVFormat.comma)
        NumberText.appendDescription(row.when, to: &bytes)
        for i in 0..<row.source.valueCount {
            bytes.append(CSVFormat.comma)
            if row.source == .location && i == 8 && (row[i] == 2 || row[i] == 3) {
                bytes.append(row[i] == 2 ? 0x32 : 0x33)
            } else {
                NumberText.appendDescription(row[i], to: &bytes)
            }
        }
        bytes.append(CSVFormat.newline)
    }

    /// The fix mode of an `L` row is written as the integer 2 or 3 (as in FORMAT.md's example).
    @inlinable
    static func writeMode(_ mode: Double, to out: UnsafeMutablePointer<UInt8>) -> Int {
        if mode == 2 { out[0] = 0x32; return 1 }
        if mode == 3 { out[0] = 0x33; return 1 }
        return DoubleText.write(mode, withSlackTo: out)
    }

    /// One row as a String (tests and tools).
    public static func line(_ row: Row) -> String {
        var bytes: [UInt8] = []
        append(row, to: &bytes)
        return String(decoding: bytes.dropLast(), as: UTF8.self)
    }
}

/// The text of the last When written, kept so that the rows of one tick (which share their
/// When) format it once.
public struct WhenText: Sendable {
    @usableFromInline var bits: UInt64 = 0
    @usableFromInline var count = 0
    @usableFromInline var text: (UInt64, UInt64, UInt64) = (0, 0, 0)

    public init() {}

    /// Writes the text of `value` at `out` (room for `DoubleText.slackBytes`), returns its length.
    /// The text is kept and copied as three 8-byte words (the whole `maxBytes` of room, of
    /// which the first `count` bytes are the text): no `memcpy` call per row.
    @inlinable
    public mutating func write(_ value: Double, to out: UnsafeMutablePointer<UInt8>) -> Int {
        let raw = UnsafeMutableRawPointer(out)
        if count > 0 && value.bitPattern == bits {
            raw.storeBytes(of: text.0, as: UInt64.self)
            (raw + 8).storeBytes(of: text.1, as: UInt64.self)
            (raw + 16).storeBytes(of: text.2, as: UInt64.self)
            return count
        }
        // The bytes after the text are cleared first, so that what is kept is defined.
        raw.storeBytes(of: 0, as: UInt64.self)
        (raw + 8).storeBytes(of: 0, as: UInt64.self)
        (raw + 16).storeBytes(of: 0, as: UInt64.self)
        let n = DoubleText.write(value, withSlackTo: out)
        bits = value.bitPattern
        count = n
        text = (raw.loadUnaligned(as: UInt64.self), (raw + 8).loadUnaligned(as: UInt64.self),
                (raw + 16).loadUnaligned(as: UInt64.self))
        return n
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
