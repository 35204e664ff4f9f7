#if canImport(Glibc)
import Glibc
#endif

/// A counting wake-up signal between the recorder's threads: a pthread mutex and a
/// condition variable whose timeouts run on CLOCK_MONOTONIC, so a wall-clock step (GPS time
/// on a board without a real-time clock) never stretches or shortens a wait.
///
/// `signal()` never blocks for long (it takes the mutex only to bump a counter), so the
/// sampling thread may call it.
public final class WakeSignal: @unchecked Sendable {
    // The pthread objects need stable addresses: allocated once, never moved.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private var pending = 0

    public init() {
        mutex = .allocate(capacity: 1)
        condition = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        var attr = pthread_condattr_t()
        pthread_condattr_init(&attr)
        pthread_condattr_setclock(&attr, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attr)
        pthread_condattr_destroy(&attr)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        condition.deallocate()
    }

    /// Wakes one waiter (or lets the next `wait` return at once).
    public func signal() {
        pthread_mutex_lock(mutex)
        pending += 1
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
    }

    /// Waits for a signal. Returns false on timeout (seconds; nil waits forever).
    @discardableResult
    public func wait(timeout seconds: Double? = nil) -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        if let seconds {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let total = Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec) + Int64(max(0, seconds) * 1e9)
            var deadline = timespec(tv_sec: Int(total / 1_000_000_000), tv_nsec: Int(total % 1_000_000_000))
            while pending == 0 {
                if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT { break }
            }
        } else {
            while pending == 0 { pthread_cond_wait(condition, mutex) }
        }
        guard pending > 0 else { return false }
        pending -= 1
        return true
    }
}
