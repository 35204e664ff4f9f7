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
    private let bus: I2CBus
    let failures = FailureCounter()
    private let io: ChipIO
    private let options: IMUOptions
    private var candidates: [UInt8]
    private var address: UInt8
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
    private(set) var settings = ChipSettings(accelRangeG: 0, gyroRangeDegPerSec: 0, magRangeMicroTesla: 0,
                                             accelRateHz: 0, gyroRateHz: 0, magRateHz: 0, notes: [])

    init(bus: I2CBus, options: IMUOptions) {
        self.bus = bus
        self.options = options
        io = ChipIO(bus: bus, chip: "BNO055", failures: failures)
        candidates = options.address.map { [$0] } ?? BNO055Register.addresses
        address = candidates[0]
        fusion = options.chipFusion
    }

    var placement: String {
        (fusion ? "BNO055 (NDOF mode, its own fusion)" : "BNO055 (AMG mode, raw sensors)") + " at \(Hex.byte(address)) on \(bus.name)"
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
        case 2 where fusion:
            // The fusion sets the sensors itself (Table 3-4, 3-14); only units, axes and mode here.
            try io.writeVerified(address, R.pwrMode, 0x00)
            try io.writeVerified(address, R.pageID, 0x00)
            try io.writeVerified(address, R.unitSel, R.unitsMilliGDegrees)
            try io.writeVerified(address, R.axisMapConfig, R.defaultAxisMap.config)
            try io.writeVerified(address, R.axisMapConfig + 1, R.defaultAxisMap.sign)
            try io.writeVerified(address, R.oprMode, R.ndofMode)
            written = (R.unitsMilliGDegrees, R.ndofMode)
            magDelivered = nil
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
                calibrationAtStart = try? io.read(address, R.calibStat)
            }
            return .done
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
            magDelivered = nil
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

    /// One 18-byte burst ACC_DATA, MAG_DATA, GYR_DATA (0x08–0x19); in NDOF one 44-byte
    /// burst on to the end of GRV_DATA (0x08–0x33), so the fusion output belongs to the
    /// same instant. The magnetometer words are kept for `readMagnetometer`.
    func readInertial() throws(I2CError) -> InertialRead {
        typealias R = BNO055Register
        try bus.read(address: address, register: R.accDataXLSB, into: buffer.prefix(fusion ? R.fusionBurstLength : 18))
        let b = buffer
        magRaw = (b.littleEndianInt16(at: 6), b.littleEndianInt16(at: 8), b.littleEndianInt16(at: 10))
        var sample = BNO055Conversion.inertial(
            accel: (b.littleEndianInt16(at: 0), b.littleEndianInt16(at: 2), b.littleEndianInt16(at: 4)),
            gyro: (b.littleEndianInt16(at: 12), b.littleEndianInt16(at: 14), b.littleEndianInt16(at: 16)))
        if fusion {
            let word = { (register: UInt8) in b.littleEndianInt16(at: Int(register - R.accDataXLSB)) }
            sample.fusion = BNO055Conversion.fusion(
                quaternion: (word(R.quaDataWLSB), word(R.quaDataWLSB + 2), word(R.quaDataWLSB + 4), word(R.quaDataWLSB + 6)),
                linear: (word(R.liaDataXLSB), word(R.liaDataXLSB + 2), word(R.liaDataXLSB + 4)),
                gravity: (word(R.grvDataXLSB), word(R.grvDataXLSB + 2), word(R.grvDataXLSB + 4)))
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
        try bus.read(address: address, register: BNO055Register.unitSel, into: buffer.prefix(4))
        return buffer[0] == written.unitSel && buffer[2] & 0x0F == written.mode && buffer[3] & 0x03 == 0
    }

    func magnetometerConfigurationIntact() throws(I2CError) -> Bool { true }
}
