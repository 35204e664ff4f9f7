import Foundation
import Logging
import Synchronization

/// Log messages posted from the sampling thread and written by a thread of their own, so
/// the sampling thread never waits on stderr or the journal (a terminal paused with Ctrl-S
/// would otherwise stall sampling). Posting takes a short lock; at most `capacity` messages
/// wait, further ones are counted and reported as a number.
public final class DeferredLog: Sendable {
    private struct Pending: Sendable {
        var messages: [(Logger.Level, String)] = []
        var overflow = 0
    }

    private let pending = Mutex(Pending())
    private let wake = WakeSignal()
    private let logger: Logger
    private let capacity: Int

    public init(logger: Logger, capacity: Int = 64) {
        self.logger = logger
        self.capacity = capacity
        let thread = Thread { [self] in self.drainForever() }
        thread.name = "motionlog-log"
        thread.start()
    }

    /// Queues a message (never blocks on output).
    public func post(_ level: Logger.Level, _ message: String) {
        let queued = pending.withLock { p -> Bool in
            guard p.messages.count < capacity else { p.overflow += 1; return false }
            p.messages.append((level, message))
            return true
        }
        if queued { wake.signal() }
    }

    private func drainForever() {
        while true {
            wake.wait(timeout: 1)
            let (messages, overflow) = pending.withLock { p -> ([(Logger.Level, String)], Int) in
                defer { p.messages.removeAll(keepingCapacity: true); p.overflow = 0 }
                return (p.messages, p.overflow)
            }
            for (level, text) in messages { logger.log(level: level, "\(text)") }
            if overflow > 0 { logger.warning("\(overflow) more sensor messages were not shown") }
        }
    }
}
