import CI2C
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// An i2c-dev device node (`/dev/i2c-N`): the `I2C_FUNCS` and `I2C_RDWR` ioctls. A
/// register read is one `I2C_RDWR` of two messages (the register, then the read) joined by
/// a repeated START, so no other master slips in between.
public final class I2CAdapter: @unchecked Sendable {
    // @unchecked: `device` is immutable; the kernel serialises transfers on it.
    private let device: DeviceFile

    /// Opens the node read-write.
    public init(path: String) throws(Errno) {
        device = try DeviceFile(path: path)
    }

    /// The adapter's `I2C_FUNCS` bits; fails (ENOTTY, EINVAL) on a node that is no adapter.
    public func functionality() throws(Errno) -> UInt {
        var bits: UInt = 0
        try withUnsafeMutablePointer(to: &bits) { (p) throws(Errno) in _ = try device.control(UInt(I2C_FUNCS), p) }
        return bits
    }

    /// True when the adapter does plain-I2C combined transfers (`I2C_FUNC_I2C`).
    public func supportsCombinedTransfers() throws(Errno) -> Bool {
        try functionality() & UInt(I2C_FUNC_I2C) != 0
    }

    /// Writes `register` then `bytes` in one message; returns the messages done (1 expected).
    public func write(address: UInt8, register: UInt8, bytes: [UInt8]) throws(Errno) -> Int32 {
        var message = [register] + bytes
        let count = message.count
        return try message.withMutableBuffer { (buffer) throws(Errno) -> Int32 in
            var msgs = [i2c_msg(addr: UInt16(address), flags: 0, len: UInt16(count), buf: buffer.baseAddress)]
            return try transfer(&msgs)
        }
    }

    /// Writes `register`, then reads `destination.count` bytes after a repeated START;
    /// returns the messages done (2 expected).
    public func read(address: UInt8, register: UInt8, into destination: UnsafeMutableBufferPointer<UInt8>) throws(Errno) -> Int32 {
        var reg = register
        return try withUnsafeMutablePointer(to: &reg) { (regPointer) throws(Errno) -> Int32 in
            // A tuple, not an array: the sampling thread reads every tick and must not allocate.
            var msgs = (i2c_msg(addr: UInt16(address), flags: 0, len: 1, buf: regPointer),
                        i2c_msg(addr: UInt16(address), flags: UInt16(I2C_M_RD), len: UInt16(destination.count),
                                buf: destination.baseAddress))
            return try withUnsafeMutableBytes(of: &msgs) { (raw) throws(Errno) -> Int32 in
                var data = i2c_rdwr_ioctl_data(msgs: raw.baseAddress?.assumingMemoryBound(to: i2c_msg.self), nmsgs: 2)
                return try device.control(UInt(I2C_RDWR), &data)
            }
        }
    }

    private func transfer(_ msgs: inout [i2c_msg]) throws(Errno) -> Int32 {
        let n = UInt32(msgs.count)
        return try msgs.withMutableBuffer { (p) throws(Errno) -> Int32 in
            var data = i2c_rdwr_ioctl_data(msgs: p.baseAddress, nmsgs: n)
            return try device.control(UInt(I2C_RDWR), &data)
        }
    }
}

extension Errno {
    /// `EREMOTEIO`: an I2C adapter's "no acknowledge" (swift-system has no name for it).
    public static var remoteIOError: Errno { Errno(rawValue: EREMOTEIO) }
}
