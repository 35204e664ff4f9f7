import MotionMath

/// An accelerometer/gyroscope chip without a magnetometer of its own (MPU-6050,
/// LSM6DSOX family, ICM-42688-P): half of a composite IMU.
protocol InertialChip: AnyObject {
    /// E.g. `MPU-6050`.
    var model: String { get }
    /// E.g. `MPU-6050 at 0x68`.
    var placement: String { get }
    var maxRateHz: Int { get }
    /// Valid after bring-up; the magnetometer fields are unused.
    var settings: ChipSettings { get }

    /// Identity, reset, ranges, ODR and filter for `rateHz`. Phase 0 first.
    func bringUpInertial(phase: Int, rateHz: Int) throws(IMUError) -> PhaseResult
    func readInertial() throws(I2CError) -> InertialRead
    func inertialConfigurationIntact() throws(I2CError) -> Bool
}

/// What a magnetometer chip was configured to.
struct MagnetometerSettings {
    var rangeMicroTesla: Double
    var rateHz: Double
    var notes: [String]

    /// Nothing configured yet (before bring-up).
    static let unset = MagnetometerSettings(rangeMicroTesla: 0, rateHz: 0, notes: [])
}

/// A magnetometer chip on its own (HMC5883L, QMC5883L, LIS3MDL): the other half.
/// `readMagnetometer` returns the field in the magnetometer's OWN axes.
protocol MagnetometerChip: AnyObject {
    /// E.g. `QMC5883L`.
    var model: String { get }
    /// E.g. `QMC5883L at 0x0D`.
    var placement: String { get }
    /// Valid after bring-up.
    var magSettings: MagnetometerSettings { get }

    /// Identity, reset, range and continuous mode at the output data rate for ticks at
    /// `rateHz` (the smallest rate at or above it, else the fastest). Phase 0 first.
    func bringUpMagnetometer(phase: Int, rateHz: Int) throws(IMUError) -> PhaseResult
    func readMagnetometer() throws(I2CError) -> MagneticRead
    func magnetometerConfigurationIntact() throws(I2CError) -> Bool
}

/// Picks a chip's output data rate for ticks at `rateHz`: the slowest at or above it,
/// else the fastest.
enum RateChoice {
    static func pick<T>(_ rateHz: Int, from options: [(hz: Double, value: T)]) -> (hz: Double, value: T) {
        let sorted = options.sorted { $0.hz < $1.hz }
        return sorted.first { $0.hz >= Double(rateHz) - 1e-9 } ?? sorted[sorted.count - 1]
    }
}
