/// When a fake magnetometer produces samples: every 1/rate seconds after its measurement
/// mode was set, the first one period after. Tracks what was already produced, so a read
/// can tell new data (data-ready) and skipped data (overrun).
struct FakeSampleClock {
    private(set) var rateHz: Double?
    private var start = 0.0
    private var produced = 0

    /// Starts (or stops, with nil) periodic sampling at `time`.
    mutating func configure(rateHz: Double?, at time: Double) {
        self.rateHz = rateHz
        start = time
        produced = 0
    }

    /// The newest sample due by `time` if it was not produced yet: its time, and whether
    /// samples in between were never seen.
    mutating func newSample(at time: Double) -> (time: Double, skipped: Bool)? {
        guard let rateHz, rateHz > 0 else { return nil }
        let due = Int(((time - start) * rateHz + 1e-6).rounded(.down))
        guard due > produced else { return nil }
        let skipped = due > produced + 1
        produced = due
        return (start + Double(due) / rateHz, skipped)
    }
}
