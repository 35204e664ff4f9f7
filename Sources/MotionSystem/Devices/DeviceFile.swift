import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// A device node (`/dev/i2c-N`, `/dev/gpiochipN`) or a descriptor the kernel handed out
/// for one (a GPIO line request): `ioctl(2)` and `read(2)` on it, closed on deinit.
public final class DeviceFile: @unchecked Sendable {
    // @unchecked: `fd` is immutable; the kernel serialises ioctls and reads on it.
    public let fd: Int32

    /// Opens `path` read-write, close-on-exec.
    public convenience init(path: String) throws(Errno) {
        let fd = try FileSystem.open(path, .readWrite, options: [.closeOnExec])
        self.init(adopting: fd.rawValue)
    }

    /// Takes ownership of `fd` (closed on deinit).
    public init(adopting fd: Int32) { self.fd = fd }

    deinit { Glibc.close(fd) }

    /// `ioctl(fd, request, argument)`; returns the call's non-negative result.
    @discardableResult
    public func control(_ request: UInt, _ argument: UnsafeMutableRawPointer) throws(Errno) -> Int32 {
        try Syscall.retrying { ioctl(fd, request, argument) }
    }

    /// `read(2)`: bytes read; 0 when nothing is waiting on a non-blocking descriptor.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        do {
            return try Syscall.retrying { Glibc.read(fd, buffer.baseAddress, buffer.count) }
        } catch where error == .resourceTemporarilyUnavailable {
            return 0
        }
    }
}
