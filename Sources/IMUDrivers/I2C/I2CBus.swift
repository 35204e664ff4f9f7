/// An I2C bus as the drivers see it: register writes, and block reads done as ONE combined
/// transaction (write the register address, repeated START, read) so no other master can
/// slip in between and the chip's auto-increment covers the whole block.
///
/// Implementations: `LinuxI2CBus` (`/dev/i2c-N`, the `I2C_RDWR` ioctl) in LinuxHardware and
/// `FakeI2CBus` (register-level chip models) in MotionSimulator. Every failure is a thrown
/// `I2CError` naming the bus, address, register and errno; nothing aborts.
///
/// Used from one thread at a time (the sampling thread); implementations need not lock.
public protocol I2CBus: AnyObject {
    /// The bus as a person would name it, e.g. `/dev/i2c-1`.
    var name: String { get }

    /// Writes `bytes` to consecutive registers starting at `register`, in one transaction
    /// (`START address+W register bytes... STOP`).
    func write(address: UInt8, register: UInt8, bytes: [UInt8]) throws(I2CError)

    /// Reads `buffer.count` bytes starting at `register` in one combined transaction
    /// (`START address+W register, repeated START address+R, bytes..., STOP`).
    /// Must not allocate: this is the per-tick path.
    func read(address: UInt8, register: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(I2CError)
}

extension I2CBus {
    /// Writes one register.
    public func writeByte(address: UInt8, register: UInt8, _ value: UInt8) throws(I2CError) {
        try write(address: address, register: register, bytes: [value])
    }

    /// Reads one register.
    public func readByte(address: UInt8, register: UInt8) throws(I2CError) -> UInt8 {
        var value: UInt8 = 0
        try withUnsafeMutableBytes(of: &value) { (p: UnsafeMutableRawBufferPointer) throws(I2CError) in
            try read(address: address, register: register, into: p)
        }
        return value
    }

    /// Reads `count` registers into a new array (configuration time only: it allocates).
    public func readBytes(address: UInt8, register: UInt8, count: Int) throws(I2CError) -> [UInt8] {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(count, 1), alignment: 1)
        defer { buffer.deallocate() }
        let slice = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count])
        try read(address: address, register: register, into: slice)
        return Array(slice)
    }
}
