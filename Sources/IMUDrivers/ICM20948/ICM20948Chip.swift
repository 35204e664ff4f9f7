import MotionMath

/// The ICM-20948 with its AK09916 magnetometer, reached directly through the bypass.
/// Configuration lives in register bank 2; the driver returns to bank 0 and stays there.
final class ICM20948Chip: IMUChip {
    let model = "ICM-20948"
    let maxRateHz = 1100
    private let bus: I2CBus
    let failures = FailureCounter()
    private let io: ChipIO
    private let magIO: ChipIO
    private let options: IMUOptions
    private var candidates: [UInt8]
    private var address: UInt8
    private let buffer = RegisterBuffer(capacity: 16)
    private var lsbPerG = 2048.0
    private var lsbPerDps = 16.4
    private(set) var settings = ChipSettings(accelRangeG: 0, gyroRangeDegPerSec: 0, magRangeMicroTesla: 0,
                                             accelRateHz: 0, gyroRateHz: 0, magRateHz: ICM20948Conversion.magRateHz, notes: [])

    init(bus: I2CBus, options: IMUOptions) {
        self.bus = bus
        self.options = options
        io = ChipIO(bus: bus, chip: "ICM-20948", failures: failures)
        magIO = ChipIO(bus: bus, chip: "AK09916 magnetometer (inside the ICM-20948)", failures: failures)
        candidates = options.address.map { [$0] } ?? ICM20948Register.addresses
        address = candidates[0]
    }

    var placement: String { "ICM-20948 (AK09916 magnetometer) at \(Hex.byte(address)) on \(bus.name)" }

    func bringUpInertial(phase: Int, rateHz: Int) throws(IMUError) -> PhaseResult {
        typealias R = ICM20948Register
        switch phase {
        case 0:
            let bus = self.bus
            address = try io.locate(candidates: candidates, identityRegister: R.whoAmI, expected: [R.identity]) {
                (a: UInt8) throws(I2CError) in try bus.writeByte(address: a, register: R.regBankSel, R.bank(0))
            }
            candidates = [address]
            try io.write(address, R.pwrMgmt1, R.deviceReset)
            return .next(afterSeconds: 0.1)
        case 1:
            try io.writeVerified(address, R.regBankSel, R.bank(0))
            try io.writeVerified(address, R.pwrMgmt1, R.clockAuto)   // wake, best clock
            return .next(afterSeconds: 0.01)
        case 2:
            try io.writeVerified(address, R.pwrMgmt2, 0x00)
            try io.writeVerified(address, R.userCtrl, 0x00)
            try io.writeVerified(address, R.intPinCfg, R.bypassEnable)
            let accel = RangeChoice.pick(options.accelRangeG, from: ICM20948Conversion.accelScales)
            let gyro = RangeChoice.pick(options.gyroRangeDegPerSec, from: ICM20948Conversion.gyroScales)
            let gyroDiv = ICM20948Conversion.divider(base: ICM20948Conversion.gyroBaseRateHz, rateHz: rateHz, maximum: 255)
            let accelDiv = ICM20948Conversion.divider(base: ICM20948Conversion.accelBaseRateHz, rateHz: rateHz, maximum: 4095)
            let gyroODR = ICM20948Conversion.gyroBaseRateHz / Double(1 + gyroDiv)
            let accelODR = ICM20948Conversion.accelBaseRateHz / Double(1 + accelDiv)
            let gyroFilter = ICM20948Conversion.filter(ICM20948Conversion.gyroFilters, outputRateHz: gyroODR)
            let accelFilter = ICM20948Conversion.filter(ICM20948Conversion.accelFilters, outputRateHz: accelODR)
            try io.writeVerified(address, R.regBankSel, R.bank(2))
            try io.writeVerified(address, R.gyroSmplrtDiv, UInt8(gyroDiv))
            try io.writeVerified(address, R.gyroConfig1, gyroFilter.config << 3 | gyro.value.code << 1 | 1)
            try io.writeVerified(address, R.accelSmplrtDiv1, UInt8(accelDiv >> 8))
            try io.writeVerified(address, R.accelSmplrtDiv2, UInt8(accelDiv & 0xFF))
            try io.writeVerified(address, R.accelConfig, accelFilter.config << 3 | accel.value.code << 1 | 1)
            try io.writeVerified(address, R.regBankSel, R.bank(0))
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
            _ = try magIO.locate(candidates: [A.address], identityRegister: A.wia2, expected: [A.identity])
            try magIO.write(A.address, A.cntl3, A.softReset)
            return .next(afterSeconds: 0.01)
        case 1:
            try magIO.writeVerified(A.address, A.cntl2, A.modeContinuous100Hz)
            return .done
        default:
            return .done
        }
    }

    /// One 12-byte burst ACCEL_XOUT_H (0x2D) … GYRO_ZOUT_L (0x38), bank 0.
    func readInertial() throws(I2CError) -> InertialRead {
        try bus.read(address: address, register: ICM20948Register.accelXOutH, into: buffer.prefix(12))
        let b = buffer
        return .sample(ICM20948Conversion.inertial(
            accel: (b.bigEndianInt16(at: 0), b.bigEndianInt16(at: 2), b.bigEndianInt16(at: 4)),
            gyro: (b.bigEndianInt16(at: 6), b.bigEndianInt16(at: 8), b.bigEndianInt16(at: 10)),
            lsbPerG: lsbPerG, lsbPerDps: lsbPerDps))
    }

    /// One 9-byte burst ST1, HXL…HZH, TMPS, ST2.
    func readMagnetometer() throws(I2CError) -> MagneticRead {
        try bus.read(address: AK09916Register.address, register: AK09916Register.st1, into: buffer.prefix(9))
        guard buffer[0] & AK09916Register.dataReady != 0 else { return .notReady }
        guard buffer[8] & AK09916Register.overflow == 0 else { return .overflow }
        let b = buffer
        return .sample(ICM20948Conversion.magnetic(
            raw: (b.littleEndianInt16(at: 1), b.littleEndianInt16(at: 3), b.littleEndianInt16(at: 5))))
    }

    /// PWR_MGMT_1 returns to 0x41 (asleep) on a reset.
    func inertialConfigurationIntact() throws(I2CError) -> Bool {
        try bus.readByte(address: address, register: ICM20948Register.pwrMgmt1) == ICM20948Register.clockAuto
    }

    func magnetometerConfigurationIntact() throws(I2CError) -> Bool {
        try bus.readByte(address: AK09916Register.address, register: AK09916Register.cntl2)
            == AK09916Register.modeContinuous100Hz
    }
}
