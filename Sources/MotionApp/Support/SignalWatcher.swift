import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Turns SIGINT (Ctrl-C) and SIGTERM into a clean stop. The signals are blocked in every
/// thread (call `install` before starting any thread) and received by one watcher thread
/// with `sigwait`, so the handler can run ordinary code.
enum SignalWatcher {
    static func install(_ onSignal: @escaping @Sendable (Int32) -> Void) {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &set, nil)
        let watched = set
        let thread = Thread {
            var s = watched
            var received = 0
            while true {
                var sig: Int32 = 0
                guard sigwait(&s, &sig) == 0 else { continue }
                received += 1
                if received == 1 {
                    onSignal(sig)
                } else {
                    // A second signal while the clean stop is still running: the user wants out now.
                    Console.error("second \(sig == SIGINT ? "Ctrl-C" : "signal"): exiting without waiting for the clean stop (run `motionlog record` again to recover the files)")
                    _exit(130)
                }
            }
        }
        thread.name = "motionlog-signals"
        thread.start()
    }
}
