import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// `poll(2)` over a few descriptors.
public enum Poll {
    /// What to wait for on one descriptor.
    public struct Interest: Sendable {
        public var fd: Int32
        /// True: readable (POLLIN); false: writable (POLLOUT).
        public var readable: Bool

        public init(fd: Int32, readable: Bool = true) { self.fd = fd; self.readable = readable }
    }

    /// Waits until one of `interests` is ready or `timeoutMilliseconds` pass (negative:
    /// forever). Returns, per interest, whether anything happened on it (ready, hung up or
    /// failed); all false on timeout or when a signal interrupted the wait (the caller's
    /// loop decides whether to wait again, with its own deadline).
    public static func wait(_ interests: [Interest], timeoutMilliseconds: Int32) throws(Errno) -> [Bool] {
        var fds = interests.map { pollfd(fd: $0.fd, events: Int16($0.readable ? POLLIN : POLLOUT), revents: 0) }
        let n = poll(&fds, nfds_t(fds.count), timeoutMilliseconds)
        if n < 0 {
            let failure = Syscall.errno
            if failure == .interrupted { return Array(repeating: false, count: fds.count) }
            throw failure
        }
        return fds.map { $0.revents != 0 }
    }
}
