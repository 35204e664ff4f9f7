#if canImport(Glibc)
import Glibc
#endif

/// A pthread mutex and condition variable whose timed waits run on CLOCK_MONOTONIC, so a
/// wall-clock step (GPS time on a board without a real-time clock) never stretches or
/// shortens a wait. The state it guards is the caller's; `withLock` holds the mutex.
public final class MonotonicCondition: @unchecked Sendable {
    // The pthread objects need stable addresses: allocated once, never moved.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

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

    /// Runs `body` with the mutex held; `body` may wait on the condition.
    public func withLock<T>(_ body: (Waiting) -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body(Waiting(mutex: mutex, condition: condition))
    }

    /// What may be done while the mutex is held.
    public struct Waiting {
        fileprivate let mutex: UnsafeMutablePointer<pthread_mutex_t>
        fileprivate let condition: UnsafeMutablePointer<pthread_cond_t>

        /// Wakes one waiter.
        public func signal() { pthread_cond_signal(condition) }

        /// Waits for a signal (wake-ups may be spurious: recheck the state).
        public func wait() { pthread_cond_wait(condition, mutex) }

        /// Waits for a signal until the absolute monotonic `deadline` (ns); false once
        /// the deadline has passed.
        public func wait(untilMonotonic deadline: Int64) -> Bool {
            var ts = timespec(nanos: deadline)
            return pthread_cond_timedwait(condition, mutex, &ts) != ETIMEDOUT
        }
    }
}
