import IMUDrivers
import MotionMath

/// A register-level MPU-9250 (accelerometer/gyroscope die): its register file, identity,
/// reset, sleep, full-scale bits and the I2C bypass that exposes its AK8963. Data registers
/// hold the physical truth at the time of each read, encoded as the register map says:
/// big-endian two's complement, `count = value × sensitivity` with the sensitivity of the
/// full scale currently written (so a driver that assumes another scale reads wrong values).
public final class FakeMPU9250: FakeMagnetometerPackage {
    /// The AK8963 in the same package, attached at 0x0C by `install(on:)`.
    public let magnetometer: FakeAK8963
    public var truth: PhysicalTruth
    /// WHO_AM_I; set another value to fake a wrong chip.
    public var identity: UInt8
    public let acknowledges = true
    private var registers = [UInt8](repeating: 0, count: 128)

    // Register numbers and power-on values from the register map (RM-MPU-9250A-00).
    private static let gyroConfig = 0x1B, accelConfig = 0x1C, intPinCfg = 0x37, accelOut = 0x3B, gyroOut = 0x43
    private static let userCtrl = 0x6A, pwrMgmt1 = 0x6B, whoAmI = 0x75
    /// Sensitivity per full-scale code: LSB/g (±2, 4, 8, 16 g) and LSB/(°/s) (±250…2000).
    private static let accelLSBPerG: [Double] = [16384, 8192, 4096, 2048]
    private static let gyroLSBPerDps: [Double] = [131, 65.5, 32.8, 16.4]

    public init(identity: UInt8 = 0x71, fuseROM: (x: UInt8, y: UInt8, z: UInt8) = (0xB2, 0xB4, 0xA6),
                truth: @escaping PhysicalTruth = { _ in .faceUpAtRest }) {
        self.identity = identity
        self.truth = truth
        magnetometer = FakeAK8963(fuseROM: fuseROM)
        powerOnRegisters()
        magnetometer.host = self
    }

    /// Attaches the chip at `address` (0x68 or 0x69) and its magnetometer at 0x0C.
    public func install(on bus: FakeI2CBus, address: UInt8 = 0x68) { attachDies(on: bus, address: address) }

    /// True while the AK8963 is reachable from the host bus (bypass on, I2C master off).
    var bypassOpen: Bool {
        registers[Self.intPinCfg] & 0x02 != 0 && registers[Self.userCtrl] & 0x20 == 0
    }

    public func powerOnRegisters() {
        registers = [UInt8](repeating: 0, count: 128)
        registers[Self.pwrMgmt1] = 0x01
        registers[Self.whoAmI] = identity
    }

    public func write(register: UInt8, bytes: [UInt8], at time: Double) {
        for (i, value) in bytes.enumerated() {
            let r = Int(register) + i
            guard r < 128, r != Self.whoAmI else { continue }
            if r == Self.pwrMgmt1, value & 0x80 != 0 {   // H_RESET: registers to defaults, bit self-clears
                powerOnRegisters()
                continue
            }
            registers[r] = value
        }
    }

    public func read(register: UInt8, count: Int, at time: Double) -> [UInt8] {
        registers[Self.whoAmI] = identity
        if registers[Self.pwrMgmt1] & 0x40 == 0 { sample(truth(time)) }   // asleep: data registers hold
        return FakeRegisterCoding.burst(registers, from: register, count: count)
    }

    private func sample(_ state: PhysicalState) {
        let accelScale = Self.accelLSBPerG[Int(registers[Self.accelConfig] >> 3 & 0x03)]
        let gyroScale = Self.gyroLSBPerDps[Int(registers[Self.gyroConfig] >> 3 & 0x03)]
        let dps = state.angularRate * FakeRegisterCoding.degreesPerRadian
        FakeRegisterCoding.storeAxes(state.specificForce, perCount: 1 / accelScale, order: .bigEndian,
                                     into: &registers, at: Self.accelOut)
        FakeRegisterCoding.storeAxes(dps, perCount: 1 / gyroScale, order: .bigEndian, into: &registers, at: Self.gyroOut)
        // TEMP_OUT: 21 °C reads 0.
        registers[0x41] = 0; registers[0x42] = 0
    }

    func truthForMagnetometer(at time: Double) -> PhysicalState { truth(time) }
}

