import IMUDrivers
import MotionMath

/// A register-level MPU-6050, from RM-MPU-6000A-00 (register map) and PS-MPU-6000A-00:
/// powers up ASLEEP (PWR_MGMT_1 = 0x40), DEVICE_RESET restores that state, data
/// registers hold while asleep, full scales from GYRO_CONFIG/ACCEL_CONFIG [4:3], big-endian
/// two's complement, and the auxiliary-bus bypass: a device installed `behind` it answers
/// only while INT_PIN_CFG.I2C_BYPASS_EN is 1 and USER_CTRL.I2C_MST_EN is 0 (the GY-87).
public final class FakeMPU6050: FakeInertialChip {
    public var truth: PhysicalTruth
    public var identity: UInt8
    public let acknowledges = true
    private var registers = [UInt8](repeating: 0, count: 128)

    private static let gyroConfig = 0x1B, accelConfig = 0x1C, intPinCfg = 0x37, accelOut = 0x3B, tempOut = 0x41
    private static let gyroOut = 0x43, userCtrl = 0x6A, pwrMgmt1 = 0x6B, whoAmI = 0x75
    /// AFS_SEL → LSB/g (PS §6.2) and FS_SEL → LSB/(°/s) (PS §6.1).
    private static let accelLSBPerG: [Double] = [16384, 8192, 4096, 2048]
    private static let gyroLSBPerDps: [Double] = [131, 65.5, 32.8, 16.4]

    public init(identity: UInt8 = 0x68, truth: @escaping PhysicalTruth = { _ in .faceUpAtRest }) {
        self.identity = identity
        self.truth = truth
        powerOnRegisters()
    }

    /// True while a device on the auxiliary bus is connected to the host bus.
    public var bypassOpen: Bool { registers[Self.intPinCfg] & 0x02 != 0 && registers[Self.userCtrl] & 0x20 == 0 }

    public func powerCycle() { powerOnRegisters() }

    private func powerOnRegisters() {
        registers = [UInt8](repeating: 0, count: 128)
        registers[Self.pwrMgmt1] = 0x40
        registers[Self.whoAmI] = identity
    }

    public func write(register: UInt8, bytes: [UInt8], at time: Double) {
        for (i, value) in bytes.enumerated() {
            let r = Int(register) + i
            guard r < 128, r != Self.whoAmI else { continue }
            if r == Self.pwrMgmt1, value & 0x80 != 0 { powerOnRegisters(); continue }
            registers[r] = value
        }
    }

    public func read(register: UInt8, count: Int, at time: Double) -> [UInt8] {
        registers[Self.whoAmI] = identity
        if registers[Self.pwrMgmt1] & 0x40 == 0 { sample(truth(time)) }
        return FakeRegisterCoding.burst(registers, from: register, count: count)
    }

    private func sample(_ state: PhysicalState) {
        let perG = Self.accelLSBPerG[Int(registers[Self.accelConfig] >> 3 & 0x03)]
        let perDps = Self.gyroLSBPerDps[Int(registers[Self.gyroConfig] >> 3 & 0x03)]
        let dps = state.angularRate * FakeRegisterCoding.degreesPerRadian
        FakeRegisterCoding.storeAxes(state.specificForce, perCount: 1 / perG, order: .bigEndian,
                                     into: &registers, at: Self.accelOut)
        FakeRegisterCoding.storeAxes(dps, perCount: 1 / perDps, order: .bigEndian, into: &registers, at: Self.gyroOut)
        // Temperature in °C = TEMP_OUT / 340 + 36.53 (register 65–66): 21 °C.
        FakeRegisterCoding.storeBigEndian(Int(((21 - 36.53) * 340).rounded()), into: &registers, at: Self.tempOut)
    }
}
