/// The Bosch BNO055 in AMG mode: its accelerometer, gyroscope and magnetometer raw (no
/// on-chip fusion), in one 18-byte burst per tick. All three come in the BNO055's frame
/// (the default axis map), in mg, °/s and µT as UNIT_SEL sets.
///
/// With `IMUOptions.chipFusion`, in NDOF mode instead: one 44-byte burst per tick from
/// ACC_DATA to GRV_DATA gives the offset-compensated accelerometer, magnetometer and
/// gyroscope and the fusion's quaternion, linear acceleration and gravity vector.
final class BNO055Chip: IMUChip {
    let model = "BNO055"
    let maxRateHz = BNO055Conversion.maxRateHz
    let failures = FailureCounter()
    private let options: IMUOptions
    private var link: ChipLink
    private let buffer = RegisterBuffer(capacity: 48)
    /// NDOF (the chip's own fusion) instead of AMG.
    private let fusion: Bool
    /// CALIB_STAT read once the chip first entered NDOF (nil: not read, or the read failed).
    private var calibrationAtStart: UInt8?
    private var calibrationRead = false
    /// The magnetometer words of the last burst, and the last ones delivered.
    private var magRaw: (Int16, Int16, Int16) = (0, 0, 0)
    private var magDelivered: (Int16, Int16, Int16)?
    private var written: (unitSel: UInt8, mode: UInt8) = (0, 0)
    private(set) var settings = ChipSettings.unset()

    init(bus: I2CBus, options: IMUOptions) {
        self.options = options
        link = ChipLink(bus: bus, chip: "BNO055", failures: failures,
                        configured: options.address, defaults: BNO055Register.addresses)
        fusion = options.chipFusion
    }

    var placement: String {
        (fusion ? "BNO055 (NDOF mode, its own fusion)" : "BNO055 (AMG mode, raw sensors)") + " at \(Hex.byte(link.address)) on \(link.bus.name)"
    }

    var fusionInfo: [String: String]? {
        guard fusion else { return nil }
        return [
            "source": "chip",
            "chip": placement,
            "algorithm": "the BNO055's own sensor fusion (Bosch's firmware on the chip), read as its quaternion, "
                + "linear acceleration and gravity vector (QUA_DATA, LIA_DATA, GRV_DATA) every tick",
            "mode": "NDOF (OPR_MODE 0x0C): accelerometer, gyroscope and magnetometer fused, fast magnetometer calibration on; "
                + "fusion output 100 Hz; the fusion fixes the sensors at ±4 g, ±2000 °/s, magnetometer 20 Hz",
            "calibrationAtStart": calibrationAtStart.map(BNO055Conversion.calibrationText)
                ?? "not available (CALIB_STAT could not be read)",
        ]
    }

