import IMUDrivers
import MotionMath

/// A register-level ICM-42688-P, from DS-000347: user banks selected by REG_BANK_SEL,
/// powers up with both sensors off (PWR_MGMT0 = 0, data registers read −32768),
/// GYRO_CONFIG0/ACCEL_CONFIG0 = 0x06, SOFT_RESET_CONFIG restores that. Data in the byte
/// order INTF_CONFIG0.DATA_ENDIAN selects (power-on: big-endian), `count = value ×
/// sensitivity` with the sensitivity of the written full scale.
public final class FakeICM42688: FakeInertialChip {
    public var truth: PhysicalTruth
    public var identity: UInt8
    public let acknowledges = true
    private var banks = [[UInt8]](repeating: [UInt8](repeating: 0, count: 128), count: 5)
    private var bank = 0

    private static let deviceConfig = 0x11, accelOut = 0x1F, gyroOut = 0x25, intfConfig0 = 0x4C, pwrMgmt0 = 0x4E
    private static let gyroConfig0 = 0x4F, accelConfig0 = 0x50, whoAmI = 0x75, bankSel = 0x76
    /// GYRO_FS_SEL → LSB/(°/s) (±2000 … ±15.625) and ACCEL_FS_SEL → LSB/g (±16 … ±2 g).
    private static let gyroLSBPerDps: [Double] = [16.4, 32.8, 65.5, 131, 262, 524.3, 1048.6, 2097.2]
    private static let accelLSBPerG: [Double] = [2048, 4096, 8192, 16384]

    public init(identity: UInt8 = 0x47, truth: @escaping PhysicalTruth = { _ in .faceUpAtRest }) {
        self.identity = identity
        self.truth = truth
        powerOnRegisters()
    }

    public func powerCycle() { powerOnRegisters() }

    private func powerOnRegisters() {
        banks = [[UInt8]](repeating: [UInt8](repeating: 0, count: 128), count: 5)
        bank = 0
        banks[0][Self.whoAmI] = identity
        banks[0][Self.intfConfig0] = 0x30
        banks[0][Self.gyroConfig0] = 0x06
        banks[0][Self.accelConfig0] = 0x06
        for r in Self.accelOut..<(Self.gyroOut + 6) { banks[0][r] = r % 2 == 1 ? 0x80 : 0x00 }
    }

    public func write(register: UInt8, bytes: [UInt8], at time: Double) {
        for (i, value) in bytes.enumerated() {
            let r = Int(register) + i
            guard r < 128 else { continue }
            if r == Self.bankSel { bank = min(4, Int(value & 0x07)); continue }
            if bank == 0 && r == Self.whoAmI { continue }
            if bank == 0 && r == Self.deviceConfig && value & 0x01 != 0 { powerOnRegisters(); continue }
            banks[bank][r] = value
        }
    }

    public func read(register: UInt8, count: Int, at time: Double) -> [UInt8] {
        banks[0][Self.whoAmI] = identity
        banks[bank][Self.bankSel] = UInt8(bank)
        sample(truth(time))
        return FakeRegisterCoding.burst(banks[bank], from: register, count: count)
    }

    private func sample(_ state: PhysicalState) {
        let b0 = banks[0]
        let bigEndian = b0[Self.intfConfig0] & 0x10 != 0
        let gyroOn = b0[Self.pwrMgmt0] >> 2 & 0x03 == 0x03
        let accelOn = b0[Self.pwrMgmt0] & 0x03 >= 2
        let perG = Self.accelLSBPerG[Int(b0[Self.accelConfig0] >> 5 & 0x03)]
        let perDps = Self.gyroLSBPerDps[Int(b0[Self.gyroConfig0] >> 5)]
        let dps = state.angularRate * FakeRegisterCoding.degreesPerRadian
        for axis in 0..<3 {
            let a = accelOn ? FakeRegisterCoding.counts(state.specificForce[axis], perCount: 1 / perG) : -32768
            let g = gyroOn ? FakeRegisterCoding.counts(dps[axis], perCount: 1 / perDps) : -32768
            if bigEndian {
                FakeRegisterCoding.storeBigEndian(a, into: &banks[0], at: Self.accelOut + 2 * axis)
                FakeRegisterCoding.storeBigEndian(g, into: &banks[0], at: Self.gyroOut + 2 * axis)
            } else {
                FakeRegisterCoding.storeLittleEndian(a, into: &banks[0], at: Self.accelOut + 2 * axis)
                FakeRegisterCoding.storeLittleEndian(g, into: &banks[0], at: Self.gyroOut + 2 * axis)
            }
        }
    }
}
