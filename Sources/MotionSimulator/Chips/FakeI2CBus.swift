import IMUDrivers

/// A register-level device on a `FakeI2CBus`.
public protocol FakeI2CDevice: AnyObject {
    /// False makes the bus answer NACK for this device (e.g. an AK8963 whose host has the
    /// bypass switched off).
    var acknowledges: Bool { get }
    /// A write transaction: `bytes` to `register`, `register + 1`, ... (as the chip increments).
    func write(register: UInt8, bytes: [UInt8], at time: Double)
    /// A combined read transaction of `count` bytes starting at `register`.
    func read(register: UInt8, count: Int, at time: Double) -> [UInt8]
}

/// Faults the bus injects, independent of the chips.
public struct FakeBusFaults: Sendable, Equatable {
    /// Addresses that do not acknowledge at all (as if unplugged).
    public var nack: Set<UInt8> = []
    /// The next this many transfers fail with EIO…
    public var ioErrors: Int = 0
    /// …only those to this address, when set.
    public var ioErrorAddress: UInt8?

    public init() {}
}

/// An `I2CBus` hosting register-level chip models at addresses, for tests and the
/// simulator board. Time is set from outside (`advance(to:)`): the chips encode the
/// physical truth at that time. Faults can be set directly or scheduled at a time.
public final class FakeI2CBus: I2CBus {
    public let name: String
    public private(set) var time: Double = 0
    public var faults = FakeBusFaults()
    /// Completed transfers per address (reads, writes), for tests that count bursts.
    public private(set) var reads: [UInt8: Int] = [:]
    public private(set) var writes: [UInt8: Int] = [:]
    private var devices: [UInt8: FakeI2CDevice] = [:]
    private var scheduled: [(time: Double, action: (FakeI2CBus) -> Void)] = []

    /// Linux reports a NACK from most adapters (i2c-bcm2835 included) as EREMOTEIO.
    public static let nackErrno: Int32 = 121
    public static let ioErrno: Int32 = 5

    public init(name: String = "simulated I2C bus") { self.name = name }

    public func attach(_ device: FakeI2CDevice, at address: UInt8) { devices[address] = device }
    public func detach(address: UInt8) { devices[address] = nil }
    public func device(at address: UInt8) -> FakeI2CDevice? { devices[address] }

    /// Moves the bus clock; scheduled faults whose time has come run first, in time order.
    public func advance(to time: Double) {
        self.time = time
        while let next = scheduled.first, next.time <= time {
            scheduled.removeFirst()
            next.action(self)
        }
    }

    /// Runs `action` once the clock reaches `time` (fault injection during a recording).
    public func schedule(at time: Double, _ action: @escaping (FakeI2CBus) -> Void) {
        scheduled.append((time, action))
        scheduled.sort { $0.time < $1.time }
    }

    public func write(address: UInt8, register: UInt8, bytes: [UInt8]) throws(I2CError) {
        let device = try connect(address: address, register: register, operation: .write(count: bytes.count))
        device.write(register: register, bytes: bytes, at: time)
        writes[address, default: 0] += 1
    }

    public func read(address: UInt8, register: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(I2CError) {
        let device = try connect(address: address, register: register, operation: .read(count: buffer.count))
        let bytes = device.read(register: register, count: buffer.count, at: time)
        for i in 0..<buffer.count { buffer[i] = i < bytes.count ? bytes[i] : 0xFF }
        reads[address, default: 0] += 1
    }

    private func connect(address: UInt8, register: UInt8, operation: I2CError.Operation) throws(I2CError) -> FakeI2CDevice {
        if faults.ioErrors > 0, faults.ioErrorAddress == nil || faults.ioErrorAddress == address {
            faults.ioErrors -= 1
            throw I2CError(kind: .ioError, bus: name, operation: operation, address: address, register: register,
                           errno: Self.ioErrno, systemMessage: "Input/output error")
        }
        guard !faults.nack.contains(address), let device = devices[address], device.acknowledges else {
            throw I2CError(kind: .noAcknowledge, bus: name, operation: operation, address: address, register: register,
                           errno: Self.nackErrno, systemMessage: "Remote I/O error")
        }
        return device
    }
}