    func bringUpInertial(phase: Int, rateHz: Int) throws(IMUError) -> PhaseResult {
        typealias R = BNO055Register
        switch phase {
        case 0:
            try link.locate(identityRegister: R.chipID, expected: [R.identity], select: (R.pageID, 0x00))
            try link.write(R.sysTrigger, R.resetSystem)
            return .next(afterSeconds: 0.65)   // power-on reset time (Table 0-2: 650 ms)
        case 1:
            try link.writeVerified(R.pageID, 0x00)
            try link.writeVerified(R.oprMode, R.configMode)
            return .next(afterSeconds: 0.02)   // any mode → CONFIGMODE: 19 ms (Table 3-6)
        case 2 where fusion:
            // The fusion sets the sensors itself (Table 3-4, 3-14); only units, axes and mode here.
            try link.writeVerified(R.pwrMode, 0x00)
            try enterMode(R.ndofMode)
            let f = BNO055Conversion.Fusion.self
            let rate = min(Double(rateHz), f.inertialRateHz)
            settings = ChipSettings(
                accelRangeG: f.accelRangeG, gyroRangeDegPerSec: f.gyroRangeDegPerSec,
                magRangeMicroTesla: BNO055Conversion.magRangeMicroTesla,
                accelRateHz: rate, gyroRateHz: rate, magRateHz: f.magRateHz,
                notes: ["BNO055 NDOF mode (its own fusion): the fusion sets accel ±\(IMUDriver.text(f.accelRangeG)) g, "
                        + "bandwidth \(IMUDriver.text(f.accelBandwidthHz)) Hz, gyro ±\(IMUDriver.text(f.gyroRangeDegPerSec)) °/s, "
                        + "bandwidth \(IMUDriver.text(f.gyroBandwidthHz)) Hz, magnetometer \(IMUDriver.text(f.magRateHz)) Hz; "
                        + "A rows clip at ±\(IMUDriver.text(f.accelRangeG)) g",
                        "A/G/M offset-compensated by the chip's calibration (datasheet §3.6.5); "
                        + "units mg, °/s, µT (UNIT_SEL \(Hex.byte(R.unitsMilliGDegrees))), default axis map"])
            return .next(afterSeconds: 0.007)   // CONFIGMODE → any mode: 7 ms
        case 3 where fusion:
            // The calibration status the fusion starts with, once per recording (a failed
            // read is counted and leaves it unknown; it does not stop the start).
            if !calibrationRead {
                calibrationRead = true
                calibrationAtStart = try? link.read(R.calibStat)
            }
            return .done
        case 2:
            let accel = RangeChoice.pick(options.accelRangeG, from: BNO055Conversion.accelScales)
            let gyro = RangeChoice.pick(options.gyroRangeDegPerSec, from: BNO055Conversion.gyroScales)
            let accelBW = BNO055Conversion.bandwidth(BNO055Conversion.accelBandwidths, rateHz: rateHz)
            let gyroBW = BNO055Conversion.bandwidth(BNO055Conversion.gyroBandwidths, rateHz: rateHz)
            let mag = RateChoice.pick(rateHz, from: BNO055Conversion.magRates)
            try link.writeVerified(R.pwrMode, 0x00)
            try link.writeVerified(R.pageID, 0x01)
            try link.writeVerified(R.accConfig, accelBW.code << 2 | accel.value)
            try link.writeVerified(R.magConfig, 0x18 | mag.value)   // normal power, high accuracy
            try link.writeVerified(R.gyrConfig0, gyroBW.code << 3 | gyro.value)
            try link.writeVerified(R.gyrConfig1, 0x00)
            try enterMode(R.amgMode)
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

    /// Page 0, units (mg, °/s, µT), the default axis map, then `mode` (AMG or NDOF), each
    /// read back; the last phase of both bring-ups. Forgets the magnetometer words delivered.
    private func enterMode(_ mode: UInt8) throws(IMUError) {
        typealias R = BNO055Register
        try link.writeVerified(R.pageID, 0x00)
        try link.writeVerified(R.unitSel, R.unitsMilliGDegrees)
        try link.writeVerified(R.axisMapConfig, R.defaultAxisMap.config)
        try link.writeVerified(R.axisMapConfig + 1, R.defaultAxisMap.sign)
        try link.writeVerified(R.oprMode, mode)
        written = (R.unitsMilliGDegrees, mode)
        magDelivered = nil
    }

    func bringUpMagnetometer(phase: Int) throws(IMUError) -> PhaseResult { .done }

    /// One 18-byte burst ACC_DATA, MAG_DATA, GYR_DATA (0x08–0x19); in NDOF one 44-byte
    /// burst on to the end of GRV_DATA (0x08–0x33), so the fusion output belongs to the
    /// same instant. The magnetometer words are kept for `readMagnetometer`.
    func readInertial() throws(I2CError) -> InertialRead {
        typealias R = BNO055Register
        try link.burst(R.accDataXLSB, count: fusion ? R.fusionBurstLength : 18, into: buffer)
        let b = buffer
        // Offsets in the burst, which starts at ACC_DATA_X_LSB.
        let at = { (register: UInt8) in Int(register - R.accDataXLSB) }
        magRaw = b.littleEndianVector(at: at(R.magDataXLSB))
        var sample = BNO055Conversion.inertial(accel: b.littleEndianVector(at: at(R.accDataXLSB)),
                                               gyro: b.littleEndianVector(at: at(R.gyrDataXLSB)))
        if fusion {
            let w = b.littleEndianInt16(at: at(R.quaDataWLSB)), xyz = b.littleEndianVector(at: at(R.quaDataWLSB) + 2)
            sample.fusion = BNO055Conversion.fusion(
                quaternion: (w, xyz.0, xyz.1, xyz.2),
                linear: b.littleEndianVector(at: at(R.liaDataXLSB)),
                gravity: b.littleEndianVector(at: at(R.grvDataXLSB)))
        }
        return .sample(sample)
    }

    /// The magnetometer words of this tick's burst (no extra transfer). The BNO055 has no
    /// new-data flag for them, so words that are all 0 (no sample since the mode switch) or
    /// equal to the last ones delivered are taken as not refreshed yet: at 1/16 µT per LSB
    /// the magnetometer's noise (about 0.5 µT) changes every new sample. A magnetometer
    /// that stops refreshing therefore stalls, is counted and restarted instead of
    /// repeating its last value.
    func readMagnetometer() throws(I2CError) -> MagneticRead {
        // All three words exactly 0: the registers CONFIGMODE cleared, before the first
        // sample after a mode switch (Earth's field is never 0 on all axes at 1/16 µT).
        if magRaw == (0, 0, 0) { return .notReady }
        if let last = magDelivered, last == magRaw { return .notReady }
        magDelivered = magRaw
        return .sample(BNO055Conversion.magnetic(raw: magRaw))
    }

    /// UNIT_SEL, OPR_MODE and PWR_MODE (0x3B–0x3E): a reset returns to 0x80 and
    /// CONFIGMODE, a suspended chip (PWR_MODE 2) holds its data.
    func inertialConfigurationIntact() throws(I2CError) -> Bool {
        try link.burst(BNO055Register.unitSel, count: 4, into: buffer)
        return buffer[0] == written.unitSel && buffer[2] & 0x0F == written.mode && buffer[3] & 0x03 == 0
    }

    func magnetometerConfigurationIntact() throws(I2CError) -> Bool { true }
}
