import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// The two rules every wrapper in this module follows, kept in one place:
/// `errno` becomes an `Errno` here and nowhere else, and a call interrupted by a signal
/// (`EINTR`) is made again here and nowhere else.
enum Syscall {
    /// The calling thread's `errno`, typed.
    static var errno: Errno { Errno(rawValue: Glibc.errno) }

    /// Runs a call that returns -1 and sets `errno` on failure; an interrupted call is made
    /// again (it has done nothing yet), any other failure throws its `Errno`.
    @discardableResult
    static func retrying<Result: FixedWidthInteger>(_ call: () -> Result) throws(Errno) -> Result {
        while true {
            let result = call()
            if result != -1 { return result }
            let failure = errno
            if failure != .interrupted { throw failure }
        }
    }

    /// Runs a call that returns an error number (0 on success) instead of setting `errno`:
    /// the pthread family.
    static func checking(_ code: Int32) throws(Errno) {
        if code != 0 { throw Errno(rawValue: code) }
    }
}

/// `errno` for C libraries that report their failures through it (libgps): clear it before
/// the call, read it after.
public enum LibraryErrno {
    public static func clear() { Glibc.errno = 0 }

    /// The errno the last failing call left; nil when none was set.
    public static var last: Errno? {
        let e = Syscall.errno
        return e.rawValue == 0 ? nil : e
    }
}
