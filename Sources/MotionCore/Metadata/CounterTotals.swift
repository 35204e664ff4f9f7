/// Combining the counters of several metadata files. They are running totals of their
/// recording (docs/FORMAT.md), so the files of one recording combine by taking the largest of
/// each counter, and different recordings by adding — saturating at `Int64.max`, because
/// metadata comes from outside (a hand-edited or damaged file must not trap the reader).
extension CounterSnapshot {
    /// The counters the recording had reached by the later of `self` and `other` (the larger
    /// of each): for two files of the same recording.
    public func latest(_ other: CounterSnapshot) -> CounterSnapshot {
        combined(other) { max($0, $1) }
    }

    /// The counters of two different recordings added up (saturating).
    public func adding(_ other: CounterSnapshot) -> CounterSnapshot {
        combined(other) { a, b in
            let (sum, overflow) = a.addingReportingOverflow(b)
            return overflow ? (b < 0 ? .min : .max) : sum
        }
    }

    /// The counters that are running totals of the recording.
    static var totals: [WritableKeyPath<CounterSnapshot, Int64>] {
        [\.overruns, \.missedTicks, \.droppedRows, \.rejectedFixes, \.rowsLostToWriteErrors, \.writeErrors]
    }

    private func combined(_ other: CounterSnapshot, _ f: (Int64, Int64) -> Int64) -> CounterSnapshot {
        var c = self
        for k in Self.totals { c[keyPath: k] = f(self[keyPath: k], other[keyPath: k]) }
        return c
    }
}
