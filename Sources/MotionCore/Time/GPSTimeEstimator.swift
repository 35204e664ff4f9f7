/// The relation between the monotonic clock and GPS (UTC) time, as estimated from fix
/// reports: `epochNanos = monotonicNanos + offsetNanos`.
public struct GPSTimeEstimate: Sendable, Equatable, Codable {
    /// UTC epoch ns minus CLOCK_MONOTONIC ns.
    public var offsetNanos: Int64
    /// Fix reports in the window the estimate was taken over.
    public var samples: Int
    /// Spread of the report delays in the window (largest − smallest), ns: how much the
    /// arrival of fix reports jitters; the estimate is immune to it.
    public var delaySpreadNanos: Int64

    public init(offsetNanos: Int64, samples: Int, delaySpreadNanos: Int64) {
        self.offsetNanos = offsetNanos; self.samples = samples; self.delaySpreadNanos = delaySpreadNanos
    }
}

/// Estimates GPS time on the monotonic clock from (fix time, arrival time) pairs.
///
/// A fix report for fix time `g` arrives at monotonic time `m`, a delay `d ≥ 0` after the
/// fix (the receiver computes the fix, sends sentences at its baud rate, gpsd collects the
/// cycle; gpsd's time-service notes put this at up to several hundred ms, varying from
/// report to report). With θ the true offset (`epoch = monotonic + θ`):
///
///     m + θ = g + d      so      g − m = θ − d ≤ θ.
///
/// Every sample gives a lower bound of θ, too low by its own delay. The best one in a
/// window — the largest `g − m`, i.e. the smallest lag `m − g` — has the smallest delay
/// `d_min`, so the estimate `θ̂ = max(g − m) = θ − d_min` carries only the receiver's
/// minimum latency (a near-constant bias, typically tens of ms), never the variable part
/// (an average would carry the mean delay and its jitter).
///
/// The window slides over the last `windowNanos` of arrivals, so a slowly drifting
/// monotonic clock is followed. The lags in the window must agree within `jumpNanos`
/// (real delays vary by a few hundred ms): a sample that would spread them further means
/// GPS time jumped (a receiver's first fixes can carry a wrong date, gpsd restarted with
/// another receiver) or is not advancing with real time (a log replayed faster than it was
/// recorded); the window restarts from that sample, and no estimate is given until
/// `minimumSamples` fixes agree again.
public struct GPSTimeEstimator: Sendable {
    public let windowNanos: Int64
    public let minimumSamples: Int
    public let jumpNanos: Int64
    /// (arrival monotonic ns, lag = arrival − fix epoch ns), oldest first.
    private var samples: [(arrival: Int64, lag: Int64)] = []
    /// Times the window was restarted because GPS time jumped.
    public private(set) var jumps = 0

    public init(windowNanos: Int64 = 60_000_000_000, minimumSamples: Int = 3, jumpNanos: Int64 = 1_000_000_000) {
        self.windowNanos = max(1, windowNanos)
        self.minimumSamples = max(1, minimumSamples)
        self.jumpNanos = max(1, jumpNanos)
        samples.reserveCapacity(256)
    }

    /// Adds the first report of a fix time: `fixEpochNanos` (UTC ns since 1970) arrived at
    /// monotonic `arrivalNanos`. Arrivals must not go backwards (one reader thread).
    public mutating func add(fixEpochNanos: Int64, arrivalNanos: Int64) {
        let (lag, overflow) = arrivalNanos.subtractingReportingOverflow(fixEpochNanos)
        guard !overflow else { return }
        if let (best, worst) = lagRange, lag < worst - jumpNanos || lag > best + jumpNanos {
            jumps += 1
            samples.removeAll(keepingCapacity: true)
        }
        samples.append((arrivalNanos, lag))
        let oldest = arrivalNanos - windowNanos
        if let keep = samples.firstIndex(where: { $0.arrival >= oldest }), keep > 0 {
            samples.removeFirst(keep)
        }
        // Bound the work per sample (a 10 Hz receiver fills a 60 s window with 600).
        if samples.count > 1024 { samples.removeFirst(samples.count - 1024) }
    }

    /// The current estimate, or nil until `minimumSamples` consistent fixes were seen.
    /// Allocation-free (read on the sampling thread).
    public var estimate: GPSTimeEstimate? {
        guard samples.count >= minimumSamples, let (best, worst) = lagRange else { return nil }
        return GPSTimeEstimate(offsetNanos: -best, samples: samples.count, delaySpreadNanos: worst - best)
    }

    /// Smallest and largest lag in the window.
    private var lagRange: (Int64, Int64)? {
        guard var low = samples.first?.lag else { return nil }
        var high = low
        for s in samples {
            if s.lag < low { low = s.lag }
            if s.lag > high { high = s.lag }
        }
        return (low, high)
    }
}
