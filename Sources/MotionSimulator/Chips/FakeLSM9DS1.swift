import IMUDrivers
import MotionMath

/// A register-level LSM9DS1: the accelerometer/gyroscope device and, at its own address,
/// the magnetometer (`FakeLSM9DS1Magnetometer`). Honours SW_RESET/BOOT, power-down
/// (ODR 000), full-scale bits and IF_ADD_INC (without it, multi-byte reads repeat one
/// register). Data: little-endian two's complement, `count = value ÷ sensitivity` with the
/// datasheet's Table 3 sensitivity of the written full scale.
public final class FakeLSM9DS1: FakeI2CDevice {
    public let magnetometer: FakeLSM9DS1Magnetometer
    public var truth: PhysicalTruth
    public var identity: UInt8
    public let acknowledges = true
    private var registers = [UInt8](repeating: 0, count: 128)

    private static let whoAmI = 0x0F, ctrlReg1G = 0x10, outG = 0x18, ctrlReg4 = 0x1E, ctrlReg5XL = 0x1F
    private static let ctrlReg6XL = 0x20, ctrlReg8 = 0x22, outXL = 0x28
    /// FS_XL code → mg per count (00 ±2 g, 01 ±16 g, 10 ±4 g, 11 ±8 g).
    private static let accelMgPerCount: [Double] = [0.061, 0.732, 0.122, 0.244]
    /// FS_G code → m°/s per count (00 245, 01 500, 10 not available (acts as 245 here), 11 2000).
    private static let gyroMdpsPerCount: [Double] = [8.75, 17.5, 8.75, 70]

    public init(identity: UInt8 = 0x68, truth: @escaping PhysicalTruth = { _ in .faceUpAtRest }) {
        self.identity = identity
        self.truth = truth
        magnetometer = FakeLSM9DS1Magnetometer()
        powerOnRegisters()
        magnetometer.host = self
    }

    /// Attaches the accelerometer/gyroscope at `address` and the magnetometer at `magAddress`.
    public func install(on bus: FakeI2CBus, address: UInt8 = 0x6B, magAddress: UInt8 = 0x1E) {
        bus.attach(self, at: address)
        bus.attach(magnetometer, at: magAddress)
    }

    public func powerCycle() {
        powerOnRegisters()
        magnetometer.powerOn()
    }

    private func powerOnRegisters() {
        registers = [UInt8](repeating: 0, count: 128)
        registers[Self.whoAmI] = identity
        registers[Self.ctrlReg4] = 0x38
        registers[Self.ctrlReg5XL] = 0x38
        registers[Self.ctrlReg8] = 0x04
    }

    public func write(register: UInt8, bytes: [UInt8], at time: Double) {
        for (i, value) in bytes.enumerated() {
            let r = Int(register) + (registers[Self.ctrlReg8] & 0x04 != 0 ? i : 0)
            guard r < 128, r != Self.whoAmI else { continue }
            if r == Self.ctrlReg8, value & 0x81 != 0 {   // SW_RESET or BOOT
                powerOnRegisters()
                continue
            }
            registers[r] = value
        }
    }

    public func read(register: UInt8, count: Int, at time: Double) -> [UInt8] {
        registers[Self.whoAmI] = identity
        let gyroOn = registers[Self.ctrlReg1G] >> 5 != 0
        let accelOn = gyroOn || registers[Self.ctrlReg6XL] >> 5 != 0
        if gyroOn || accelOn { sample(truth(time), gyro: gyroOn) }
        let increment = registers[Self.ctrlReg8] & 0x04 != 0
        return FakeRegisterCoding.burst(registers, from: register, count: count, autoIncrement: increment)
    }

    private func sample(_ state: PhysicalState, gyro: Bool) {
        let mg = Self.accelMgPerCount[Int(registers[Self.ctrlReg6XL] >> 3 & 0x03)]
        let mdps = Self.gyroMdpsPerCount[Int(registers[Self.ctrlReg1G] >> 3 & 0x03)]
        let dps = state.angularRate * FakeRegisterCoding.degreesPerRadian
        FakeRegisterCoding.storeAxes(state.specificForce * 1000, perCount: mg, order: .littleEndian,
                                     into: &registers, at: Self.outXL)
        if gyro {
            FakeRegisterCoding.storeAxes(dps * 1000, perCount: mdps, order: .littleEndian, into: &registers, at: Self.outG)
        }
    }

