/// The MPU-6050 accelerometer/gyroscope (GY-521, GY-87). Bring-up also switches on the
/// auxiliary-bus bypass, so a magnetometer wired to XDA/XCL (the GY-87's HMC5883L or
/// QMC5883L) answers on the host bus; the bypass bit is read back every tick, so a reset
/// (which closes it) is noticed at once.
final class MPU6050Chip: InertialChip {
    let model = "MPU-6050"
    let maxRateHz = MPU6050Conversion.internalRateHz
    private let options: IMUOptions
    private var link: ChipLink
    private let buffer = RegisterBuffer(capacity: 32)
    private var lsbPerG = 2048.0
    private var lsbPerDps = 16.4
    private var written: [UInt8] = []   // SMPLRT_DIV, CONFIG, GYRO_CONFIG, ACCEL_CONFIG
    private(set) var settings = ChipSettings.unset()

    init(bus: I2CBus, options: IMUOptions, failures: FailureCounter) {
        self.options = options
        link = ChipLink(bus: bus, chip: "MPU-6050", failures: failures,
                        configured: options.address, defaults: MPU6050Register.addresses)
    }

    var placement: String { "MPU-6050 at \(Hex.byte(link.address)) on \(link.bus.name)" }

    func bringUpInertial(phase: Int, rateHz: Int) throws(IMUError) -> PhaseResult {
        typealias R = MPU6050Register
        switch phase {
        case 0:
            try link.locate(identityRegister: R.whoAmI, expected: [R.identity])
            try link.write(R.pwrMgmt1, R.deviceReset)
            return .next(afterSeconds: 0.1)
        case 1:
            try link.writeVerified(R.pwrMgmt1, R.clockPLLX)
            try link.writeVerified(R.pwrMgmt2, 0x00)
            let accel = RangeChoice.pick(options.accelRangeG, from: MPU6050Conversion.accelScales)
            let gyro = RangeChoice.pick(options.gyroRangeDegPerSec, from: MPU6050Conversion.gyroScales)
            let divider = MPU6050Conversion.sampleRateDivider(rateHz: rateHz)
            let odr = MPU6050Conversion.outputRate(divider: divider)
            let filter = MPU6050Conversion.filter(outputRateHz: odr)
            written = [divider, filter.config, gyro.value.code << 3, accel.value.code << 3]
            for (i, value) in written.enumerated() {
                try link.writeVerified(R.smplrtDiv + UInt8(i), value)
            }
            try link.writeVerified(R.userCtrl, 0x00)
            try link.writeVerified(R.intPinCfg, R.bypassEnable)
            lsbPerG = accel.value.lsbPerG
            lsbPerDps = gyro.value.lsbPerDps
            settings = ChipSettings(
                accelRangeG: accel.range, gyroRangeDegPerSec: gyro.range, magRangeMicroTesla: 0,
                accelRateHz: odr, gyroRateHz: odr, magRateHz: 0,
                notes: ["MPU-6050 SMPLRT_DIV \(divider): output data rate \(IMUDriver.text(odr)) Hz",
                        "DLPF_CFG \(filter.config): accel \(IMUDriver.text(filter.accelHz)) Hz, gyro \(IMUDriver.text(filter.gyroHz)) Hz bandwidth",
                        "auxiliary I2C bypass on (a magnetometer behind the MPU-6050 is on the host bus)"])
            return .next(afterSeconds: 0.03)   // gyroscope start-up (PS §6.1: 30 ms)
        default:
            return .done
        }
    }

    /// One 18-byte burst from INT_PIN_CFG (0x37) through GYRO_ZOUT_L (0x48).
    func readInertial() throws(I2CError) -> InertialRead {
        try MPUFamilyRead.inertial(link: link, buffer: buffer, lsbPerG: lsbPerG, lsbPerDps: lsbPerDps)
    }

    func inertialConfigurationIntact() throws(I2CError) -> Bool {
        try MPUFamilyRead.configurationIntact(link: link, buffer: buffer, written: written, count: 4)
    }
}
