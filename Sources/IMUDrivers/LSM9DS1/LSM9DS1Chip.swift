import MotionMath

/// The LSM9DS1: accelerometer/gyroscope at one address, magnetometer at its own.
final class LSM9DS1Chip: IMUChip {
    let model = "LSM9DS1"
    let maxRateHz = 952
    private let bus: I2CBus
    let failures = FailureCounter()
    private let io: ChipIO
    private let magIO: ChipIO
    private let options: IMUOptions
    private var candidates: [UInt8]
    private var magCandidates: [UInt8]
    private var address: UInt8
    private var magAddress: UInt8
    private let buffer = RegisterBuffer(capacity: 16)
    private var mgPerLSB = 0.732
    private var mdpsPerLSB = 70.0
    private var mgaussPerLSB = 0.14
    private var ctrlReg1G: UInt8 = 0
    private var magWritten: [UInt8] = []   // CTRL_REG1_M, CTRL_REG2_M, CTRL_REG3_M
    private(set) var settings = ChipSettings(accelRangeG: 0, gyroRangeDegPerSec: 0, magRangeMicroTesla: 0,
                                             accelRateHz: 0, gyroRateHz: 0, magRateHz: LSM9DS1Conversion.magRateHz, notes: [])

    init(bus: I2CBus, options: IMUOptions) {
        self.bus = bus
        self.options = options
        io = ChipIO(bus: bus, chip: "LSM9DS1 accelerometer/gyroscope", failures: failures)
        magIO = ChipIO(bus: bus, chip: "LSM9DS1 magnetometer", failures: failures)
        candidates = options.address.map { [$0] } ?? LSM9DS1Register.addresses
        magCandidates = options.magAddress.map { [$0] } ?? LSM9DS1MagRegister.addresses
        address = candidates[0]
        magAddress = magCandidates[0]
    }

    var placement: String {
        "LSM9DS1 (accelerometer/gyroscope at \(Hex.byte(address)), magnetometer at \(Hex.byte(magAddress))) on \(bus.name)"
    }

    func bringUpInertial(phase: Int, rateHz: Int) throws(IMUError) -> PhaseResult {
        typealias R = LSM9DS1Register
        switch phase {
        case 0:
            address = try io.locate(candidates: candidates, identityRegister: R.whoAmI, expected: [R.identity])
            candidates = [address]
            try io.write(address, R.ctrlReg8, R.softwareReset)
            return .next(afterSeconds: 0.01)
        case 1:
            guard let rate = LSM9DS1Conversion.rate(atLeast: rateHz) else {
                throw .rateUnsupported(chip: model, requestedHz: rateHz, maximumHz: maxRateHz)
            }
            let accel = RangeChoice.pick(options.accelRangeG, from: LSM9DS1Conversion.accelScales)
            let gyro = RangeChoice.pick(options.gyroRangeDegPerSec, from: LSM9DS1Conversion.gyroScales)
            try io.writeVerified(address, R.ctrlReg8, R.blockUpdateAutoIncrement)
            try io.writeVerified(address, R.ctrlReg4, R.allAxesOn)
            try io.writeVerified(address, R.ctrlReg5XL, R.allAxesOn)
            try io.writeVerified(address, R.ctrlReg6XL, rate.code << 5 | accel.value.code << 3)
            ctrlReg1G = rate.code << 5 | gyro.value.code << 3 | R.widestGyroBandwidth
            try io.writeVerified(address, R.ctrlReg1G, ctrlReg1G)
            mgPerLSB = accel.value.mgPerLSB
            mdpsPerLSB = gyro.value.mdpsPerLSB
            settings = ChipSettings(
                accelRangeG: accel.range, gyroRangeDegPerSec: gyro.range, magRangeMicroTesla: settings.magRangeMicroTesla,
                accelRateHz: rate.hz, gyroRateHz: rate.hz, magRateHz: LSM9DS1Conversion.magRateHz,
                notes: ["ODR \(IMUDriver.text(rate.hz)) Hz (accelerometer follows the gyroscope's ODR)",
                        "gyro low-pass \(IMUDriver.text(LSM9DS1Conversion.gyroCutoffHz[rate.code] ?? 0)) Hz (BW_G 11); "
                            + "accel anti-aliasing filter chosen by ODR",
                        "magnetometer ultra-high-performance 80 Hz"])
            return .done
        default:
            return .done
        }
    }

