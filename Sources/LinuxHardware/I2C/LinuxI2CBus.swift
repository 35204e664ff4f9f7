import CI2C
import Glibc
import IMUDrivers

/// An I2C bus device node, `/dev/i2c-N`, through the kernel's i2c-dev interface.
///
/// Every transfer is one `I2C_RDWR` ioctl: a register read is a write message (the
/// register) and a read message joined by a repeated START, so no other master can slip
/// in between and the chip auto-increments over the whole block. Needs an adapter with
/// plain-I2C support (`I2C_FUNC_I2C`), which opening checks. Errors are `I2CError`s with
/// bus, address, register and errno; nothing aborts.
public final class LinuxI2CBus: I2CBus {
    public let name: String
    private let fd: Int32

    /// Opens `/dev/i2c-<bus>`.
    public convenience init(bus: Int) throws(I2CError) {
        try self.init(path: Self.path(forBus: bus))
    }

    /// Opens a device node, checking it is an I2C adapter able to do combined transfers.
    public init(path: String) throws(I2CError) {
        let fd = open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw I2CErrno.openError(path: path, errno: errno) }
        var functionality: UInt = 0
        if ioctl(fd, UInt(I2C_FUNCS), &functionality) < 0 {
            let e = errno
            close(fd)
            throw I2CErrno.functionalityError(path: path, errno: e)
        }
        guard functionality & UInt(I2C_FUNC_I2C) != 0 else {
            close(fd)
            throw I2CError(kind: .noCombinedTransfers, bus: path, operation: .open)
        }
        self.fd = fd
        self.name = path
    }

    deinit { close(fd) }

    /// `/dev/i2c-N` for a bus number.
    public static func path(forBus bus: Int) -> String { "/dev/i2c-\(bus)" }

    /// A bus given as a number (`1`) or a device path (`/dev/i2c-1`).
    public static func path(forArgument text: String) -> String? {
        if text.hasPrefix("/") { return text }
        guard let n = Int(text), n >= 0 else { return nil }
        return path(forBus: n)
    }

    /// The most one i2c-dev message may carry (its length field is 16 bits); longer requests are refused.
    public static let maxTransferBytes = 4096

    public func write(address: UInt8, register: UInt8, bytes: [UInt8]) throws(I2CError) {
        guard bytes.count < Self.maxTransferBytes else {
            throw I2CError(kind: .transferFailed, bus: name, operation: .write(count: bytes.count), address: address, register: register)
        }
        var message = [register] + bytes
        let count = message.count
        let result = message.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var msgs = [i2c_msg(addr: UInt16(address), flags: 0, len: UInt16(count), buf: buffer.baseAddress)]
            return transfer(&msgs)
        }
        try check(result, expected: 1, operation: .write(count: bytes.count), address: address, register: register)
    }

    public func read(address: UInt8, register: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(I2CError) {
        guard let destination = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self), buffer.count > 0 else { return }
        guard buffer.count <= Self.maxTransferBytes else {
            throw I2CError(kind: .transferFailed, bus: name, operation: .read(count: buffer.count), address: address, register: register)
        }
        var reg = register
        let result = withUnsafeMutablePointer(to: &reg) { regPointer -> Int32 in
            var msgs = (i2c_msg(addr: UInt16(address), flags: 0, len: 1, buf: regPointer),
                        i2c_msg(addr: UInt16(address), flags: UInt16(I2C_M_RD), len: UInt16(buffer.count), buf: destination))
            return withUnsafeMutableBytes(of: &msgs) { raw -> Int32 in
                var data = i2c_rdwr_ioctl_data(msgs: raw.baseAddress?.assumingMemoryBound(to: i2c_msg.self), nmsgs: 2)
                return ioctl(fd, UInt(I2C_RDWR), &data)
            }
        }
        try check(result, expected: 2, operation: .read(count: buffer.count), address: address, register: register)
    }

    private func transfer(_ msgs: inout [i2c_msg]) -> Int32 {
        let n = UInt32(msgs.count)
        return msgs.withUnsafeMutableBufferPointer { p -> Int32 in
            var data = i2c_rdwr_ioctl_data(msgs: p.baseAddress, nmsgs: n)
            return ioctl(fd, UInt(I2C_RDWR), &data)
        }
    }

    private func check(_ result: Int32, expected: Int32, operation: I2CError.Operation, address: UInt8,
                       register: UInt8) throws(I2CError) {
        if result < 0 {
            throw I2CErrno.transferError(path: name, operation: operation, address: address, register: register, errno: errno)
        }
        if result != expected {
            throw I2CError(kind: .shortTransfer, bus: name, operation: operation, address: address, register: register)
        }
    }
}
