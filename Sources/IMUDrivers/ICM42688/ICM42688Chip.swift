/// The TDK InvenSense ICM-42688-P accelerometer/gyroscope (no magnetometer: pair one).
final class ICM42688Chip: InertialChip {
    let model = "ICM-42688-P"
    let maxRateHz = ICM42688Conversion.maxRateHz
    private let options: IMUOptions
    private var link: ChipLink
    private let buffer = RegisterBuffer(capacity: 16)
    private var lsbPerG = 2048.0
    private var lsbPerDps = 16.4
    private var written: [UInt8] = []   // PWR_MGMT0, GYRO_CONFIG0, ACCEL_CONFIG0
    private(set) var settings = ChipSettings.unset()

    init(bus: I2CBus, options: IMUOptions, failures: FailureCounter) {
        self.options = options
        link = ChipLink(bus: bus, chip: "ICM-42688-P", failures: failures,
                        configured: options.address, defaults: ICM42688Register.addresses)
    }

    var placement: String { "ICM-42688-P at \(Hex.byte(link.address)) on \(link.bus.name)" }

    func bringUpInertial(phase: Int, rateHz: Int) throws(IMUError) -> PhaseResult {
        typealias R = ICM42688Register
        switch phase {
        case 0:
            try link.locate(identityRegister: R.whoAmI, expected: [R.identity], select: (R.regBankSel, 0x00))
            try link.write(R.deviceConfig, R.softReset)
            return .next(afterSeconds: 0.01)
        case 1:
            let rate = RateChoice.pick(rateHz, from: ICM42688Conversion.rates)
            let accel = RangeChoice.pick(options.accelRangeG, from: ICM42688Conversion.accelScales)
            let gyro = RangeChoice.pick(options.gyroRangeDegPerSec, from: ICM42688Conversion.gyroScales)
            written = [R.lowNoiseBoth, gyro.value.code << 5 | rate.value, accel.value.code << 5 | rate.value]
            try link.writeVerified(R.gyroConfig0, written[1])
            try link.writeVerified(R.accelConfig0, written[2])
            try link.writeVerified(R.pwrMgmt0, written[0])
            lsbPerG = accel.value.lsbPerG
            lsbPerDps = gyro.value.lsbPerDps
            settings = ChipSettings(
                accelRangeG: accel.range, gyroRangeDegPerSec: gyro.range, magRangeMicroTesla: 0,
                accelRateHz: rate.hz, gyroRateHz: rate.hz, magRateHz: 0,
                notes: ["ICM-42688-P low-noise mode, ODR \(IMUDriver.text(rate.hz)) Hz, default UI filters"])
            return .next(afterSeconds: 0.045)   // gyroscope start-up (Table 1: 45 ms)
        default:
            return .done
        }
    }

    /// One 12-byte burst ACCEL_DATA_X1 … GYRO_DATA_Z0. A sensor whose three words all read
    /// −32768 is off (the chip was reset): no sample.
    func readInertial() throws(I2CError) -> InertialRead {
        try link.burst(ICM42688Register.accelDataX1, count: 12, into: buffer)
        let accel = buffer.bigEndianVector(at: 0), gyro = buffer.bigEndianVector(at: 6)
        let off = (Int16.min, Int16.min, Int16.min)
        if accel == off || gyro == off { return .configurationLost }
        return .sample(ICM42688Conversion.inertial(accel: accel, gyro: gyro, lsbPerG: lsbPerG, lsbPerDps: lsbPerDps))
    }

    /// PWR_MGMT0, GYRO_CONFIG0, ACCEL_CONFIG0 (0x4E–0x50) read back in one burst.
    func inertialConfigurationIntact() throws(I2CError) -> Bool {
        try link.stillHolds(written, count: 3, from: ICM42688Register.pwrMgmt0, buffer: buffer)
    }
}