    func bringUpMagnetometer(phase: Int) throws(IMUError) -> PhaseResult {
        typealias M = LSM9DS1MagRegister
        switch phase {
        case 0:
            magAddress = try magIO.locate(candidates: magCandidates, identityRegister: M.whoAmI, expected: [M.identity])
            magCandidates = [magAddress]
            try magIO.write(magAddress, M.ctrlReg2, M.softReset)
            return .next(afterSeconds: 0.01)
        case 1:
            let scale = RangeChoice.pick(options.magRangeMicroTesla, from: LSM9DS1Conversion.magScales)
            magWritten = [M.ultraHighPerformance80Hz, scale.value.code << 5, M.continuous]
            try magIO.writeVerified(magAddress, M.ctrlReg1, magWritten[0])
            try magIO.writeVerified(magAddress, M.ctrlReg2, magWritten[1])
            try magIO.writeVerified(magAddress, M.ctrlReg4, M.zUltraHighPerformance)
            try magIO.writeVerified(magAddress, M.ctrlReg5, M.blockDataUpdate)
            try magIO.writeVerified(magAddress, M.ctrlReg3, magWritten[2])
            mgaussPerLSB = scale.value.mgaussPerLSB
            settings.magRangeMicroTesla = scale.range
            return .done
        default:
            return .done
        }
    }

    /// Two 6-byte bursts: gyroscope (0x18…) and accelerometer (0x28…), auto-increment by IF_ADD_INC.
    func readInertial() throws(I2CError) -> InertialRead {
        let g = buffer.prefix(12)
        try bus.read(address: address, register: LSM9DS1Register.outXLG, into: UnsafeMutableRawBufferPointer(rebasing: g[0..<6]))
        try bus.read(address: address, register: LSM9DS1Register.outXLXL, into: UnsafeMutableRawBufferPointer(rebasing: g[6..<12]))
        let b = buffer
        return .sample(LSM9DS1Conversion.inertial(
            accel: (b.littleEndianInt16(at: 6), b.littleEndianInt16(at: 8), b.littleEndianInt16(at: 10)),
            gyro: (b.littleEndianInt16(at: 0), b.littleEndianInt16(at: 2), b.littleEndianInt16(at: 4)),
            mgPerLSB: mgPerLSB, mdpsPerLSB: mdpsPerLSB))
    }

    /// One 7-byte burst STATUS_REG_M, OUT_X_L_M … OUT_Z_H_M (address MSB set for auto-increment).
    func readMagnetometer() throws(I2CError) -> MagneticRead {
        typealias M = LSM9DS1MagRegister
        try bus.read(address: magAddress, register: M.status | M.autoIncrement, into: buffer.prefix(7))
        guard buffer[0] & M.dataAvailable != 0 else { return .notReady }
        let b = buffer
        let raw = (b.littleEndianInt16(at: 1), b.littleEndianInt16(at: 3), b.littleEndianInt16(at: 5))
        guard !LSM9DS1Conversion.saturated(raw) else { return .overflow }
        return .sample(LSM9DS1Conversion.magnetic(raw: raw, mgaussPerLSB: mgaussPerLSB))
    }

    /// CTRL_REG1_G returns to 0 (power-down) on a reset.
    func inertialConfigurationIntact() throws(I2CError) -> Bool {
        try bus.readByte(address: address, register: LSM9DS1Register.ctrlReg1G) == ctrlReg1G
    }

    func magnetometerConfigurationIntact() throws(I2CError) -> Bool {
        typealias M = LSM9DS1MagRegister
        guard magWritten.count == 3 else { return false }
        try bus.read(address: magAddress, register: M.ctrlReg1 | M.autoIncrement, into: buffer.prefix(3))
        return buffer[0] == magWritten[0] && buffer[1] == magWritten[1] && buffer[2] == magWritten[2]
    }
}
