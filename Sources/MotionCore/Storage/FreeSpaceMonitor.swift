import Dispatch
import Foundation
import Synchronization

/// Watches the free space during a recording from its own thread (never the sampling
/// thread: `statvfs` on a stalled card may block). Checks every `intervalSeconds`, and also
/// by bytes written (`noteWritten`, from the writer thread, every `checkEveryBytes`), so a
/// `--fast` recording that writes many MB per second cannot run past the reserve between
/// two checks. The first time the space is low it calls `onLow` once (the caller stops the
/// recording).
public final class FreeSpaceMonitor: Sendable {
    private let freeSpace: FreeSpaceGuard
    private let intervalSeconds: Double
    private let onLow: @Sendable (FreeSpaceVerdict) -> Void
    private let stopped = Atomic<Bool>(false)
    private let wake = WakeSignal()
    private let done = WakeSignal()
    private let latest = Mutex<FreeSpaceVerdict?>(nil)
    private let started = Atomic<Bool>(false)
    private let reported = Atomic<Bool>(false)
    private let pendingBytes = Atomic<Int64>(0)

    public init(guard freeSpace: FreeSpaceGuard, intervalSeconds: Double = 1,
                onLow: @escaping @Sendable (FreeSpaceVerdict) -> Void) {
        self.freeSpace = freeSpace
        self.intervalSeconds = max(0.001, intervalSeconds)
        self.onLow = onLow
    }

    /// The most recent verdict (nil before the first check).
    public var lastVerdict: FreeSpaceVerdict? { latest.withLock { $0 } }

    /// Starts checking on a new thread (the first check right away).
    public func start() {
        if started.exchange(true, ordering: .relaxed) { return }
        let thread = Thread { [self] in
            while !stopped.load(ordering: .relaxed) {
                if checkNow().isLow { break }
                _ = wake.wait(timeout: intervalSeconds)
            }
            done.signal()
        }
        thread.name = "motionlog-freespace"
        thread.start()
    }

    /// Counts bytes the writer wrote; checks (on the caller's thread) once `checkEveryBytes`
    /// have accumulated since the last such check.
    public func noteWritten(_ bytes: Int64) {
        let total = pendingBytes.add(bytes, ordering: .relaxed).newValue
        guard total >= freeSpace.checkEveryBytes else { return }
        pendingBytes.store(0, ordering: .relaxed)
        _ = checkNow()
    }

    private func checkNow() -> FreeSpaceVerdict {
        let verdict = freeSpace.check()
        latest.withLock { $0 = verdict }
        if verdict.isLow && !reported.exchange(true, ordering: .relaxed) { onLow(verdict) }
        return verdict
    }

    /// Ends the thread and waits for it.
    public func stop() {
        guard started.load(ordering: .relaxed) else { return }
        if stopped.exchange(true, ordering: .relaxed) { return }
        wake.signal()
        done.wait()
    }
}
