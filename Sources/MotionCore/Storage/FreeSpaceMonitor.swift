import Dispatch
import Foundation
import Synchronization

/// Watches the free space during a recording from its own thread (never the sampling
/// thread: `statvfs` on a stalled card may block). Checks every `intervalSeconds`; the
/// first time the space is low it calls `onLow` once (the caller stops the recording) and
/// ends. At most a few hundred kB are written between two checks at 1 kHz, far below the
/// reserve.
public final class FreeSpaceMonitor: Sendable {
    private let freeSpace: FreeSpaceGuard
    private let intervalSeconds: Double
    private let onLow: @Sendable (FreeSpaceVerdict) -> Void
    private let stopped = Atomic<Bool>(false)
    private let wake = WakeSignal()
    private let done = WakeSignal()
    private let latest = Mutex<FreeSpaceVerdict?>(nil)
    private let started = Atomic<Bool>(false)

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
                let verdict = freeSpace.check()
                latest.withLock { $0 = verdict }
                if verdict.isLow {
                    onLow(verdict)
                    break
                }
                _ = wake.wait(timeout: intervalSeconds)
            }
            done.signal()
        }
        thread.name = "motionlog-freespace"
        thread.start()
    }

    /// Ends the thread and waits for it.
    public func stop() {
        guard started.load(ordering: .relaxed) else { return }
        if stopped.exchange(true, ordering: .relaxed) { return }
        wake.signal()
        done.wait()
    }
}
