import MotionMath

/// The MPU-9250 (and register-compatible MPU-9255) with its AK8963 magnetometer, reached
/// directly through the MPU's I2C bypass.
final class MPU9250Chip: IMUChip {
    let model = "MPU-9250"
    let maxRateHz = MPU9250Conversion.internalRateHz
    let failures = FailureCounter()
    private let options: IMUOptions
    private var link: ChipLink
    private var magLink: ChipLink
    private let buffer = RegisterBuffer(capacity: 32)

    // What bring-up wrote, for conversion and read-back.
    private var lsbPerG = 2048.0
    private var lsbPerDps = 16.4
    private var written: [UInt8] = []   // SMPLRT_DIV, CONFIG, GYRO_CONFIG, ACCEL_CONFIG, ACCEL_CONFIG2
    private var magAdjustment = Vector3(1, 1, 1)
    private(set) var settings = ChipSettings.unset(magRateHz: MPU9250Conversion.magRateHz)

    init(bus: I2CBus, options: IMUOptions) {
        self.options = options
        link = ChipLink(bus: bus, chip: "MPU-9250", failures: failures,
                        configured: options.address, defaults: MPU9250Register.addresses)
        magLink = ChipLink(bus: bus, chip: "AK8963 magnetometer (inside the MPU-9250)", failures: failures,
                           configured: nil, defaults: [AK8963Register.address])
    }

    var placement: String { "MPU-9250 (AK8963 magnetometer) at \(Hex.byte(link.address)) on \(link.bus.name)" }

    func bringUpInertial(phase: Int, rateHz: Int) throws(IMUError) -> PhaseResult {
        typealias R = MPU9250Register
        switch phase {
        case 0:
            try link.locate(identityRegister: R.whoAmI, expected: R.identities)
            try link.write(R.pwrMgmt1, R.hReset)
            return .next(afterSeconds: 0.1)   // reset takes up to 100 ms
        case 1:
            try link.writeVerified(R.pwrMgmt1, R.clockPLL)
            try link.writeVerified(R.pwrMgmt2, 0x00)
            let accel = RangeChoice.pick(options.accelRangeG, from: MPU9250Conversion.accelScales)
            let gyro = RangeChoice.pick(options.gyroRangeDegPerSec, from: MPU9250Conversion.gyroScales)
            let divider = MPU9250Conversion.sampleRateDivider(rateHz: rateHz)
            let odr = MPU9250Conversion.outputRate(divider: divider)
            let filter = MPU9250Conversion.filter(outputRateHz: odr)
            written = [divider, filter.config, gyro.value.code << 3, accel.value.code << 3, filter.config]
            for (i, value) in written.enumerated() {
                try link.writeVerified(R.smplrtDiv + UInt8(i), value)
            }
            try link.writeVerified(R.userCtrl, 0x00)
            try link.writeVerified(R.intPinCfg, R.bypassEnable)
            lsbPerG = accel.value.lsbPerG
            lsbPerDps = gyro.value.lsbPerDps
            settings = ChipSettings(
                accelRangeG: accel.range, gyroRangeDegPerSec: gyro.range,
                magRangeMicroTesla: MPU9250Conversion.magRangeMicroTesla, accelRateHz: odr, gyroRateHz: odr,
                magRateHz: MPU9250Conversion.magRateHz,
                notes: ["SMPLRT_DIV \(divider): output data rate \(IMUDriver.text(odr)) Hz",
                        "DLPF_CFG \(filter.config): gyro \(IMUDriver.text(filter.gyroHz)) Hz, accel \(IMUDriver.text(filter.accelHz)) Hz bandwidth"])
            return .next(afterSeconds: 0.01)  // PLL start-up; bypass takes effect
        default:
            return .done
        }
    }

    func bringUpMagnetometer(phase: Int) throws(IMUError) -> PhaseResult {
        typealias A = AK8963Register
        switch phase {
        case 0:
            try magLink.locate(identityRegister: A.wia, expected: [A.identity])
            try magLink.write(A.cntl2, A.softReset)
            return .next(afterSeconds: 0.01)
        case 1:
            try magLink.writeVerified(A.cntl1, A.modeFuseROM)
            return .next(afterSeconds: 0.0001)  // 100 µs after a mode change (§6.3)
        case 2:
            let asa = try magLink.read(A.asax, count: 3)
            magAdjustment = Vector3(MPU9250Conversion.sensitivityAdjustment(asa[0]),
                                    MPU9250Conversion.sensitivityAdjustment(asa[1]),
                                    MPU9250Conversion.sensitivityAdjustment(asa[2]))
            settings.notes = Array(settings.notes.prefix(2)) + [
                "AK8963 16-bit continuous 100 Hz, fuse-ROM sensitivity adjustment (\(IMUDriver.text(magAdjustment.x)), "
                    + "\(IMUDriver.text(magAdjustment.y)), \(IMUDriver.text(magAdjustment.z)))"]
            try magLink.writeVerified(A.cntl1, A.modePowerDown)
            return .next(afterSeconds: 0.0001)
        case 3:
            try magLink.writeVerified(A.cntl1, A.mode16BitContinuous100Hz)
            return .done
        default:
            return .done
        }
    }

    /// One 18-byte burst from INT_PIN_CFG through GYRO_ZOUT_L, as on the MPU-6050.
    func readInertial() throws(I2CError) -> InertialRead {
        try MPUFamilyRead.inertial(link: link, buffer: buffer, lsbPerG: lsbPerG, lsbPerDps: lsbPerDps)
    }

    /// One 8-byte burst ST1, HXL…HZH, ST2 (reading ST2 ends the AK8963's read cycle).
    func readMagnetometer() throws(I2CError) -> MagneticRead {
        try magLink.burst(AK8963Register.st1, count: 8, into: buffer)
        guard buffer[0] & AK8963Register.dataReady != 0 else { return .notReady }
        guard buffer[7] & AK8963Register.overflow == 0 else { return .overflow }
        let b = buffer
        return .sample(MPU9250Conversion.magnetic(raw: b.littleEndianVector(at: 1), adjustment: magAdjustment))
    }

    /// Filter/range registers, then USER_CTRL and PWR_MGMT_1 (asleep or master mode on).
    func inertialConfigurationIntact() throws(I2CError) -> Bool {
        try MPUFamilyRead.configurationIntact(link: link, buffer: buffer, written: written, count: 5)
    }

    func magnetometerConfigurationIntact() throws(I2CError) -> Bool {
        try magLink.byte(AK8963Register.cntl1)
            == AK8963Register.mode16BitContinuous100Hz
    }
}
