import IMUDrivers
import MotionMath

/// A register-level LSM6DSOX (or, by identity, an LSM6DS3TR-C 0x6A or ISM330DHCX 0x6B),
/// from DS12814: powers up with both sensors in power-down (CTRL1_XL = CTRL2_G = 0) and
/// CTRL3_C = 0x04 (IF_INC); SW_RESET and BOOT restore that; each sensor's data holds
/// while its ODR is 0; multi-byte reads increment only with IF_INC. Data: little-endian,
/// `count = value ÷ sensitivity` with Table 2's sensitivity of the written full scale
/// (FS_125, and FS_4000 on the ISM330DHCX, honoured).
public final class FakeLSM6DSOX: FakeInertialChip {
    public var truth: PhysicalTruth
    public var identity: UInt8
    public let acknowledges = true
    private var registers = [UInt8](repeating: 0, count: 128)

    private static let whoAmI = 0x0F, ctrl1XL = 0x10, ctrl2G = 0x11, ctrl3C = 0x12, status = 0x1E, outG = 0x22, outA = 0x28
    /// FS_XL code → mg per count (00 ±2 g, 01 ±16 g, 10 ±4 g, 11 ±8 g).
    private static let accelMgPerCount: [Double] = [0.061, 0.488, 0.122, 0.244]
    /// FS_G code → m°/s per count (250, 500, 1000, 2000 °/s).
    private static let gyroMdpsPerCount: [Double] = [8.75, 17.5, 35, 70]

    public init(identity: UInt8 = 0x6C, truth: @escaping PhysicalTruth = { _ in .faceUpAtRest }) {
        self.identity = identity
        self.truth = truth
        powerOnRegisters()
    }

    public func powerCycle() { powerOnRegisters() }

    private func powerOnRegisters() {
        registers = [UInt8](repeating: 0, count: 128)
        registers[Self.whoAmI] = identity
        registers[Self.ctrl3C] = 0x04
    }

    private var autoIncrement: Bool { registers[Self.ctrl3C] & 0x04 != 0 }

    public func write(register: UInt8, bytes: [UInt8], at time: Double) {
        for (i, value) in bytes.enumerated() {
            let r = Int(register) + (autoIncrement ? i : 0)
            guard r < 128, r != Self.whoAmI, r != Self.status else { continue }
            if r == Self.ctrl3C, value & 0x81 != 0 { powerOnRegisters(); continue }
            registers[r] = value
        }
    }

    public func read(register: UInt8, count: Int, at time: Double) -> [UInt8] {
        registers[Self.whoAmI] = identity
        sample(truth(time))
        return FakeRegisterCoding.burst(registers, from: register, count: count, autoIncrement: autoIncrement)
    }

    private func sample(_ state: PhysicalState) {
        let xl = registers[Self.ctrl1XL], g = registers[Self.ctrl2G]
        var status: UInt8 = 0
        if xl >> 4 != 0 {
            let perCount = Self.accelMgPerCount[Int(xl >> 2 & 0x03)] / 1000
            FakeRegisterCoding.storeAxes(state.specificForce, perCount: perCount, order: .littleEndian,
                                         into: &registers, at: Self.outA)
            status |= 0x01
        }
        if g >> 4 != 0 {
            var mdps = Self.gyroMdpsPerCount[Int(g >> 2 & 0x03)]
            if g & 0x02 != 0 { mdps = 4.375 }
            if identity == 0x6B, g & 0x01 != 0 { mdps = 140 }
            let dps = state.angularRate * FakeRegisterCoding.degreesPerRadian
            FakeRegisterCoding.storeAxes(dps, perCount: mdps / 1000, order: .littleEndian, into: &registers, at: Self.outG)
            status |= 0x02
        }
        registers[Self.status] = status
    }
}
