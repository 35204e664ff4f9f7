import MotionMath

/// The LSM9DS1: accelerometer/gyroscope at one address, magnetometer at its own.
final class LSM9DS1Chip: IMUChip {
    let model = "LSM9DS1"
    let maxRateHz = 952
    let failures = FailureCounter()
    private let options: IMUOptions
    private var link: ChipLink
    private var magLink: ChipLink
    private let buffer = RegisterBuffer(capacity: 16)
    private var mgPerLSB = 0.732
    private var mdpsPerLSB = 70.0
    private var mgaussPerLSB = 0.14
    private var ctrlReg1G: UInt8 = 0
    private var magWritten: [UInt8] = []   // CTRL_REG1_M, CTRL_REG2_M, CTRL_REG3_M
    private(set) var settings = ChipSettings.unset(magRateHz: LSM9DS1Conversion.magRateHz)

    init(bus: I2CBus, options: IMUOptions) {
        self.options = options
        link = ChipLink(bus: bus, chip: "LSM9DS1 accelerometer/gyroscope", failures: failures,
                        configured: options.address, defaults: LSM9DS1Register.addresses)
        magLink = ChipLink(bus: bus, chip: "LSM9DS1 magnetometer", failures: failures,
                           configured: options.magAddress, defaults: LSM9DS1MagRegister.addresses)
    }

    var placement: String {
        "LSM9DS1 (accelerometer/gyroscope at \(Hex.byte(link.address)), magnetometer at \(Hex.byte(magLink.address))) on \(link.bus.name)"
    }

    func bringUpInertial(phase: Int, rateHz: Int) throws(IMUError) -> PhaseResult {
        typealias R = LSM9DS1Register
        switch phase {
        case 0:
            try link.locate(identityRegister: R.whoAmI, expected: [R.identity])
            try link.write(R.ctrlReg8, R.softwareReset)
            return .next(afterSeconds: 0.01)
        case 1:
            guard let rate = LSM9DS1Conversion.rate(atLeast: rateHz) else {
                throw .rateUnsupported(chip: model, requestedHz: rateHz, maximumHz: maxRateHz)
            }
            let accel = RangeChoice.pick(options.accelRangeG, from: LSM9DS1Conversion.accelScales)
            let gyro = RangeChoice.pick(options.gyroRangeDegPerSec, from: LSM9DS1Conversion.gyroScales)
            try link.writeVerified(R.ctrlReg8, R.blockUpdateAutoIncrement)
            try link.writeVerified(R.ctrlReg4, R.allAxesOn)
            try link.writeVerified(R.ctrlReg5XL, R.allAxesOn)
            try link.writeVerified(R.ctrlReg6XL, rate.code << 5 | accel.value.code << 3)
            ctrlReg1G = rate.code << 5 | gyro.value.code << 3 | R.widestGyroBandwidth
            try link.writeVerified(R.ctrlReg1G, ctrlReg1G)
            mgPerLSB = accel.value.mgPerLSB
            mdpsPerLSB = gyro.value.mdpsPerLSB
            settings = ChipSettings(
                accelRangeG: accel.range, gyroRangeDegPerSec: gyro.range, magRangeMicroTesla: settings.magRangeMicroTesla,
                accelRateHz: rate.hz, gyroRateHz: rate.hz, magRateHz: LSM9DS1Conversion.magRateHz,
                notes: ["ODR \(IMUDriver.text(rate.hz)) Hz (accelerometer follows the gyroscope's ODR)",
                        "gyro low-pass \(IMUDriver.text(LSM9DS1Conversion.gyroCutoffHz[rate.code] ?? 0)) Hz (BW_G 11); "
                            + "accel anti-aliasing filter chosen by ODR",
                        "magnetometer ultra-high-performance 80 Hz"])
            return .done
        default:
            return .done
        }
    }

    func bringUpMagnetometer(phase: Int) throws(IMUError) -> PhaseResult {
        typealias M = LSM9DS1MagRegister
        switch phase {
        case 0:
            try magLink.locate(identityRegister: M.whoAmI, expected: [M.identity])
            try magLink.write(M.ctrlReg2, M.softReset)
            return .next(afterSeconds: 0.01)
        case 1:
            let scale = RangeChoice.pick(options.magRangeMicroTesla, from: LSM9DS1Conversion.magScales)
            magWritten = [M.ultraHighPerformance80Hz, scale.value.code << 5, M.continuous]
            try magLink.writeVerified(M.ctrlReg1, magWritten[0])
            try magLink.writeVerified(M.ctrlReg2, magWritten[1])
            try magLink.writeVerified(M.ctrlReg4, M.zUltraHighPerformance)
            try magLink.writeVerified(M.ctrlReg5, M.blockDataUpdate)
            try magLink.writeVerified(M.ctrlReg3, magWritten[2])
            mgaussPerLSB = scale.value.mgaussPerLSB
            settings.magRangeMicroTesla = scale.range
            return .done
        default:
            return .done
        }
    }

    /// Two 6-byte bursts: gyroscope (0x18…) and accelerometer (0x28…), auto-increment by IF_ADD_INC.
    func readInertial() throws(I2CError) -> InertialRead {
        try link.burst(LSM9DS1Register.outXLG, count: 6, into: buffer)
        try link.burst(LSM9DS1Register.outXLXL, count: 6, into: buffer, at: 6)
        return .sample(LSM9DS1Conversion.inertial(
            accel: buffer.littleEndianVector(at: 6), gyro: buffer.littleEndianVector(at: 0),
            mgPerLSB: mgPerLSB, mdpsPerLSB: mdpsPerLSB))
    }

    /// One 7-byte burst STATUS_REG_M, OUT_X_L_M … OUT_Z_H_M (address MSB set for auto-increment).
    func readMagnetometer() throws(I2CError) -> MagneticRead {
        typealias M = LSM9DS1MagRegister
        try magLink.burst(M.status | M.autoIncrement, count: 7, into: buffer)
        guard buffer[0] & M.dataAvailable != 0 else { return .notReady }
        let raw = buffer.littleEndianVector(at: 1)
        guard !LSM9DS1Conversion.saturated(raw) else { return .overflow }
        return .sample(LSM9DS1Conversion.magnetic(raw: raw, mgaussPerLSB: mgaussPerLSB))
    }

    /// CTRL_REG1_G returns to 0 (power-down) on a reset.
    func inertialConfigurationIntact() throws(I2CError) -> Bool {
        try link.byte(LSM9DS1Register.ctrlReg1G) == ctrlReg1G
    }

    func magnetometerConfigurationIntact() throws(I2CError) -> Bool {
        typealias M = LSM9DS1MagRegister
        return try magLink.stillHolds(magWritten, count: 3, from: M.ctrlReg1 | M.autoIncrement, buffer: buffer)
    }
}
