import MotionSystem

/// A counting wake-up signal between the recorder's threads, on a `MonotonicCondition`: its
/// timeouts run on CLOCK_MONOTONIC, so a wall-clock step (GPS time on a board without a
/// real-time clock) never stretches or shortens a wait.
///
/// `signal()` never blocks for long (it takes the mutex only to bump a counter), so the
/// sampling thread may call it.
public final class WakeSignal: @unchecked Sendable {
    private let condition = MonotonicCondition()
    private var pending = 0

    public init() {}

    /// Wakes one waiter (or lets the next `wait` return at once).
    public func signal() {
        condition.withLock { waiting in
            pending += 1
            waiting.signal()
        }
    }

    /// Waits for a signal. Returns false on timeout (seconds; nil waits forever).
    @discardableResult
    public func wait(timeout seconds: Double? = nil) -> Bool {
        let deadline = seconds.map { SystemClocks.monotonicNanos() + Int64(max(0, $0) * 1e9) }
        return condition.withLock { waiting in
            while pending == 0 {
                if let deadline {
                    if !waiting.wait(untilMonotonic: deadline) { break }
                } else {
                    waiting.wait()
                }
            }
            guard pending > 0 else { return false }
            pending -= 1
            return true
        }
    }
}
