/// The ST LIS3MDL magnetometer (Adafruit LSM6DSOX + LIS3MDL FeatherWing and breakouts).
final class LIS3MDLChip: MagnetometerChip {
    let model = "LIS3MDL"
    private let bus: I2CBus
    private let io: ChipIO
    private let options: IMUOptions
    private var candidates: [UInt8]
    private var address: UInt8
    private let buffer = RegisterBuffer(capacity: 8)
    private var lsbPerGauss = 6842.0
    private var written: [UInt8] = []   // CTRL_REG1, CTRL_REG2, CTRL_REG3
    private(set) var magSettings = MagnetometerSettings(rangeMicroTesla: 0, rateHz: 0, notes: [])

    init(bus: I2CBus, options: IMUOptions, failures: FailureCounter) {
        self.bus = bus
        self.options = options
        io = ChipIO(bus: bus, chip: "LIS3MDL magnetometer", failures: failures)
        candidates = options.magAddress.map { [$0] } ?? LIS3MDLRegister.addresses
        address = candidates[0]
    }

    var placement: String { "LIS3MDL at \(Hex.byte(address))" }

    func bringUpMagnetometer(phase: Int, rateHz: Int) throws(IMUError) -> PhaseResult {
        typealias R = LIS3MDLRegister
        switch phase {
        case 0:
            address = try io.locate(candidates: candidates, identityRegister: R.whoAmI, expected: [R.identity])
            candidates = [address]
            try io.write(address, R.ctrlReg2, R.softReset)
            return .next(afterSeconds: 0.01)
        case 1:
            let scale = RangeChoice.pick(options.magRangeMicroTesla, from: LIS3MDLConversion.scales)
            let rate = RateChoice.pick(rateHz, from: LIS3MDLConversion.rates)
            let control = LIS3MDLConversion.control(rate.value)
            written = [control.ctrl1, scale.value.code << 5, R.continuous]
            try io.writeVerified(address, R.ctrlReg1, written[0])
            try io.writeVerified(address, R.ctrlReg2, written[1])
            try io.writeVerified(address, R.ctrlReg4, control.ctrl4)
            try io.writeVerified(address, R.ctrlReg5, R.blockDataUpdate)
            try io.writeVerified(address, R.ctrlReg3, written[2])
            lsbPerGauss = scale.value.lsbPerGauss
            let mode = ["low-power", "medium-performance", "high-performance", "ultra-high-performance"][Int(rate.value.operatingMode)]
            magSettings = MagnetometerSettings(
                rangeMicroTesla: scale.range, rateHz: rate.hz,
                notes: ["LIS3MDL \(mode) \(IMUDriver.text(rate.hz)) Hz\(rate.value.fast ? " (FAST_ODR)" : ""), ±\(IMUDriver.text(scale.range / 100)) gauss"])
            return .done
        default:
            return .done
        }
    }

    /// One 7-byte burst STATUS_REG, OUT_X_L … OUT_Z_H.
    func readMagnetometer() throws(I2CError) -> MagneticRead {
        typealias R = LIS3MDLRegister
        try bus.read(address: address, register: R.status | R.autoIncrement, into: buffer.prefix(7))
        guard buffer[0] & R.dataAvailable != 0 else { return .notReady }
        let b = buffer
        let raw = (b.littleEndianInt16(at: 1), b.littleEndianInt16(at: 3), b.littleEndianInt16(at: 5))
        guard !LIS3MDLConversion.saturated(raw) else { return .overflow }
        return .sample(LIS3MDLConversion.magnetic(raw: raw, lsbPerGauss: lsbPerGauss))
    }

    /// CTRL_REG3 returns to power-down on a reset.
    func magnetometerConfigurationIntact() throws(I2CError) -> Bool {
        guard written.count == 3 else { return false }
        try bus.read(address: address, register: LIS3MDLRegister.ctrlReg1 | LIS3MDLRegister.autoIncrement, into: buffer.prefix(3))
        return buffer[0] == written[0] && buffer[1] == written[1] && buffer[2] == written[2]
    }
}
