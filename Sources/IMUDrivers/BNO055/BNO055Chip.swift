/// The Bosch BNO055 in AMG mode: its accelerometer, gyroscope and magnetometer raw (no
/// on-chip fusion), in one 18-byte burst per tick. All three come in the BNO055's frame
/// (the default axis map), in mg, °/s and µT as UNIT_SEL sets.
final class BNO055Chip: IMUChip {
    let model = "BNO055"
    let maxRateHz = BNO055Conversion.maxRateHz
    private let bus: I2CBus
    let failures = FailureCounter()
    private let io: ChipIO
    private let options: IMUOptions
    private var candidates: [UInt8]
    private var address: UInt8
    private let buffer = RegisterBuffer(capacity: 24)
    /// The magnetometer words of the last burst, and whether the magnetometer took them yet.
    private var magRaw: (Int16, Int16, Int16) = (0, 0, 0)
    private var magFresh = false
    private var magPeriodTicks = 1
    private var written: (unitSel: UInt8, mode: UInt8) = (0, 0)
    private(set) var settings = ChipSettings(accelRangeG: 0, gyroRangeDegPerSec: 0, magRangeMicroTesla: 0,
                                             accelRateHz: 0, gyroRateHz: 0, magRateHz: 0, notes: [])

    init(bus: I2CBus, options: IMUOptions) {
        self.bus = bus
        self.options = options
        io = ChipIO(bus: bus, chip: "BNO055", failures: failures)
        candidates = options.address.map { [$0] } ?? BNO055Register.addresses
        address = candidates[0]
    }

    var placement: String { "BNO055 (AMG mode, raw sensors) at \(Hex.byte(address)) on \(bus.name)" }

    func bringUpInertial(phase: Int, rateHz: Int) throws(IMUError) -> PhaseResult {
        typealias R = BNO055Register
        switch phase {
        case 0:
            let bus = self.bus
            address = try io.locate(candidates: candidates, identityRegister: R.chipID, expected: [R.identity]) {
                (a: UInt8) throws(I2CError) in try bus.writeByte(address: a, register: R.pageID, 0x00)
            }
            candidates = [address]
            try io.write(address, R.sysTrigger, R.resetSystem)
            return .next(afterSeconds: 0.65)   // power-on reset time (Table 0-2: 650 ms)
        case 1:
            try io.writeVerified(address, R.pageID, 0x00)
            try io.writeVerified(address, R.oprMode, R.configMode)
            return .next(afterSeconds: 0.02)   // any mode → CONFIGMODE: 19 ms (Table 3-6)
        case 2:
            let accel = RangeChoice.pick(options.accelRangeG, from: BNO055Conversion.accelScales)
            let gyro = RangeChoice.pick(options.gyroRangeDegPerSec, from: BNO055Conversion.gyroScales)
            let accelBW = BNO055Conversion.bandwidth(BNO055Conversion.accelBandwidths, rateHz: rateHz)
            let gyroBW = BNO055Conversion.bandwidth(BNO055Conversion.gyroBandwidths, rateHz: rateHz)
            let mag = RateChoice.pick(rateHz, from: BNO055Conversion.magRates)
            try io.writeVerified(address, R.pwrMode, 0x00)
            try io.writeVerified(address, R.pageID, 0x01)
            try io.writeVerified(address, R.accConfig, accelBW.code << 2 | accel.value)
            try io.writeVerified(address, R.magConfig, 0x18 | mag.value)   // normal power, high accuracy
            try io.writeVerified(address, R.gyrConfig0, gyroBW.code << 3 | gyro.value)
            try io.writeVerified(address, R.gyrConfig1, 0x00)
            try io.writeVerified(address, R.pageID, 0x00)
            try io.writeVerified(address, R.unitSel, R.unitsMilliGDegrees)
            try io.writeVerified(address, R.axisMapConfig, R.defaultAxisMap.config)
            try io.writeVerified(address, R.axisMapConfig + 1, R.defaultAxisMap.sign)
            try io.writeVerified(address, R.oprMode, R.amgMode)
            written = (R.unitsMilliGDegrees, R.amgMode)
            magPeriodTicks = max(1, Int((Double(rateHz) / mag.hz).rounded(.down)))
            settings = ChipSettings(
                accelRangeG: accel.range, gyroRangeDegPerSec: gyro.range,
                magRangeMicroTesla: BNO055Conversion.magRangeMicroTesla,
                accelRateHz: Double(min(rateHz, maxRateHz)), gyroRateHz: Double(min(rateHz, maxRateHz)), magRateHz: mag.hz,
                notes: ["BNO055 AMG mode (no on-chip fusion): accel bandwidth \(IMUDriver.text(accelBW.hz)) Hz, "
                        + "gyro bandwidth \(IMUDriver.text(gyroBW.hz)) Hz, magnetometer \(IMUDriver.text(mag.hz)) Hz",
                        "units mg, °/s, µT (UNIT_SEL \(Hex.byte(R.unitsMilliGDegrees))), default axis map"])
            return .next(afterSeconds: 0.007)   // CONFIGMODE → any mode: 7 ms
        default:
            return .done
        }
    }

    func bringUpMagnetometer(phase: Int) throws(IMUError) -> PhaseResult { .done }

    /// One 18-byte burst ACC_DATA, MAG_DATA, GYR_DATA (0x08–0x19); the magnetometer words
    /// are kept for `readMagnetometer`.
    func readInertial() throws(I2CError) -> InertialRead {
        try bus.read(address: address, register: BNO055Register.accDataXLSB, into: buffer.prefix(18))
        let b = buffer
        magRaw = (b.littleEndianInt16(at: 6), b.littleEndianInt16(at: 8), b.littleEndianInt16(at: 10))
        magFresh = true
        return .sample(BNO055Conversion.inertial(
            accel: (b.littleEndianInt16(at: 0), b.littleEndianInt16(at: 2), b.littleEndianInt16(at: 4)),
            gyro: (b.littleEndianInt16(at: 12), b.littleEndianInt16(at: 14), b.littleEndianInt16(at: 16))))
    }

    /// The magnetometer words of this tick's burst (no extra transfer). The BNO055 has no
    /// new-data flag for them: M rows come at the magnetometer's configured rate.
    func readMagnetometer() throws(I2CError) -> MagneticRead {
        guard magFresh else { return .notReady }
        magFresh = false
        return .sample(BNO055Conversion.magnetic(raw: magRaw))
    }

    /// OPR_MODE returns to CONFIGMODE and UNIT_SEL to 0x80 on a reset.
    func inertialConfigurationIntact() throws(I2CError) -> Bool {
        try bus.read(address: address, register: BNO055Register.unitSel, into: buffer.prefix(3))
        return buffer[0] == written.unitSel && buffer[2] & 0x0F == written.mode
    }

    func magnetometerConfigurationIntact() throws(I2CError) -> Bool { true }
}
