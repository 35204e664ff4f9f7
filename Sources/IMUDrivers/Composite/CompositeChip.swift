import MotionCore
import MotionMath

/// An accelerometer/gyroscope chip and (optionally) a separate magnetometer chip on the
/// same bus, each at its own address and mounted its own way, read in the same tick as
/// one IMU (a GY-87, a GY-521 + GY-271, Adafruit's LSM6DSOX + LIS3MDL).
///
/// The magnetometer is independent: while the accelerometer/gyroscope chip has a gap or
/// is being re-initialised, the magnetometer goes on (its own failures are restarted by
/// the driver's magnetometer path, counted apart in `magGapTicks`).
final class CompositeChip: IMUChip {
    let inertial: InertialChip
    let magnetometer: MagnetometerChip?
    let failures: FailureCounter
    /// Magnetometer axes → accelerometer/gyroscope chip axes (`inertialMount⁻¹ · magMount`):
    /// the driver then applies the accelerometer/gyroscope chip's mount to both.
    private let magToInertial: (mag: MountOrientation, inertial: MountOrientation)
    private var rateHz = RecorderConfiguration.defaultRateHz

    init(inertial: InertialChip, magnetometer: MagnetometerChip?, failures: FailureCounter, options: IMUOptions) {
        self.inertial = inertial
        self.magnetometer = magnetometer
        self.failures = failures
        magToInertial = (options.magMount ?? options.mount, options.mount)
    }

    /// The accelerometer/gyroscope chip: the driver's gap and re-initialisation messages are about it.
    var model: String { inertial.model }
    var placement: String { inertial.placement + (magnetometer.map { " + " + $0.placement } ?? "") }
    var maxRateHz: Int { inertial.maxRateHz }
    var hasMagnetometer: Bool { magnetometer != nil }
    var magnetometerIndependent: Bool { true }

    /// Both chips' settings, merged once after each bring-up (the driver reads them every tick).
    private(set) var settings = ChipSettings.unset()

    private func mergeSettings() {
        var s = inertial.settings
        if let m = magnetometer?.magSettings {
            s.magRangeMicroTesla = m.rangeMicroTesla
            s.magRateHz = m.rateHz
            s.notes += m.notes
            if magToInertial.mag != magToInertial.inertial { s.notes.append("magnetometer mount \(magToInertial.mag)") }
        }
        settings = s
    }

    func bringUpInertial(phase: Int, rateHz: Int) throws(IMUError) -> PhaseResult {
        self.rateHz = rateHz
        let result = try inertial.bringUpInertial(phase: phase, rateHz: rateHz)
        if result == .done { mergeSettings() }
        return result
    }

    func bringUpMagnetometer(phase: Int) throws(IMUError) -> PhaseResult {
        guard let magnetometer else { return .done }
        let result = try magnetometer.bringUpMagnetometer(phase: phase, rateHz: rateHz)
        if result == .done { mergeSettings() }
        return result
    }

    func readInertial() throws(I2CError) -> InertialRead { try inertial.readInertial() }

    func readMagnetometer() throws(I2CError) -> MagneticRead {
        guard let magnetometer else { return .notReady }
        switch try magnetometer.readMagnetometer() {
        case .sample(let field):
            // Axis permutations and sign flips only: exact, no allocation.
            return .sample(magToInertial.inertial.toChip(magToInertial.mag.toDevice(field)))
        case let other:
            return other
        }
    }

    func inertialConfigurationIntact() throws(I2CError) -> Bool { try inertial.inertialConfigurationIntact() }

    func magnetometerConfigurationIntact() throws(I2CError) -> Bool {
        try magnetometer?.magnetometerConfigurationIntact() ?? true
    }
}
