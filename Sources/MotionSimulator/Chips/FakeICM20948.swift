import IMUDrivers
import MotionMath

/// A register-level ICM-20948: four register banks selected by REG_BANK_SEL, identity,
/// DEVICE_RESET (power-on state is asleep), full-scale bits in bank 2, the I2C bypass to
/// its AK09916. Data registers (bank 0, 0x2D–0x38) hold the physical truth at each read
/// while awake, big-endian two's complement at the sensitivity of the written full scale.
public final class FakeICM20948: FakeMagnetometerPackage {
    public let magnetometer: FakeAK09916
    public var truth: PhysicalTruth
    public var identity: UInt8
    public let acknowledges = true
    private var banks = [[UInt8]](repeating: [UInt8](repeating: 0, count: 128), count: 4)
    private var bank = 0

    // Bank 0 and bank 2 register numbers, power-on values (DS-000189 §7–§10).
    private static let whoAmI = 0x00, userCtrl = 0x03, lpConfig = 0x05, pwrMgmt1 = 0x06, intPinCfg = 0x0F
    private static let accelOut = 0x2D, gyroOut = 0x33, bankSel = 0x7F
    private static let gyroConfig1 = 0x01, accelConfig = 0x14
    private static let accelLSBPerG: [Double] = [16384, 8192, 4096, 2048]
    private static let gyroLSBPerDps: [Double] = [131, 65.5, 32.8, 16.4]

    public init(identity: UInt8 = 0xEA, truth: @escaping PhysicalTruth = { _ in .faceUpAtRest }) {
        self.identity = identity
        self.truth = truth
        magnetometer = FakeAK09916()
        powerOnRegisters()
        magnetometer.host = self
    }

    /// Attaches the chip at `address` (0x68 or 0x69) and its magnetometer at 0x0C.
    public func install(on bus: FakeI2CBus, address: UInt8 = 0x69) { attachDies(on: bus, address: address) }

    var bypassOpen: Bool {
        banks[0][Self.intPinCfg] & 0x02 != 0 && banks[0][Self.userCtrl] & 0x20 == 0
    }

    public func powerOnRegisters() {
        banks = [[UInt8]](repeating: [UInt8](repeating: 0, count: 128), count: 4)
        bank = 0
        banks[0][Self.whoAmI] = identity
        banks[0][Self.lpConfig] = 0x40
        banks[0][Self.pwrMgmt1] = 0x41          // SLEEP set, CLKSEL 1
        banks[2][Self.gyroConfig1] = 0x01
        banks[2][Self.accelConfig] = 0x01
    }

    public func write(register: UInt8, bytes: [UInt8], at time: Double) {
        for (i, value) in bytes.enumerated() {
            let r = Int(register) + i
            guard r < 128 else { continue }
            if r == Self.bankSel {
                bank = Int(value >> 4 & 0x03)
                continue
            }
            if bank == 0 && r == Self.whoAmI { continue }
            if bank == 0 && r == Self.pwrMgmt1 && value & 0x80 != 0 {
                powerOnRegisters()
                continue
            }
            banks[bank][r] = value
        }
    }

    public func read(register: UInt8, count: Int, at time: Double) -> [UInt8] {
        banks[0][Self.whoAmI] = identity
        banks[bank][Self.bankSel] = UInt8(bank << 4)
        if banks[0][Self.pwrMgmt1] & 0x40 == 0 { sample(truth(time)) }
        return FakeRegisterCoding.burst(banks[bank], from: register, count: count)
    }

    private func sample(_ state: PhysicalState) {
        let accelScale = Self.accelLSBPerG[Int(banks[2][Self.accelConfig] >> 1 & 0x03)]
        let gyroScale = Self.gyroLSBPerDps[Int(banks[2][Self.gyroConfig1] >> 1 & 0x03)]
        let dps = state.angularRate * FakeRegisterCoding.degreesPerRadian
        FakeRegisterCoding.storeAxes(state.specificForce, perCount: 1 / accelScale, order: .bigEndian,
                                     into: &banks[0], at: Self.accelOut)
        FakeRegisterCoding.storeAxes(dps, perCount: 1 / gyroScale, order: .bigEndian, into: &banks[0], at: Self.gyroOut)
    }

    func truthForMagnetometer(at time: Double) -> PhysicalState { truth(time) }
}

/// A register-level AK09916 (inside the ICM-20948): WIA1/WIA2, CNTL2 modes 10–100 Hz,
/// CNTL3 soft reset, ST1 DRDY/DOR, ST2 HOFL; reading ST2 ends the read cycle.
/// Encoding from its datasheet: die axes are the ICM's (X, −Y, −Z); 0.15 µT per count,
/// little-endian, saturating at ±32752; HOFL when |X|+|Y|+|Z| exceeds 4912 µT.
public final class FakeAK09916: FakePackagedMagnetometer {
    weak var host: FakeICM20948?
    public var dataReadyNeverSet = false
    private var registers = [UInt8](repeating: 0, count: 0x33)
    private var clock = FakeSampleClock()

    private static let st1 = 0x10, hxl = 0x11, st2 = 0x18, cntl2 = 0x31, cntl3 = 0x32
    /// CNTL2 mode → rate (continuous modes 1–4).
    private static let rates: [UInt8: Double] = [0x02: 10, 0x04: 20, 0x06: 50, 0x08: 100]

    init() { powerOn() }

    public var acknowledges: Bool { host?.bypassOpen ?? false }

    public func powerOn() {
        registers = [UInt8](repeating: 0, count: 0x33)
        registers[0x00] = 0x48
        registers[0x01] = 0x09
        clock.configure(rateHz: nil, at: 0)
    }

    public func write(register: UInt8, bytes: [UInt8], at time: Double) {
        for (i, value) in bytes.enumerated() {
            let r = Int(register) + i
            if r == Self.cntl2 {
                registers[r] = value & 0x1F
                clock.configure(rateHz: Self.rates[value & 0x1F], at: time)
            } else if r == Self.cntl3, value & 0x01 != 0 {
                powerOn()
            }
        }
    }

    public func read(register: UInt8, count: Int, at time: Double) -> [UInt8] {
        if !dataReadyNeverSet, let sample = clock.newSample(at: time) {
            if registers[Self.st1] & 0x01 != 0 || sample.skipped { registers[Self.st1] |= 0x02 }
            registers[Self.st1] |= 0x01
            latch(host?.truthForMagnetometer(at: sample.time).magneticField ?? .zero)
        }
        let out = (0..<count).map { i -> UInt8 in
            let r = Int(register) + i
            return r < registers.count ? registers[r] : 0
        }
        let last = Int(register) + count - 1
        if Int(register) <= Self.st2 && last >= Self.st2 { registers[Self.st1] &= ~0x03 }   // ST2 read ends the cycle
        return out
    }

    private func latch(_ field: Vector3) {
        let die = Vector3(field.x, -field.y, -field.z)
        FakeRegisterCoding.storeAxes(die, perCount: 0.15, limit: 32752, floor: -32752, order: .littleEndian,
                                     into: &registers, at: Self.hxl)
        registers[0x17] = 0  // TMPS (dummy)
        registers[Self.st2] = abs(die.x) + abs(die.y) + abs(die.z) > 4912 ? 0x08 : 0
    }
}
