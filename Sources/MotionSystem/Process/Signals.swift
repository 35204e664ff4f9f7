#if canImport(Glibc)
import Glibc
#endif

/// Signal masks and synchronous signal reception (`pthread_sigmask`, `sigwaitinfo`): a
/// process blocks its stop signals in every thread and takes them on one watcher thread.
public enum Signals {
    public static let interrupt = SIGINT
    public static let terminate = SIGTERM
    public static let hangUp = SIGHUP
    /// Ctrl-\ on a terminal.
    public static let quit = SIGQUIT

    /// One signal taken by `wait`.
    public struct Received: Sendable, Equatable {
        public var signal: Int32
        /// The sending process for `kill`/`sigqueue` (nil: the kernel, e.g. Ctrl-C on a terminal).
        public var sender: Int32?
    }

    /// Blocks `signals` in the calling thread (threads it starts later inherit the mask).
    public static func block(_ signals: [Int32]) {
        var set = makeSet(signals)
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Waits for one of `signals` (which must be blocked); nil when the wait was interrupted.
    public static func wait(for signals: [Int32]) -> Received? {
        var set = makeSet(signals)
        var info = siginfo_t()
        let sig = sigwaitinfo(&set, &info)
        guard sig > 0 else { return nil }
        let fromProcess = info.si_code == SI_USER || info.si_code == SI_QUEUE
        return Received(signal: sig, sender: fromProcess ? info._sifields._kill.si_pid : nil)
    }

    /// SIGPIPE is ignored from now on: a write to a closed pipe fails with EPIPE instead.
    public static func ignoreBrokenPipe() { signal(SIGPIPE, SIG_IGN) }

    /// SIGXFSZ is ignored from now on: a write past the process's file size limit
    /// (`ulimit -f`) fails with EFBIG instead of killing the process.
    public static func ignoreFileSizeLimit() { signal(SIGXFSZ, SIG_IGN) }

    /// The signal's default effect (the process ends by it), as if it had never been
    /// blocked; `_exit(128 + signal)` should the default not end the process.
    public static func dieBy(_ sig: Int32) -> Never {
        signal(sig, SIG_DFL)
        var one = makeSet([sig])
        raise(sig)
        pthread_sigmask(SIG_UNBLOCK, &one, nil)
        _exit(128 + sig)
    }

    static func makeSet(_ signals: [Int32]) -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for s in signals { sigaddset(&set, s) }
        return set
    }
}
