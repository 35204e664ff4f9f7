/// How a driver reacts to trouble. Times are in seconds of tick time (`Tick.elapsed`), so
/// the backoff runs on the scheduler's clock and never sleeps the sampling thread.
public struct RecoveryPolicy: Sendable, Equatable {
    /// Consecutive ticks whose accelerometer/gyroscope read failed (after the in-tick retry)
    /// before the chip is re-initialised.
    public var failedTicksBeforeReinit: Int = 3
    /// First wait before a re-initialisation attempt; doubles after each failed attempt.
    public var firstBackoff: Double = 0.05
    /// Longest wait between attempts.
    public var maxBackoff: Double = 2
    /// How often the chip's configuration registers are read back to notice a reset.
    public var verifyHz: Double = 10
    /// Seconds without a magnetometer sample before it is restarted (doubles per failed restart).
    public var magStallSeconds: Double = 1
    /// Longest wait between magnetometer restarts.
    public var maxMagRestartWait: Double = 30

    public init() {}

    func backoff(afterFailedAttempts n: Int) -> Double {
        var wait = firstBackoff
        for _ in 0..<max(0, n - 1) where wait < maxBackoff { wait *= 2 }
        return min(wait, maxBackoff)
    }
}
