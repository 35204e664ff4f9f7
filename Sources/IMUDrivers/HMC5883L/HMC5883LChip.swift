/// The Honeywell HMC5883L magnetometer (GY-271, GY-87), run in single-measurement mode:
/// its RDY bit stays set in continuous mode and no read clears it, so there is no way to
/// tell a new sample from one already read. Each poll reads the mode register: back in
/// idle means the measurement triggered last time is done; then the six data bytes are
/// read and the next measurement is triggered. A new sample is therefore always new, and
/// a hung measurement shows as not ready.
final class HMC5883LChip: MagnetometerChip {
    let model = "HMC5883L"
    private let bus: I2CBus
    private let io: ChipIO
    private let options: IMUOptions
    private let address: UInt8
    private let buffer = RegisterBuffer(capacity: 8)
    private var lsbPerGauss = 440.0
    private var written: (UInt8, UInt8) = (0, 0)   // configuration A, B
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
            // No reset command: configuration A and B are written anew, then the first measurement triggered.
            let scale = RangeChoice.pick(options.magRangeMicroTesla, from: HMC5883LConversion.scales)
            let rate = RateChoice.pick(rateHz, from: HMC5883LConversion.pollRates)
            let a = HMC5883LConversion.configA(rateHz: rate.hz)
            written = (a.value, scale.value.code << 5)
            try io.writeVerified(address, R.configA, written.0)
            try io.writeVerified(address, R.configB, written.1)
            try io.write(address, R.mode, R.single)
            lsbPerGauss = scale.value.lsbPerGauss
            magSettings = MagnetometerSettings(
                rangeMicroTesla: scale.range, rateHz: rate.hz,
                notes: ["HMC5883L single measurements at \(IMUDriver.text(rate.hz)) Hz, \(a.averaged) sample\(a.averaged == 1 ? "" : "s") averaged, "
                        + "±\(IMUDriver.text(scale.range / 100)) Ga"])
            return .next(afterSeconds: HMC5883LConversion.measurementSeconds(averaged: a.averaged))
        default:
            return .done
        }
    }

    /// Mode register (idle = done); then six bytes X, Z, Y (big-endian; −4096 is an
    /// overflow) and the trigger of the next measurement.
    func readMagnetometer() throws(I2CError) -> MagneticRead {
        typealias R = HMC5883LRegister
        let mode = try bus.readByte(address: address, register: R.mode)
        guard mode & R.modeMask != R.single else { return .notReady }
        try bus.read(address: address, register: R.dataXMSB, into: buffer.prefix(6))
        try bus.writeByte(address: address, register: R.mode, R.single)
        let b = buffer
        let raw = (b.bigEndianInt16(at: 0), b.bigEndianInt16(at: 4), b.bigEndianInt16(at: 2))
        let o = R.overflowValue
        guard raw.0 != o, raw.1 != o, raw.2 != o else { return .overflow }
        return .sample(HMC5883LConversion.magnetic(raw: raw, lsbPerGauss: lsbPerGauss))
    }

    /// Configuration A and B return to 0x10 and 0x20 on a power cycle.
    func magnetometerConfigurationIntact() throws(I2CError) -> Bool {
        try bus.read(address: address, register: HMC5883LRegister.configA, into: buffer.prefix(2))
        return buffer[0] == written.0 && buffer[1] == written.1
    }
}
