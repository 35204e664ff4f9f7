/// Rows as file text with what the metadata needs of them: their count per source and
/// their When range. One tick's rows (a unit, never split across files) and the chunk that
/// collects units until it is written are both this.
struct EncodedRows {
    private(set) var bytes: [UInt8] = []
    /// Rows per source, by `Source.order`.
    private(set) var rowsBySource = [Int](repeating: 0, count: 5)
    private(set) var firstWhen: Double?
    private(set) var lastWhen: Double?

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    var isEmpty: Bool { bytes.isEmpty }
    var rowCount: Int { rowsBySource.reduce(0, +) }

    /// Encodes one row after the others; `when` carries the last When's text.
    mutating func append(_ row: Row, numberText: NumberText.Maker, when: inout WhenText) {
        if numberText == .ownFormatter {
            RowEncoder.append(row, to: &bytes, when: &when)
        } else {
            RowEncoder.appendWithDescriptions(row, to: &bytes)
        }
        rowsBySource[row.source.order] += 1
        if firstWhen == nil { firstWhen = row.when }
        lastWhen = max(lastWhen ?? row.when, row.when)
    }

    /// Takes another batch's rows after these.
    mutating func append(_ other: EncodedRows) {
        bytes.append(contentsOf: other.bytes)
        for i in rowsBySource.indices { rowsBySource[i] += other.rowsBySource[i] }
        if firstWhen == nil { firstWhen = other.firstWhen }
        if let last = other.lastWhen { lastWhen = max(lastWhen ?? last, last) }
    }

    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        for i in rowsBySource.indices { rowsBySource[i] = 0 }
        firstWhen = nil
        lastWhen = nil
    }
}

/// Splits a drained batch into ticks: a tick starts with its first IMU row, and the L rows
/// polled in that tick follow it. The writer rotates only between ticks.
enum TickUnits {
    static func forEach(in rows: UnsafeBufferPointer<Row>, _ body: (UnsafeBufferPointer<Row>) -> Void) {
        var start = 0
        var imuWhen: Double?
        var hasLocation = false
        for (i, row) in rows.enumerated() {
            let isLocation = row.source == .location
            let startsUnit = i > start && (isLocation ? imuWhen == nil : hasLocation || imuWhen != row.when)
            if startsUnit {
                body(UnsafeBufferPointer(rebasing: rows[start..<i]))
                start = i
                imuWhen = nil
                hasLocation = false
            }
            if isLocation { hasLocation = true } else { imuWhen = row.when }
        }
        if start < rows.count { body(UnsafeBufferPointer(rebasing: rows[start...])) }
    }
}
