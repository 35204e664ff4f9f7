/// The ST LIS3MDL magnetometer (Adafruit LSM6DSOX + LIS3MDL FeatherWing and breakouts).
final class LIS3MDLChip: MagnetometerChip {
    let model = "LIS3MDL"
    private let options: IMUOptions
    private var link: ChipLink
    private let buffer = RegisterBuffer(capacity: 8)
    private var lsbPerGauss = 6842.0
    private var written: [UInt8] = []   // CTRL_REG1, CTRL_REG2, CTRL_REG3
    private(set) var magSettings = MagnetometerSettings.unset

    init(bus: I2CBus, options: IMUOptions, failures: FailureCounter) {
        self.options = options
        link = ChipLink(bus: bus, chip: "LIS3MDL magnetometer", failures: failures,
                        configured: options.magAddress, defaults: LIS3MDLRegister.addresses)
    }

    var placement: String { "LIS3MDL at \(Hex.byte(link.address))" }

    func bringUpMagnetometer(phase: Int, rateHz: Int) throws(IMUError) -> PhaseResult {
        typealias R = LIS3MDLRegister
        switch phase {
        case 0:
            try link.locate(identityRegister: R.whoAmI, expected: [R.identity])
            try link.write(R.ctrlReg2, R.softReset)
            return .next(afterSeconds: 0.01)
        case 1:
            let scale = RangeChoice.pick(options.magRangeMicroTesla, from: LIS3MDLConversion.scales)
            let rate = RateChoice.pick(rateHz, from: LIS3MDLConversion.rates)
            let control = LIS3MDLConversion.control(rate.value)
            written = [control.ctrl1, scale.value.code << 5, R.continuous]
            try link.writeVerified(R.ctrlReg1, written[0])
            try link.writeVerified(R.ctrlReg2, written[1])
            try link.writeVerified(R.ctrlReg4, control.ctrl4)
            try link.writeVerified(R.ctrlReg5, R.blockDataUpdate)
            try link.writeVerified(R.ctrlReg3, written[2])
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
        try link.burst(R.status | R.autoIncrement, count: 7, into: buffer)
        guard buffer[0] & R.dataAvailable != 0 else { return .notReady }
        let raw = buffer.littleEndianVector(at: 1)
        guard !LIS3MDLConversion.saturated(raw) else { return .overflow }
        return .sample(LIS3MDLConversion.magnetic(raw: raw, lsbPerGauss: lsbPerGauss))
    }

    /// CTRL_REG3 returns to power-down on a reset.
    func magnetometerConfigurationIntact() throws(I2CError) -> Bool {
        try link.stillHolds(written, count: 3, from: LIS3MDLRegister.ctrlReg1 | LIS3MDLRegister.autoIncrement, buffer: buffer)
    }
}
