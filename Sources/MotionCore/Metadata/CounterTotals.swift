/// Combining the counters of several metadata files. They are running totals of their
/// recording (docs/FORMAT.md), so the files of one recording combine by taking the largest of
/// each counter, and different recordings by adding — saturating at `Int64.max`, because
/// metadata comes from outside (a hand-edited or damaged file must not trap the reader).
extension CounterSnapshot {
    /// The counters the recording had reached by the later of `self` and `other` (the larger
    /// of each): for two files of the same recording.
    public func latest(_ other: CounterSnapshot) -> CounterSnapshot {
        var c = self
        c.overruns = max(overruns, other.overruns)
        c.missedTicks = max(missedTicks, other.missedTicks)
        c.droppedRows = max(droppedRows, other.droppedRows)
        c.rejectedFixes = max(rejectedFixes, other.rejectedFixes)
        c.rowsLostToWriteErrors = max(rowsLostToWriteErrors, other.rowsLostToWriteErrors)
        c.writeErrors = max(writeErrors, other.writeErrors)
        return c
    }

    /// The counters of two different recordings added up (saturating).
    public func adding(_ other: CounterSnapshot) -> CounterSnapshot {
        func sum(_ a: Int64, _ b: Int64) -> Int64 {
            let (s, overflow) = a.addingReportingOverflow(b)
            return overflow ? (b < 0 ? .min : .max) : s
        }
        var c = self
        c.overruns = sum(overruns, other.overruns)
        c.missedTicks = sum(missedTicks, other.missedTicks)
        c.droppedRows = sum(droppedRows, other.droppedRows)
        c.rejectedFixes = sum(rejectedFixes, other.rejectedFixes)
        c.rowsLostToWriteErrors = sum(rowsLostToWriteErrors, other.rowsLostToWriteErrors)
        c.writeErrors = sum(writeErrors, other.writeErrors)
        return c
    }
}