/// A register-level AK8963 magnetometer (inside the MPU-9250). Honours CNTL1 (mode and
/// 14/16-bit output), CNTL2 soft reset, fuse ROM access (the ASA bytes read as 0 outside
/// fuse ROM mode), ST1 DRDY/DOR and ST2 HOFL; produces samples at the continuous mode's
/// rate from the moment the mode is set; reading ST2 ends a read cycle.
///
/// Encoding, from the datasheet: the die's axes are the MPU's (Y, X, −Z); the output is
/// the field before sensitivity adjustment, `H = H_adj / (1 + (ASA − 128) / 256)`, in
/// 0.15 µT (16-bit) or 0.6 µT (14-bit) counts, little-endian; HOFL when |X|+|Y|+|Z|
/// exceeds 4912 µT.
public final class FakeAK8963: FakePackagedMagnetometer {
    weak var host: FakeMPU9250?
    /// Fault: data-ready never sets (no new samples), as with a hung measurement.
    public var dataReadyNeverSet = false
    public let fuseROM: (x: UInt8, y: UInt8, z: UInt8)
    private var registers = [UInt8](repeating: 0, count: 0x13)
    private var clock = FakeSampleClock()

    private static let wia = 0x00, info = 0x01, st1 = 0x02, hxl = 0x03, st2 = 0x09, cntl1 = 0x0A, cntl2 = 0x0B, asax = 0x10

    init(fuseROM: (x: UInt8, y: UInt8, z: UInt8)) {
        self.fuseROM = fuseROM
        powerOn()
    }

    public var acknowledges: Bool { host?.bypassOpen ?? false }

    public func powerOn() {
        registers = [UInt8](repeating: 0, count: 0x13)
        registers[Self.wia] = 0x48
        registers[Self.info] = 0x9A
        clock.configure(rateHz: nil, at: 0)
    }

    private var mode: UInt8 { registers[Self.cntl1] & 0x0F }
    private var sixteenBit: Bool { registers[Self.cntl1] & 0x10 != 0 }

    public func write(register: UInt8, bytes: [UInt8], at time: Double) {
        for (i, value) in bytes.enumerated() {
            let r = Int(register) + i
            switch r {
            case Self.cntl1:
                registers[r] = value & 0x1F
                // Continuous mode 1 is 8 Hz, mode 2 is 100 Hz; other modes do not sample periodically.
                let rate: Double? = value & 0x0F == 0x02 ? 8 : (value & 0x0F == 0x06 ? 100 : nil)
                clock.configure(rateHz: rate, at: time)
            case Self.cntl2:
                if value & 0x01 != 0 { powerOn() }
            case 0x0C, 0x0F:
                registers[r] = value   // ASTC, I2CDIS: stored, not modelled
            default:
                break                  // read-only
            }
        }
    }

    public func read(register: UInt8, count: Int, at time: Double) -> [UInt8] {
        if !dataReadyNeverSet, let sample = clock.newSample(at: time) {
            if registers[Self.st1] & 0x01 != 0 || sample.skipped { registers[Self.st1] |= 0x02 }   // DOR
            registers[Self.st1] |= 0x01
            latch(host?.truthForMagnetometer(at: sample.time).magneticField ?? .zero)
        }
        var out: [UInt8] = []
        for i in 0..<count {
            let r = Int(register) + i
            if r >= Self.asax && r <= Self.asax + 2 {
                let asa = [fuseROM.x, fuseROM.y, fuseROM.z][r - Self.asax]
                out.append(mode == 0x0F ? asa : 0)
            } else {
                out.append(r < registers.count ? registers[r] : 0)
            }
        }
        let last = Int(register) + count - 1
        if Int(register) <= Self.st2 && last >= Self.hxl { registers[Self.st1] &= ~0x01 }   // data read: DRDY clears
        if Int(register) <= Self.st2 && last >= Self.st2 { registers[Self.st1] &= ~0x02 }   // ST2 read: DOR clears
        return out
    }

    private func latch(_ field: Vector3) {
        let die = Vector3(field.y, field.x, -field.z)
        let perCount = sixteenBit ? 0.15 : 0.6
        let limit = sixteenBit ? 32760 : 8190
        let asa = [fuseROM.x, fuseROM.y, fuseROM.z]
        for axis in 0..<3 {
            let adjustment = 1 + (Double(asa[axis]) - 128) / 256
            let c = FakeRegisterCoding.counts(die[axis] / adjustment, perCount: perCount, limit: limit, floor: -limit)
            FakeRegisterCoding.storeLittleEndian(c, into: &registers, at: Self.hxl + 2 * axis)
        }
        let overflow = abs(die.x) + abs(die.y) + abs(die.z) > 4912
        registers[Self.st2] = (sixteenBit ? 0x10 : 0) | (overflow ? 0x08 : 0)
    }
}
