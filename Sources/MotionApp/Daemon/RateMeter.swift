import MotionCore

/// Rows per second per source, measured between two samples of the written-row counters
/// at least a second apart.
struct RateMeter: Sendable {
    private var last: (nanos: Int64, rows: [Source: Int64])?
    private(set) var rates: [Source: Double] = [:]

    /// Takes a sample; recomputes the rates when a second or more passed since the last one.
    mutating func sample(_ rows: [Source: Int64], at nanos: Int64) {
        guard let previous = last else { last = (nanos, rows); return }
        let seconds = Double(nanos - previous.nanos) / 1e9
        guard seconds >= 1 else { return }
        var r: [Source: Double] = [:]
        for (s, n) in rows { r[s] = Double(n - (previous.rows[s] ?? 0)) / seconds }
        rates = r
        last = (nanos, rows)
    }

    mutating func reset() {
        last = nil
        rates = [:]
    }
}
