/// The ST LSM6DSOX accelerometer/gyroscope, and the LSM6DS3TR-C and ISM330DHCX, told
/// apart by WHO_AM_I (the ISM330DHCX adds ±4000 °/s).
final class LSM6DSOXChip: InertialChip {
    private(set) var model = "LSM6DSOX"
    let maxRateHz = LSM6DSOXConversion.maxRateHz
    private let options: IMUOptions
    private var link: ChipLink
    private let buffer = RegisterBuffer(capacity: 16)
    private var mgPerLSB = 0.488
    private var mdpsPerLSB = 70.0
    private var written: [UInt8] = []   // CTRL1_XL, CTRL2_G, CTRL3_C
    private(set) var settings = ChipSettings.unset()

    init(bus: I2CBus, options: IMUOptions, failures: FailureCounter) {
        self.options = options
        link = ChipLink(bus: bus, chip: "LSM6DSOX", failures: failures,
                        configured: options.address, defaults: LSM6DSOXRegister.addresses)
    }

    var placement: String { "\(model) at \(Hex.byte(link.address)) on \(link.bus.name)" }

    func bringUpInertial(phase: Int, rateHz: Int) throws(IMUError) -> PhaseResult {
        typealias R = LSM6DSOXRegister
        switch phase {
        case 0:
            try link.locate(identityRegister: R.whoAmI,
                             expected: [R.identityLSM6DSOX, R.identityLSM6DS3TRC, R.identityISM330DHCX])
            model = LSM6DSOXConversion.name(identity: try link.read(R.whoAmI))
            try link.write(R.ctrl3C, R.softwareReset)
            return .next(afterSeconds: 0.01)
        case 1:
            let rate = RateChoice.pick(rateHz, from: LSM6DSOXConversion.rates)
            guard rate.hz >= Double(rateHz) else {
                throw .rateUnsupported(chip: model, requestedHz: rateHz, maximumHz: maxRateHz)
            }
            let accel = RangeChoice.pick(options.accelRangeG, from: LSM6DSOXConversion.accelScales)
            let gyroOptions = LSM6DSOXConversion.gyroScales + (model == "ISM330DHCX" ? [LSM6DSOXConversion.gyro4000] : [])
            let gyro = RangeChoice.pick(options.gyroRangeDegPerSec, from: gyroOptions)
            written = [rate.value << 4 | accel.value.code << 2, rate.value << 4 | gyro.value.code, R.blockUpdateAutoIncrement]
            try link.writeVerified(R.ctrl3C, written[2])
            try link.writeVerified(R.ctrl1XL, written[0])
            try link.writeVerified(R.ctrl2G, written[1])
            mgPerLSB = accel.value.mgPerLSB
            mdpsPerLSB = gyro.value.mdpsPerLSB
            settings = ChipSettings(
                accelRangeG: accel.range, gyroRangeDegPerSec: gyro.range, magRangeMicroTesla: 0,
                accelRateHz: rate.hz, gyroRateHz: rate.hz, magRateHz: 0,
                notes: ["\(model) ODR \(IMUDriver.text(rate.hz)) Hz (accelerometer and gyroscope, high-performance mode), "
                        + "accel LPF1 at ODR/2"])
            // Gyroscope turn-on time (Table 3: 70 ms from power-down).
            return .next(afterSeconds: 0.07)
        default:
            return .done
        }
    }

    /// One 12-byte burst: gyroscope (0x22–0x27), then accelerometer (0x28–0x2D).
    func readInertial() throws(I2CError) -> InertialRead {
        try link.burst(LSM6DSOXRegister.outXLG, count: 12, into: buffer)
        return .sample(LSM6DSOXConversion.inertial(
            accel: buffer.littleEndianVector(at: 6), gyro: buffer.littleEndianVector(at: 0),
            mgPerLSB: mgPerLSB, mdpsPerLSB: mdpsPerLSB))
    }

    /// CTRL1_XL and CTRL2_G return to 0 (power-down) on a reset.
    func inertialConfigurationIntact() throws(I2CError) -> Bool {
        try link.stillHolds(written, count: 3, from: LSM6DSOXRegister.ctrl1XL, buffer: buffer)
    }
}
