/// Encoded ticks on their way to the file: the chunk's text with what the metadata needs
/// of it (rows per source, When range). A tick is encoded straight into the chunk's free
/// room (`freeRoom(rows:)`), so taking it is only counting (no copy), except after the
/// chunk was written out in between (a rotation), when its text moves to the start.
/// Kept in raw memory (no `[UInt8]` appends, no exclusivity checks per tick); used by one
/// thread (the writer's).
final class EncodedRows {
    /// The chunk's counters, in raw memory with the text.
    private struct State {
        var count = 0
        var capacity: Int
        /// Rows per source, by `Source.order`.
        var rowsBySource = SIMD8<Int>()
        var firstWhen = 0.0
        var lastWhen = 0.0
    }

    private let state: UnsafeMutablePointer<State>
    /// The text (`capacity` bytes, the first `count` of them taken).
    private let text: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>>

    init(capacity: Int) {
        state = .allocate(capacity: 1)
        state.initialize(to: State(capacity: max(1, capacity)))
        text = .allocate(capacity: 1)
        text.initialize(to: .allocate(capacity: max(1, capacity)))
    }

    deinit {
        text.pointee.deallocate()
        text.deallocate()
        state.deallocate()
    }

    var isEmpty: Bool { state.pointee.count == 0 }
    var byteCount: Int { state.pointee.count }
    var rowCount: Int { state.pointee.rowsBySource.wrappedSum() }
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: text.pointee, count: state.pointee.count) }
    /// Rows per source, by `Source.order`.
    var rowsBySource: SIMD8<Int> { state.pointee.rowsBySource }
    var firstWhen: Double? { isEmpty ? nil : state.pointee.firstWhen }
    var lastWhen: Double? { isEmpty ? nil : state.pointee.lastWhen }

    /// Where the next tick's text goes: room for `rows` rows of at most
    /// `CSVFormat.maxRowBytes` after the text taken so far (grows when needed).
    @inline(__always)
    func freeRoom(rows: Int) -> UnsafeMutablePointer<UInt8> {
        let needed = state.pointee.count &+ rows &* CSVFormat.maxRowBytes
        if needed > state.pointee.capacity { grow(to: needed) }
        return text.pointee + state.pointee.count
    }

    @inline(never)
    private func grow(to needed: Int) {
        let capacity = max(needed, state.pointee.capacity * 2)
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        bigger.update(from: text.pointee, count: state.pointee.count)
        text.pointee.deallocate()
        text.pointee = bigger
        state.pointee.capacity = capacity
    }

    /// Takes a tick's rows after these. Its text was encoded at `freeRoom(rows:)`; if the
    /// chunk was written out since, it moves to the start.
    func append(_ tick: EncodedTick) {
        let end = text.pointee + state.pointee.count
        if let from = tick.bytes.baseAddress, from != end {
            end.update(from: from, count: tick.bytes.count)
        }
        if state.pointee.count == 0 { state.pointee.firstWhen = tick.firstWhen; state.pointee.lastWhen = tick.lastWhen }
        state.pointee.count &+= tick.bytes.count
        state.pointee.rowsBySource &+= tick.rowsBySource
        state.pointee.lastWhen = max(state.pointee.lastWhen, tick.lastWhen)
    }

    func removeAll() {
        state.pointee.count = 0
        state.pointee.rowsBySource = SIMD8<Int>()
    }

    /// The whole rows among the first `bytes` bytes of the text (what reached the file
    /// before a write failed part-way, a full card): the bytes they take, their count per
    /// source and their latest When. Reads the text back; only that rare case needs it.
    func wholeRows(within bytes: Int) -> (bytes: Int, rowsBySource: SIMD8<Int>, lastWhen: Double?) {
        let p = UnsafePointer(text.pointee)
        let end = min(bytes, state.pointee.count)
        var kept = 0, bySource = SIMD8<Int>()
        var lastWhen: Double?
        var lineStart = 0
        for i in 0..<end where p[i] == 0x0A {
            if let source = Source(rawValue: p[lineStart]) {
                bySource[source.order] += 1
                if let when = Self.when(p, lineStart, i) { lastWhen = max(lastWhen ?? when, when) }
            }
            kept = i + 1
            lineStart = i + 1
        }
        return (kept, bySource, lastWhen)
    }

    /// The When of the row `[start, end)`: its third field (`S,L,When,...`).
    private static func when(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Double? {
        var commas = 0, whenStart = start
        for i in start..<end where p[i] == 0x2C {
            commas += 1
            if commas == 2 { whenStart = i + 1 }
            if commas == 3 { return FastNumber.parse(p, whenStart, i) }
        }
        return nil
    }

    /// Takes the first whole rows (`wholeRows`: they reached the file) out of the chunk:
    /// their text and their counts. What is left is the rest of the chunk, its first When
    /// read back from its first row, for the next file or to be counted as lost.
    func removeFirst(_ rows: (bytes: Int, rowsBySource: SIMD8<Int>)) {
        let n = min(rows.bytes, state.pointee.count)
        guard n > 0 else { return }
        state.pointee.rowsBySource &-= rows.rowsBySource
        let rest = state.pointee.count - n
        text.pointee.update(from: text.pointee + n, count: rest)
        state.pointee.count = rest
        let p = UnsafePointer(text.pointee)
        var i = 0
        while i < rest && p[i] != 0x0A { i += 1 }
        if i < rest, let when = Self.when(p, 0, i) { state.pointee.firstWhen = when }
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
