import MotionMath

/// The ICM-20948 with its AK09916 magnetometer, reached directly through the bypass.
/// Configuration lives in register bank 2; the driver returns to bank 0 and stays there.
final class ICM20948Chip: IMUChip {
    let model = "ICM-20948"
    let maxRateHz = 1100
    let failures = FailureCounter()
    private let options: IMUOptions
    private var link: ChipLink
    private var magLink: ChipLink
    private let buffer = RegisterBuffer(capacity: 16)
    private var lsbPerG = 2048.0
    private var lsbPerDps = 16.4
    private(set) var settings = ChipSettings.unset(magRateHz: ICM20948Conversion.magRateHz)

    init(bus: I2CBus, options: IMUOptions) {
        self.options = options
        link = ChipLink(bus: bus, chip: "ICM-20948", failures: failures,
                        configured: options.address, defaults: ICM20948Register.addresses)
        magLink = ChipLink(bus: bus, chip: "AK09916 magnetometer (inside the ICM-20948)", failures: failures,
                           configured: nil, defaults: [AK09916Register.address])
    }

    var placement: String { "ICM-20948 (AK09916 magnetometer) at \(Hex.byte(link.address)) on \(link.bus.name)" }

    func bringUpInertial(phase: Int, rateHz: Int) throws(IMUError) -> PhaseResult {
        typealias R = ICM20948Register
        switch phase {
        case 0:
            try link.locate(identityRegister: R.whoAmI, expected: [R.identity], select: (R.regBankSel, R.bank(0)))
            try link.write(R.pwrMgmt1, R.deviceReset)
            return .next(afterSeconds: 0.1)
        case 1:
            try link.writeVerified(R.regBankSel, R.bank(0))
            try link.writeVerified(R.pwrMgmt1, R.clockAuto)   // wake, best clock
            return .next(afterSeconds: 0.01)
        case 2:
            try link.writeVerified(R.pwrMgmt2, 0x00)
            try link.writeVerified(R.userCtrl, 0x00)
            try link.writeVerified(R.intPinCfg, R.bypassEnable)
            let accel = RangeChoice.pick(options.accelRangeG, from: ICM20948Conversion.accelScales)
            let gyro = RangeChoice.pick(options.gyroRangeDegPerSec, from: ICM20948Conversion.gyroScales)
            let gyroDiv = ICM20948Conversion.divider(base: ICM20948Conversion.gyroBaseRateHz, rateHz: rateHz, maximum: 255)
            let accelDiv = ICM20948Conversion.divider(base: ICM20948Conversion.accelBaseRateHz, rateHz: rateHz, maximum: 4095)
            let gyroODR = ICM20948Conversion.gyroBaseRateHz / Double(1 + gyroDiv)
            let accelODR = ICM20948Conversion.accelBaseRateHz / Double(1 + accelDiv)
            let gyroFilter = ICM20948Conversion.filter(ICM20948Conversion.gyroFilters, outputRateHz: gyroODR)
            let accelFilter = ICM20948Conversion.filter(ICM20948Conversion.accelFilters, outputRateHz: accelODR)
            try link.writeVerified(R.regBankSel, R.bank(2))
            try link.writeVerified(R.gyroSmplrtDiv, UInt8(gyroDiv))
            try link.writeVerified(R.gyroConfig1, gyroFilter.config << 3 | gyro.value.code << 1 | 1)
            try link.writeVerified(R.accelSmplrtDiv1, UInt8(accelDiv >> 8))
            try link.writeVerified(R.accelSmplrtDiv2, UInt8(accelDiv & 0xFF))
            try link.writeVerified(R.accelConfig, accelFilter.config << 3 | accel.value.code << 1 | 1)
            try link.writeVerified(R.regBankSel, R.bank(0))
            lsbPerG = accel.value.lsbPerG
            lsbPerDps = gyro.value.lsbPerDps
            settings = ChipSettings(
                accelRangeG: accel.range, gyroRangeDegPerSec: gyro.range,
                magRangeMicroTesla: ICM20948Conversion.magRangeMicroTesla, accelRateHz: accelODR, gyroRateHz: gyroODR,
                magRateHz: ICM20948Conversion.magRateHz,
                notes: ["GYRO_SMPLRT_DIV \(gyroDiv) (\(IMUDriver.text(gyroODR)) Hz), ACCEL_SMPLRT_DIV \(accelDiv) (\(IMUDriver.text(accelODR)) Hz)",
                        "DLPF gyro \(IMUDriver.text(gyroFilter.hz)) Hz, accel \(IMUDriver.text(accelFilter.hz)) Hz bandwidth",
                        "AK09916 continuous 100 Hz"])
            return .done
        default:
            return .done
        }
    }

    func bringUpMagnetometer(phase: Int) throws(IMUError) -> PhaseResult {
        typealias A = AK09916Register
        switch phase {
        case 0:
            try magLink.locate(identityRegister: A.wia2, expected: [A.identity])
            try magLink.write(A.cntl3, A.softReset)
            return .next(afterSeconds: 0.01)
        case 1:
            try magLink.writeVerified(A.cntl2, A.modeContinuous100Hz)
            return .done
        default:
            return .done
        }
    }

    /// One 12-byte burst ACCEL_XOUT_H (0x2D) … GYRO_ZOUT_L (0x38), bank 0.
    func readInertial() throws(I2CError) -> InertialRead {
        try link.burst(ICM20948Register.accelXOutH, count: 12, into: buffer)
        return .sample(ICM20948Conversion.inertial(
            accel: buffer.bigEndianVector(at: 0), gyro: buffer.bigEndianVector(at: 6),
            lsbPerG: lsbPerG, lsbPerDps: lsbPerDps))
    }

    /// One 9-byte burst ST1, HXL…HZH, TMPS, ST2.
    func readMagnetometer() throws(I2CError) -> MagneticRead {
        try magLink.burst(AK09916Register.st1, count: 9, into: buffer)
        guard buffer[0] & AK09916Register.dataReady != 0 else { return .notReady }
        guard buffer[8] & AK09916Register.overflow == 0 else { return .overflow }
        return .sample(ICM20948Conversion.magnetic(raw: buffer.littleEndianVector(at: 1)))
    }

    /// PWR_MGMT_1 returns to 0x41 (asleep) on a reset.
    func inertialConfigurationIntact() throws(I2CError) -> Bool {
        try link.byte(ICM20948Register.pwrMgmt1) == ICM20948Register.clockAuto
    }

    func magnetometerConfigurationIntact() throws(I2CError) -> Bool {
        try magLink.byte(AK09916Register.cntl2)
            == AK09916Register.modeContinuous100Hz
    }
}
