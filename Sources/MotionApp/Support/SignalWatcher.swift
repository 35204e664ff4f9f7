import Foundation
import MotionCore
import MotionSystem
import Synchronization

/// The process's signals, owned in one place.
///
/// `launch()` is the first thing `main` does, before any thread exists: SIGINT (Ctrl-C),
/// SIGTERM, SIGHUP (the terminal went away) and SIGQUIT (Ctrl-\; unwatched, the Swift
/// runtime's backtracer took it, stopped the sampling thread and once hung the process) are
/// blocked, so every thread created later
/// inherits the mask, and one watcher thread receives them with `sigwaitinfo`. (A thread
/// started before the mask — a logging thread, Foundation's — would take the signal with
/// its default action and kill the process mid-recording.)
///
/// Until a command asks for a clean stop with `onStop`, a signal has its usual effect: the
/// process dies by it, exactly as without the watcher. After `onStop`, the first signal
/// calls the handler (the recording stops cleanly) and a second one, from the user, exits at
/// once. A repeat of the same signal from the same sender within a second is one request,
/// not two: GNU `timeout` sends its signal to the child and then to its whole process group.
enum SignalWatcher {
    static let watched: [Int32] = [Signals.interrupt, Signals.terminate, Signals.hangUp, Signals.quit]

    private struct State {
        var handler: (@Sendable (Int32) -> Void)?
        var first: Received?
        /// What exiting at the second signal leaves behind, said then.
        var leftBehind = recordingLeftBehind
    }

    /// A recording stopped without its clean stop.
    static let recordingLeftBehind = "the next `motionlog record` or `daemon` in this folder recovers the files"

    /// One received signal: number, sender and when (CLOCK_MONOTONIC ns).
    struct Received: Equatable {
        var signal: Int32
        /// The sending process for `kill`/`sigqueue` (nil: the kernel, e.g. Ctrl-C on a terminal).
        var sender: Int32?
        var atNanos: Int64
    }

    private static let state = Mutex(State())
    private static let launched = Atomic<Bool>(false)

    /// Blocks the watched signals in the calling (main) thread and starts the watcher.
    /// Call before anything else starts a thread.
    static func launch() {
        guard !launched.exchange(true, ordering: .relaxed) else { return }
        Signals.block(watched)
        let thread = Thread { watch() }
        thread.name = "motionlog-signals"
        thread.start()
    }

    /// From now on the first watched signal calls `handler` (from the watcher thread) instead
    /// of killing the process; a second one exits with 128 + its number. SIGPIPE is ignored,
    /// so a closed pipe on stdout or stderr makes a write fail instead of killing a recording.
    /// (SIGXFSZ is ignored by every command: `MotionLogMain`.)
    /// `leftBehind` says, at a second signal, what exiting at once leaves for the user.
    static func onStop(leftBehind: String = recordingLeftBehind, _ handler: @escaping @Sendable (Int32) -> Void) {
        launch()
        Signals.ignoreBrokenPipe()
        state.withLock { $0.handler = handler; $0.leftBehind = leftBehind }
    }

    private static func watch() {
        while true {
            guard let taken = Signals.wait(for: watched) else { continue }      // EINTR
            let sig = taken.signal
            let received = Received(signal: sig, sender: taken.sender, atNanos: SystemClock.monotonicNanos())
            switch decide(received) {
            case .dieByDefault: dieBy(sig)
            case .stop(let handler): handler(sig)
            case .ignoreRepeat: continue
            case .exitNow:
                // The live status line goes first: redrawn after the message, it left the
                // shell's prompt on the same line.
                Console.showStatus(nil)
                Console.error("second \(name(sig)): exiting without waiting for the clean stop (\(state.withLock { $0.leftBehind }))")
                Console.flush()
                SafeOutputFile.removeUnfinished()
                CurrentProcess.exitImmediately(128 + sig)
            }
        }
    }

    enum Decision {
        case dieByDefault
        case stop(@Sendable (Int32) -> Void)
        case ignoreRepeat
        case exitNow
    }

    /// What one received signal means, given what came before (pure apart from the state).
    private static func decide(_ r: Received) -> Decision {
        state.withLock { s in
            guard let handler = s.handler else { return .dieByDefault }
            guard let first = s.first else {
                s.first = r
                return .stop(handler)
            }
            return isRepeat(r, of: first) ? .ignoreRepeat : .exitNow
        }
    }

    /// The same signal from the same process within a second: one request delivered twice
    /// (GNU `timeout` signals the child, then its process group).
    static func isRepeat(_ r: Received, of first: Received) -> Bool {
        guard r.signal == first.signal, let sender = r.sender, sender == first.sender else { return false }
        return r.atNanos - first.atNanos < 1_000_000_000
    }

    /// The signal's default effect (the process ends by it), as if it had never been blocked,
    /// but without leaving the temporary file of an output half-written.
    private static func dieBy(_ sig: Int32) -> Never {
        SafeOutputFile.removeUnfinished()
        Console.flush()
        Signals.dieBy(sig)
    }

    static func name(_ sig: Int32) -> String {
        switch sig {
        case Signals.interrupt: return "Ctrl-C (SIGINT)"
        case Signals.terminate: return "SIGTERM"
        case Signals.hangUp: return "SIGHUP"
        case Signals.quit: return "Ctrl-\\ (SIGQUIT)"
        default: return "signal \(sig)"
        }
    }
}
