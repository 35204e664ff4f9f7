/// Encoded ticks on their way to the file: the chunk's text with what the metadata needs
/// of it (rows per source, When range).
struct EncodedRows {
    private(set) var bytes: [UInt8] = []
    /// Rows per source, by `Source.order`.
    private(set) var rowsBySource = [Int](repeating: 0, count: 5)
    private(set) var firstWhen: Double?
    private(set) var lastWhen: Double?

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    var isEmpty: Bool { bytes.isEmpty }
    var rowCount: Int { rowsBySource.reduce(0, +) }

    /// Takes a tick's rows after these.
    mutating func append(_ tick: EncodedTick) {
        bytes.append(contentsOf: tick.bytes)
        rowsBySource.withUnsafeMutableBufferPointer { counts in
            for i in counts.indices { counts[i] &+= tick.rowsBySource[i] }
        }
        if firstWhen == nil { firstWhen = tick.firstWhen }
        lastWhen = max(lastWhen ?? tick.lastWhen, tick.lastWhen)
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
