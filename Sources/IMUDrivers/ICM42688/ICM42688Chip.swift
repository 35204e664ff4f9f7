/// The TDK InvenSense ICM-42688-P accelerometer/gyroscope (no magnetometer: pair one).
final class ICM42688Chip: InertialChip {
    let model = "ICM-42688-P"
    let maxRateHz = ICM42688Conversion.maxRateHz
    private let bus: I2CBus
    private let io: ChipIO
    private let options: IMUOptions
    private var candidates: [UInt8]
    private var address: UInt8
    private let buffer = RegisterBuffer(capacity: 16)
    private var lsbPerG = 2048.0
    private var lsbPerDps = 16.4
    private var written: [UInt8] = []   // PWR_MGMT0, GYRO_CONFIG0, ACCEL_CONFIG0
    private(set) var settings = ChipSettings(accelRangeG: 0, gyroRangeDegPerSec: 0, magRangeMicroTesla: 0,
                                             accelRateHz: 0, gyroRateHz: 0, magRateHz: 0, notes: [])

    init(bus: I2CBus, options: IMUOptions, failures: FailureCounter) {
        self.bus = bus
        self.options = options
        io = ChipIO(bus: bus, chip: "ICM-42688-P", failures: failures)
        candidates = options.address.map { [$0] } ?? ICM42688Register.addresses
        address = candidates[0]
    }

    var placement: String { "ICM-42688-P at \(Hex.byte(address)) on \(bus.name)" }

    func bringUpInertial(phase: Int, rateHz: Int) throws(IMUError) -> PhaseResult {
        typealias R = ICM42688Register
        switch phase {
        case 0:
            let bus = self.bus
            address = try io.locate(candidates: candidates, identityRegister: R.whoAmI, expected: [R.identity]) {
                (a: UInt8) throws(I2CError) in try bus.writeByte(address: a, register: R.regBankSel, 0x00)
            }
            candidates = [address]
            try io.write(address, R.deviceConfig, R.softReset)
            return .next(afterSeconds: 0.01)
        case 1:
            let rate = RateChoice.pick(rateHz, from: ICM42688Conversion.rates)
            let accel = RangeChoice.pick(options.accelRangeG, from: ICM42688Conversion.accelScales)
            let gyro = RangeChoice.pick(options.gyroRangeDegPerSec, from: ICM42688Conversion.gyroScales)
            written = [R.lowNoiseBoth, gyro.value.code << 5 | rate.value, accel.value.code << 5 | rate.value]
            try io.writeVerified(address, R.gyroConfig0, written[1])
            try io.writeVerified(address, R.accelConfig0, written[2])
            try io.writeVerified(address, R.pwrMgmt0, written[0])
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
        try bus.read(address: address, register: ICM42688Register.accelDataX1, into: buffer.prefix(12))
        let b = buffer
        let off = Int16.min
        if b.bigEndianInt16(at: 0) == off && b.bigEndianInt16(at: 2) == off && b.bigEndianInt16(at: 4) == off
            || b.bigEndianInt16(at: 6) == off && b.bigEndianInt16(at: 8) == off && b.bigEndianInt16(at: 10) == off {
            return .configurationLost
        }
        return .sample(ICM42688Conversion.inertial(
            accel: (b.bigEndianInt16(at: 0), b.bigEndianInt16(at: 2), b.bigEndianInt16(at: 4)),
            gyro: (b.bigEndianInt16(at: 6), b.bigEndianInt16(at: 8), b.bigEndianInt16(at: 10)),
            lsbPerG: lsbPerG, lsbPerDps: lsbPerDps))
    }

    /// PWR_MGMT0, GYRO_CONFIG0, ACCEL_CONFIG0 (0x4E–0x50) read back in one burst.
    func inertialConfigurationIntact() throws(I2CError) -> Bool {
        guard written.count == 3 else { return false }
        try bus.read(address: address, register: ICM42688Register.pwrMgmt0, into: buffer.prefix(3))
        return buffer[0] == written[0] && buffer[1] == written[1] && buffer[2] == written[2]
    }
}