    func truthForMagnetometer(at time: Double) -> PhysicalState { truth(time) }
}

/// The LSM9DS1 magnetometer: its own I2C device (0x1C/0x1E). Honours SOFT_RST/REBOOT,
/// the operating mode (MD: continuous, single, power-down), the output data rate (DO,
/// FAST_ODR), full scale (±4…16 gauss) and the register-address MSB that enables
/// auto-increment (without it a multi-byte read repeats one register). STATUS_REG_M
/// ZYXDA/ZYXOR. Encoding from the datasheet: die X points opposite the accelerometer's X
/// (Y, Z agree); count = field ÷ sensitivity (0.14/0.29/0.43/0.58 mgauss per count),
/// little-endian, saturating at the 16-bit limits.
public final class FakeLSM9DS1Magnetometer: FakeI2CDevice {
    weak var host: FakeLSM9DS1?
    public var dataReadyNeverSet = false
    public var identity: UInt8 = 0x3D
    public let acknowledges = true
    private var registers = [UInt8](repeating: 0, count: 0x34)
    private var clock = FakeSampleClock()

    private static let whoAmI = 0x0F, ctrl1 = 0x20, ctrl2 = 0x21, ctrl3 = 0x22, status = 0x27, outX = 0x28
    private static let mgaussPerCount: [Double] = [0.14, 0.29, 0.43, 0.58]
    private static let rates: [Double] = [0.625, 1.25, 2.5, 5, 10, 20, 40, 80]
    /// FAST_ODR rate by operating mode (low power … ultra-high performance).
    private static let fastRates: [Double] = [1000, 560, 300, 155]

    init() { powerOn() }

    func powerOn() {
        registers = [UInt8](repeating: 0, count: 0x34)
        registers[Self.ctrl1] = 0x10
        registers[Self.ctrl3] = 0x03
        registers[0x30] = 0x08           // INT_CFG_M
        clock.configure(rateHz: nil, at: 0)
    }

    public func write(register: UInt8, bytes: [UInt8], at time: Double) {
        let start = Int(register & 0x7F)
        let increment = register & 0x80 != 0
        for (i, value) in bytes.enumerated() {
            let r = start + (increment ? i : 0)
            guard r < registers.count, r != Self.whoAmI, r != Self.status else { continue }
            if r == Self.ctrl2, value & 0x0C != 0 {   // SOFT_RST or REBOOT
                powerOn()
                continue
            }
            registers[r] = value
            if r == Self.ctrl1 || r == Self.ctrl3 { reconfigure(at: time) }
        }
    }

    private func reconfigure(at time: Double) {
        guard registers[Self.ctrl3] & 0x03 == 0 else { clock.configure(rateHz: nil, at: time); return }
        let c1 = registers[Self.ctrl1]
        let rate = c1 & 0x02 != 0 ? Self.fastRates[Int(c1 >> 5 & 0x03)] : Self.rates[Int(c1 >> 2 & 0x07)]
        clock.configure(rateHz: rate, at: time)
    }

    public func read(register: UInt8, count: Int, at time: Double) -> [UInt8] {
        registers[Self.whoAmI] = identity
        if !dataReadyNeverSet, let sample = clock.newSample(at: time) {
            if registers[Self.status] & 0x08 != 0 || sample.skipped { registers[Self.status] |= 0x80 }
            registers[Self.status] |= 0x08
            latch(host?.truthForMagnetometer(at: sample.time).magneticField ?? .zero)
        }
        let start = Int(register & 0x7F)
        let increment = register & 0x80 != 0
        var touchedData = false
        let out = (0..<count).map { i -> UInt8 in
            let r = start + (increment ? i : 0)
            if r >= Self.outX && r <= Self.outX + 5 { touchedData = true }
            return r < registers.count ? registers[r] : 0
        }
        if touchedData { registers[Self.status] = 0 }
        return out
    }

    private func latch(_ field: Vector3) {
        let die = Vector3(-field.x, field.y, field.z)
        let perCount = Self.mgaussPerCount[Int(registers[Self.ctrl2] >> 5 & 0x03)]
        // µT → mgauss: 1 µT = 10 mgauss.
        FakeRegisterCoding.storeAxes(die * 10, perCount: perCount, order: .littleEndian, into: &registers, at: Self.outX)
    }
}
