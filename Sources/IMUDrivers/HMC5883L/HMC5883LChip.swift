/// The Honeywell HMC5883L magnetometer (GY-271, GY-87). It has no new-data flag that a
/// read clears (RDY stays set in continuous mode), so the driver reads at the output
/// rate; a measurement that stops shows as frozen data, which counts as not ready once
/// it lasts a second (real readings change by an LSB or more within that time).
final class HMC5883LChip: MagnetometerChip {
    let model = "HMC5883L"
    private let bus: I2CBus
    private let io: ChipIO
    private let options: IMUOptions
    private let address: UInt8
    private let buffer = RegisterBuffer(capacity: 8)
    private var lsbPerGauss = 440.0
    private var written: (UInt8, UInt8, UInt8) = (0, 0, 0)   // config A, config B, mode
    private var last: (Int16, Int16, Int16) = (0, 0, 0)
    private var repeats = 0
    private var frozenAfter = 75
    private(set) var magSettings = MagnetometerSettings(rangeMicroTesla: 0, rateHz: 0, notes: [])

    init(bus: I2CBus, options: IMUOptions, failures: FailureCounter) {
        self.bus = bus
        self.options = options
        io = ChipIO(bus: bus, chip: "HMC5883L magnetometer", failures: failures)
        address = options.magAddress ?? HMC5883LRegister.address
    }

    var placement: String { "HMC5883L at \(Hex.byte(address))" }

    func bringUpMagnetometer(phase: Int, rateHz: Int) throws(IMUError) -> PhaseResult {
        typealias R = HMC5883LRegister
        switch phase {
        case 0:
            do throws(IMUError) {
                _ = try io.locate(candidates: [address], identityRegister: R.identityA, expected: [R.identity[0]])
                let id = try io.read(address, R.identityA, count: 3)
                guard id == R.identity else {
                    throw IMUError.wrongIdentity(chip: "HMC5883L magnetometer", bus: bus.name, address: address,
                                                 register: R.identityA + 1, expected: [R.identity[1]], found: id[1])
                }
            } catch {
                throw MagnetometerLookAlike.check(error, bus: bus, instead: .hmc5883l)
            }
            // No reset command: configuration A/B and the mode are written anew.
            let scale = RangeChoice.pick(options.magRangeMicroTesla, from: HMC5883LConversion.scales)
            let rate = RateChoice.pick(rateHz, from: HMC5883LConversion.rates)
            let a = HMC5883LConversion.configA(rate: rate)
            written = (a.value, scale.value.code << 5, R.continuous)
            try io.writeVerified(address, R.configA, written.0)
            try io.writeVerified(address, R.configB, written.1)
            try io.writeVerified(address, R.mode, written.2)
            lsbPerGauss = scale.value.lsbPerGauss
            frozenAfter = max(2, Int(rate.hz.rounded(.up)))
            repeats = 0
            magSettings = MagnetometerSettings(
                rangeMicroTesla: scale.range, rateHz: rate.hz,
                notes: ["HMC5883L continuous \(IMUDriver.text(rate.hz)) Hz, \(a.averaged) samples averaged, "
                        + "±\(IMUDriver.text(scale.range / 100)) Ga"])
            // The first measurement after a mode change takes one period (plus 6 ms).
            return .next(afterSeconds: 1 / rate.hz + 0.006)
        default:
            return .done
        }
    }

    /// Six bytes X, Z, Y (big-endian); −4096 on any axis is an overflow.
    func readMagnetometer() throws(I2CError) -> MagneticRead {
        try bus.read(address: address, register: HMC5883LRegister.dataXMSB, into: buffer.prefix(6))
        let b = buffer
        let raw = (b.bigEndianInt16(at: 0), b.bigEndianInt16(at: 4), b.bigEndianInt16(at: 2))
        if raw == last { repeats += 1 } else { repeats = 0; last = raw }
        guard repeats < frozenAfter else { return .notReady }
        let o = HMC5883LRegister.overflowValue
        guard raw.0 != o, raw.1 != o, raw.2 != o else { return .overflow }
        return .sample(HMC5883LConversion.magnetic(raw: raw, lsbPerGauss: lsbPerGauss))
    }

    /// Configuration A, B and mode: power-on values (0x10, 0x20, single mode) after a reset.
    func magnetometerConfigurationIntact() throws(I2CError) -> Bool {
        try bus.read(address: address, register: HMC5883LRegister.configA, into: buffer.prefix(3))
        return buffer[0] == written.0 && buffer[1] == written.1 && buffer[2] & 0x03 == written.2
    }
}
