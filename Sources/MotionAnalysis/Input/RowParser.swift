import MotionCore

/// Parses rows for `RowScanner`: `parseRow`, the fast path for plain valid rows, and
/// `parseLine`, the whole-line path for everything else. Holds what a scan reuses from
/// row to row: the value buffer, the number tables and the When of the row before.
struct RowParser {
    let whenOffset: Double
    /// When and the values of the row being parsed.
    let values = UnsafeMutableBufferPointer<Double>.allocate(capacity: 10)
    let tables = DecimalTables.shared
    /// The When of the previous row, which the rows of one tick share.
    var lastWhen = RepeatedText()

    init(whenOffset: Double) { self.whenOffset = whenOffset }

    func deallocate() { values.deallocate() }

    /// A plain valid row at `i` (`S,L,` then the source's numbers, ending with LF or CR LF),
    /// handed to `sink`; returns where the next line starts. Nil, having done nothing, for
    /// anything else. Needs `BlockReader`'s guarantees: the line ends with an LF, and
    /// bytes are readable after it.
    @inline(__always)
    mutating func parseRow<S: RowSink>(_ p: UnsafePointer<UInt8>, _ i: Int, sink: inout S,
                                       counts: inout ScanCounts) -> Int? {
        guard p[i + 1] == 0x2C, p[i + 3] == 0x2C, let source = Source(rawValue: p[i]),
              p[i + 2] >= 0x41, p[i + 2] <= 0x5A else { return nil }
        let expected = source.valueCount + 1   // When + values
        // Bit k: convert field k (When, then the values the sink reads; the others are
        // only checked).
        let convert = sink.valuesRead(source) << 1 | 1
        // GPS values are exact (they are shown as read: bounding box, stops); IMU values
        // only feed statistics (`RowScanner`; their When, at most 16 digits, is exact anyway).
        let exact = source == .location
        var field = 0
        var j = i + 4
        // When: usually the text of the row before (the rows of a tick share it).
        if let next = lastWhen.match(p, j) {
            values[0] = lastWhen.value
            field = 1
            j = next + 1
        }
        while true {
            guard let (v, next) = FastNumber.parseField(p, j, tables: tables, convert: convert & (1 << UInt32(field)) != 0,
                                                        exact: exact) else {
                return nil
            }
            values[field] = v
            if field == 0 { lastWhen.remember(p, j, next, value: v) }
            field += 1
            let c = p[next]
            if c == 0x2C {
                guard field < expected else { return nil }
                j = next + 1
                continue
            }
            guard field == expected, Self.isPlausible(values[0] + whenOffset) else { return nil }
            if c == 0x0A { j = next + 1; break }
            guard c == 0x0D, p[next + 1] == 0x0A else { return nil }
            counts.crlfLines += 1
            j = next + 2
            break
        }
        counts.rows += 1
        sink.row(source, when: values[0] + whenOffset,
                 values: UnsafeBufferPointer(start: values.baseAddress! + 1, count: expected - 1))
        return j
    }

    /// Every line of the block `[start, end)` (complete lines, `BlockReader`'s guarantees):
    /// plain rows by `parseRow`, anything else by `parseLine`.
    @inline(__always)
    mutating func parseBlock<S: RowSink>(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int, sink: inout S,
                                         counts: inout ScanCounts) {
        var i = start
        while i < end {
            if let next = parseRow(p, i, sink: &sink, counts: &counts) {
                i = next
            } else {
                let nl = BlockReader.nextNewline(p, from: i, to: end) ?? end - 1
                parseLine(p + i, count: nl - i, sink: &sink, counts: &counts)
                i = nl + 1
            }
        }
    }

    /// Whether the line `[0, count)` is the format's header byte for byte.
    static func isFormatHeader(_ p: UnsafePointer<UInt8>, count: Int) -> Bool {
        let header = CSVFormat.headerLine.utf8
        return count == header.count && zip(header, UnsafeBufferPointer(start: p, count: count)).allSatisfy { $0 == $1 }
    }

    /// A When (after the offset of a relative file) the format allows: finite and within
    /// ±`CSVFormat.maxWhen` (the year 9999). Anything else is a defective line, so no
    /// later arithmetic on times (bins, windows, intervals) can overflow.
    static func isPlausible(_ when: Double) -> Bool { abs(when) <= CSVFormat.maxWhen }

    /// Any line (without its LF): a header, a defective line, or a row.
    mutating func parseLine<S: RowSink>(_ p: UnsafePointer<UInt8>, count: Int, sink: inout S, counts: inout ScanCounts) {
        var end = count
        if end > 0 && p[end - 1] == 0x0D { end -= 1; counts.crlfLines += 1 }
        guard end >= 6, p[1] == 0x2C, p[3] == 0x2C else {
            if end >= 6 && p[0] == 0x53 && p[1] == 0x6F {   // "So"urce header
                counts.headers += 1
                if !Self.isFormatHeader(p, count: end) { counts.otherHeaders += 1 }
            } else {
                counts.badLines += 1
            }
            return
        }
        guard let source = Source(rawValue: p[0]), p[2] >= 0x41, p[2] <= 0x5A else { counts.badLines += 1; return }
        let expected = source.valueCount + 1   // When + values
        // One pass: each number is parsed up to the comma that ends it. The LF (or CR)
        // at `end` stops a number as a comma does.
        var field = 0
        var i = 4
        while true {
            guard i < end, field < expected,
                  let (v, next) = FastNumber.parseField(p, i, tables: tables, exact: source == .location),
                  next <= end else {
                counts.badLines += 1; return
            }
            values[field] = v
            field += 1
            if next == end { break }
            guard p[next] == 0x2C else { counts.badLines += 1; return }
            i = next + 1
        }
        guard field == expected, Self.isPlausible(values[0] + whenOffset) else { counts.badLines += 1; return }
        counts.rows += 1
        sink.row(source, when: values[0] + whenOffset,
                 values: UnsafeBufferPointer(start: values.baseAddress! + 1, count: expected - 1))
    }
}
