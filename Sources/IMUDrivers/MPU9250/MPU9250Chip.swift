import MotionMath

/// The MPU-9250 (and register-compatible MPU-9255) with its AK8963 magnetometer, reached
/// directly through the MPU's I2C bypass.
final class MPU9250Chip: IMUChip {
    let model = "MPU-9250"
    let maxRateHz = MPU9250Conversion.internalRateHz
    private let bus: I2CBus
    let failures = FailureCounter()
    private let io: ChipIO
    private let magIO: ChipIO
    private let options: IMUOptions
    private var candidates: [UInt8]
    private var address: UInt8
    private let buffer = RegisterBuffer(capacity: 32)

    // What bring-up wrote, for conversion and read-back.
    private var lsbPerG = 2048.0
    private var lsbPerDps = 16.4
    private var written: [UInt8] = []   // SMPLRT_DIV, CONFIG, GYRO_CONFIG, ACCEL_CONFIG, ACCEL_CONFIG2
    private var magAdjustment = Vector3(1, 1, 1)
    private(set) var settings = ChipSettings(accelRangeG: 0, gyroRangeDegPerSec: 0, magRangeMicroTesla: 0,
                                             accelRateHz: 0, gyroRateHz: 0, magRateHz: MPU9250Conversion.magRateHz, notes: [])

    init(bus: I2CBus, options: IMUOptions) {
        self.bus = bus
        self.options = options
        io = ChipIO(bus: bus, chip: "MPU-9250", failures: failures)
        magIO = ChipIO(bus: bus, chip: "AK8963 magnetometer (inside the MPU-9250)", failures: failures)
        candidates = options.address.map { [$0] } ?? MPU9250Register.addresses
        address = candidates[0]
    }

    var placement: String { "MPU-9250 (AK8963 magnetometer) at \(Hex.byte(address)) on \(bus.name)" }

    func bringUpInertial(phase: Int, rateHz: Int) throws(IMUError) -> PhaseResult {
        typealias R = MPU9250Register
        switch phase {
        case 0:
            address = try io.locate(candidates: candidates, identityRegister: R.whoAmI, expected: R.identities)
            candidates = [address]
            try io.write(address, R.pwrMgmt1, R.hReset)
            return .next(afterSeconds: 0.1)   // reset takes up to 100 ms
        case 1:
            try io.writeVerified(address, R.pwrMgmt1, R.clockPLL)
            try io.writeVerified(address, R.pwrMgmt2, 0x00)
            let accel = RangeChoice.pick(options.accelRangeG, from: MPU9250Conversion.accelScales)
            let gyro = RangeChoice.pick(options.gyroRangeDegPerSec, from: MPU9250Conversion.gyroScales)
            let divider = MPU9250Conversion.sampleRateDivider(rateHz: rateHz)
            let odr = MPU9250Conversion.outputRate(divider: divider)
            let filter = MPU9250Conversion.filter(outputRateHz: odr)
            written = [divider, filter.config, gyro.value.code << 3, accel.value.code << 3, filter.config]
            for (i, value) in written.enumerated() {
                try io.writeVerified(address, R.smplrtDiv + UInt8(i), value)
            }
            try io.writeVerified(address, R.userCtrl, 0x00)
            try io.writeVerified(address, R.intPinCfg, R.bypassEnable)
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
            _ = try magIO.locate(candidates: [A.address], identityRegister: A.wia, expected: [A.identity])
            try magIO.write(A.address, A.cntl2, A.softReset)
            return .next(afterSeconds: 0.01)
        case 1:
            try magIO.writeVerified(A.address, A.cntl1, A.modeFuseROM)
            return .next(afterSeconds: 0.0001)  // 100 µs after a mode change (§6.3)
        case 2:
            let asa = try magIO.read(A.address, A.asax, count: 3)
            magAdjustment = Vector3(MPU9250Conversion.sensitivityAdjustment(asa[0]),
                                    MPU9250Conversion.sensitivityAdjustment(asa[1]),
                                    MPU9250Conversion.sensitivityAdjustment(asa[2]))
            settings.notes = Array(settings.notes.prefix(2)) + [
                "AK8963 16-bit continuous 100 Hz, fuse-ROM sensitivity adjustment (\(IMUDriver.text(magAdjustment.x)), "
                    + "\(IMUDriver.text(magAdjustment.y)), \(IMUDriver.text(magAdjustment.z)))"]
            try magIO.writeVerified(A.address, A.cntl1, A.modePowerDown)
            return .next(afterSeconds: 0.0001)
        case 3:
            try magIO.writeVerified(A.address, A.cntl1, A.mode16BitContinuous100Hz)
            return .done
        default:
            return .done
        }
    }

    /// One 18-byte burst from INT_PIN_CFG through GYRO_ZOUT_L, as on the MPU-6050.
    func readInertial() throws(I2CError) -> InertialRead {
        try MPUFamilyRead.inertial(bus: bus, address: address, buffer: buffer, lsbPerG: lsbPerG, lsbPerDps: lsbPerDps)
    }

    /// One 8-byte burst ST1, HXL…HZH, ST2 (reading ST2 ends the AK8963's read cycle).
    func readMagnetometer() throws(I2CError) -> MagneticRead {
        try bus.read(address: AK8963Register.address, register: AK8963Register.st1, into: buffer.prefix(8))
        guard buffer[0] & AK8963Register.dataReady != 0 else { return .notReady }
        guard buffer[7] & AK8963Register.overflow == 0 else { return .overflow }
        let b = buffer
        return .sample(MPU9250Conversion.magnetic(
            raw: (b.littleEndianInt16(at: 1), b.littleEndianInt16(at: 3), b.littleEndianInt16(at: 5)),
            adjustment: magAdjustment))
    }

    /// Filter/range registers, then USER_CTRL and PWR_MGMT_1 (asleep or master mode on).
    func inertialConfigurationIntact() throws(I2CError) -> Bool {
        guard written.count == 5 else { return false }
        return try MPUFamilyRead.configurationIntact(bus: bus, address: address, buffer: buffer, written: written)
    }

    func magnetometerConfigurationIntact() throws(I2CError) -> Bool {
        try bus.readByte(address: AK8963Register.address, register: AK8963Register.cntl1)
            == AK8963Register.mode16BitContinuous100Hz
    }
}
