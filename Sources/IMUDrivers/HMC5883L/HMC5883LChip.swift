/// The Honeywell HMC5883L magnetometer (GY-271, GY-87), run in single-measurement mode.
/// Its RDY bit stays set in continuous mode and no read clears it (and reading the mode
/// register locks the data registers), so there is no way to tell a new sample from one
/// already read. Instead each read takes the six data bytes of the measurement the read
/// before triggered, then triggers the next; the rate is chosen so that polls are never
/// closer than one measurement. Every M row is therefore a new measurement. Not detected:
/// a measurement that hangs without a reset (the data then repeats).
final class HMC5883LChip: MagnetometerChip {
    let model = "HMC5883L"
    private let options: IMUOptions
    private var link: ChipLink
    private let buffer = RegisterBuffer(capacity: 8)
    private var lsbPerGauss = 440.0
    private var written: (UInt8, UInt8) = (0, 0)   // configuration A, B
    /// The trigger written after each read, kept so the per-sample write does not allocate.
    private let trigger: [UInt8] = [HMC5883LRegister.single]
    private(set) var magSettings = MagnetometerSettings.unset

    init(bus: I2CBus, options: IMUOptions, failures: FailureCounter) {
        self.options = options
        link = ChipLink(bus: bus, chip: "HMC5883L magnetometer", failures: failures,
                        configured: options.magAddress, defaults: [HMC5883LRegister.address])
    }

    var placement: String { "HMC5883L at \(Hex.byte(link.address))" }

    func bringUpMagnetometer(phase: Int, rateHz: Int) throws(IMUError) -> PhaseResult {
        typealias R = HMC5883LRegister
        switch phase {
        case 0:
            do throws(IMUError) {
                try link.locate(identityRegister: R.identityA, expected: [R.identity[0]])
                let id = try link.read(R.identityA, count: 3)
                guard id == R.identity else {
                    throw IMUError.wrongIdentity(chip: "HMC5883L magnetometer", bus: link.bus.name, address: link.address,
                                                 register: R.identityA + 1, expected: [R.identity[1]], found: id[1])
                }
            } catch {
                throw MagnetometerLookAlike.check(error, bus: link.bus, instead: .hmc5883l)
            }
            // No reset command: configuration A and B are written anew, then the first measurement triggered.
            let scale = RangeChoice.pick(options.magRangeMicroTesla, from: HMC5883LConversion.scales)
            let plan = HMC5883LConversion.plan(tickHz: rateHz)
            written = (plan.configA, scale.value.code << 5)
            try link.writeVerified(R.configA, written.0)
            try link.writeVerified(R.configB, written.1)
            try link.write(R.mode, R.single)
            lsbPerGauss = scale.value.lsbPerGauss
            magSettings = MagnetometerSettings(
                rangeMicroTesla: scale.range, rateHz: plan.rateHz,
                notes: ["HMC5883L single measurements at \(IMUDriver.text(plan.rateHz)) Hz, \(plan.averaged) sample\(plan.averaged == 1 ? "" : "s") averaged, "
                        + "±\(IMUDriver.text(scale.range / 100)) Ga"])
            return .next(afterSeconds: HMC5883LConversion.measurementSeconds(averaged: plan.averaged))
        default:
            return .done
        }
    }

    /// Six bytes X, Z, Y (big-endian; −4096 is an overflow), then the trigger of the next
    /// measurement.
    func readMagnetometer() throws(I2CError) -> MagneticRead {
        typealias R = HMC5883LRegister
        try link.burst(R.dataXMSB, count: 6, into: buffer)
        try link.bus.write(address: link.address, register: R.mode, bytes: trigger)
        let b = buffer
        let raw = (b.bigEndianInt16(at: 0), b.bigEndianInt16(at: 4), b.bigEndianInt16(at: 2))
        let o = R.overflowValue
        guard raw.0 != o, raw.1 != o, raw.2 != o else { return .overflow }
        return .sample(HMC5883LConversion.magnetic(raw: raw, lsbPerGauss: lsbPerGauss))
    }

    /// Configuration A and B return to 0x10 and 0x20 on a power cycle.
    func magnetometerConfigurationIntact() throws(I2CError) -> Bool {
        try link.burst(HMC5883LRegister.configA, count: 2, into: buffer)
        return buffer[0] == written.0 && buffer[1] == written.1
    }
}
