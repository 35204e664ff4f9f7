import IMUDrivers
import MotionSystem
import SystemPackage

/// An I2C bus device node, `/dev/i2c-N`, through the kernel's i2c-dev interface.
///
/// Every transfer is one `I2C_RDWR` ioctl: a register read is a write message (the
/// register) and a read message joined by a repeated START, so no other master can slip
/// in between and the chip auto-increments over the whole block. Needs an adapter with
/// plain-I2C support (`I2C_FUNC_I2C`), which opening checks. Errors are `I2CError`s with
/// bus, address, register and errno; nothing aborts.
public final class LinuxI2CBus: I2CBus {
    public let name: String
    private let adapter: I2CAdapter

    /// Opens `/dev/i2c-<bus>`.
    public convenience init(bus: Int) throws(I2CError) {
        try self.init(path: Self.path(forBus: bus))
    }

    /// Opens a device node, checking it is an I2C adapter able to do combined transfers.
    public init(path: String) throws(I2CError) {
        let adapter: I2CAdapter
        do { adapter = try I2CAdapter(path: path) } catch { throw I2CErrno.openError(path: path, errno: error.rawValue) }
        let combined: Bool
        do { combined = try adapter.supportsCombinedTransfers() } catch {
            throw I2CErrno.functionalityError(path: path, errno: error.rawValue)
        }
        guard combined else { throw I2CError(kind: .noCombinedTransfers, bus: path, operation: .open) }
        self.adapter = adapter
        self.name = path
    }

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
        let operation = I2CError.Operation.write(count: bytes.count)
        let result: Int32
        do { result = try adapter.write(address: address, register: register, bytes: bytes) } catch {
            throw I2CErrno.transferError(path: name, operation: operation, address: address, register: register, errno: error.rawValue)
        }
        try check(result, expected: 1, operation: operation, address: address, register: register)
    }

    public func read(address: UInt8, register: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(I2CError) {
        guard let destination = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self), buffer.count > 0 else { return }
        guard buffer.count <= Self.maxTransferBytes else {
            throw I2CError(kind: .transferFailed, bus: name, operation: .read(count: buffer.count), address: address, register: register)
        }
        let operation = I2CError.Operation.read(count: buffer.count)
        let result: Int32
        do {
            result = try adapter.read(address: address, register: register,
                                      into: UnsafeMutableBufferPointer(start: destination, count: buffer.count))
        } catch {
            throw I2CErrno.transferError(path: name, operation: operation, address: address, register: register, errno: error.rawValue)
        }
        try check(result, expected: 2, operation: operation, address: address, register: register)
    }

    private func check(_ result: Int32, expected: Int32, operation: I2CError.Operation, address: UInt8,
                       register: UInt8) throws(I2CError) {
        if result != expected {
            throw I2CError(kind: .shortTransfer, bus: name, operation: operation, address: address, register: register)
        }
    }
}
