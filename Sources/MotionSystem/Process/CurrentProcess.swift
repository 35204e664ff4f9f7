#if canImport(Glibc)
import Glibc
#endif

/// The running process: ids and ways to end it.
public enum CurrentProcess {
    /// `getpid()`.
    public static var id: Int32 { getpid() }

    /// `getegid()`: the group new files get.
    public static var effectiveGroupID: UInt32 { getegid() }

    /// `exit(3)`: atexit handlers run and stdio buffers are flushed.
    public static func exit(_ code: Int32) -> Never { Glibc.exit(code) }

    /// `_exit(2)`: ends at once, nothing more runs (after a fatal signal was asked for).
    public static func exitImmediately(_ code: Int32) -> Never { _exit(code) }
}
