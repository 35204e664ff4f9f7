/// The QMC5883L magnetometer (most GY-271 modules sold today, many "HMC5883L" ones
/// included): status, then the six data bytes when DRDY is set.
final class QMC5883LChip: MagnetometerChip {
    let model = "QMC5883L"
    private let options: IMUOptions
    private var link: ChipLink
    private let buffer = RegisterBuffer(capacity: 8)
    private var lsbPerGauss = 3000.0
    private var control1: UInt8 = 0
    private(set) var magSettings = MagnetometerSettings.unset

    init(bus: I2CBus, options: IMUOptions, failures: FailureCounter) {
        self.options = options
        link = ChipLink(bus: bus, chip: "QMC5883L magnetometer", failures: failures,
                        configured: options.magAddress, defaults: [QMC5883LRegister.address])
    }

    var placement: String { "QMC5883L at \(Hex.byte(link.address))" }

    func bringUpMagnetometer(phase: Int, rateHz: Int) throws(IMUError) -> PhaseResult {
        typealias R = QMC5883LRegister
        switch phase {
        case 0:
            do {
                try link.locate(identityRegister: R.chipID, expected: [R.identity])
            } catch {
                throw MagnetometerLookAlike.check(error, bus: link.bus, instead: .qmc5883l)
            }
            try link.write(R.control2, R.softReset)
            return .next(afterSeconds: 0.01)
        case 1:
            let scale = RangeChoice.pick(options.magRangeMicroTesla, from: QMC5883LConversion.scales)
            let rate = RateChoice.pick(rateHz, from: QMC5883LConversion.rates)
            control1 = QMC5883LConversion.control1(rateCode: rate.value, rangeCode: scale.value.code)
            try link.writeVerified(R.setResetPeriod, R.setResetRecommended)
            try link.writeVerified(R.control1, control1)
            lsbPerGauss = scale.value.lsbPerGauss
            magSettings = MagnetometerSettings(
                rangeMicroTesla: scale.range, rateHz: rate.hz,
                notes: ["QMC5883L continuous \(IMUDriver.text(rate.hz)) Hz, ±\(IMUDriver.text(scale.range / 100)) G, OSR 512"])
            return .done
        default:
            return .done
        }
    }

    /// STATUS (one byte); when DRDY is set, X/Y/Z (six bytes, which clears DRDY).
    func readMagnetometer() throws(I2CError) -> MagneticRead {
        typealias R = QMC5883LRegister
        let status = try link.byte(R.status)
        guard status & R.dataReady != 0 else { return .notReady }
        try link.burst(R.dataXL, count: 6, into: buffer)
        guard status & R.overflow == 0 else { return .overflow }
        return .sample(QMC5883LConversion.magnetic(raw: buffer.littleEndianVector(at: 0), lsbPerGauss: lsbPerGauss))
    }

    /// Control 1 returns to 0 (standby) on a reset.
    func magnetometerConfigurationIntact() throws(I2CError) -> Bool {
        try link.byte(QMC5883LRegister.control1) == control1
    }
}

/// HMC5883L or QMC5883L: modules are sold under either name, so when the configured one
/// is absent, look for the other and say which to configure.
enum MagnetometerLookAlike {
    static func check(_ error: IMUError, bus: I2CBus, instead configured: MagnetometerModel) -> IMUError {
        guard case .notFound(let chip, let busName, _, _) = error else { return error }
        switch configured {
        case .hmc5883l:
            if (try? bus.readByte(address: QMC5883LRegister.address, register: QMC5883LRegister.chipID)) == QMC5883LRegister.identity {
                return .lookAlikeFound(chip: chip, bus: busName, found: "QMC5883L", address: QMC5883LRegister.address,
                                       use: "the qmc5883l magnetometer (e.g. mpu6050+qmc5883l)")
            }
        case .qmc5883l:
            if (try? bus.readByte(address: HMC5883LRegister.address, register: HMC5883LRegister.identityA)) == HMC5883LRegister.identity[0] {
                return .lookAlikeFound(chip: chip, bus: busName, found: "HMC5883L", address: HMC5883LRegister.address,
                                       use: "the hmc5883l magnetometer (e.g. mpu6050+hmc5883l)")
            }
        case .lis3mdl:
            break
        }
        return error
    }
}
