import MotionMath

/// One accelerometer + gyroscope sample in the CHIP frame, in physical units: specific
/// force in g (what the chip measures: +1 on the up axis at rest) and angular rate in rad/s.
struct InertialSample {
    var specificForce: Vector3
    var rate: Vector3
    /// The chip's own fusion output of the same burst (BNO055 NDOF), chip frame; nil when
    /// the chip runs no fusion.
    var fusion: ChipFusionSample? = nil
}

/// A chip's own fusion output, in the CHIP frame as its registers hold it.
struct ChipFusionSample {
    /// Chip → East-North-Up (magnetic north), as read: not normalised, so a fusion that has
    /// not started (all zeros) shows in its norm.
    var attitude: Quaternion
    /// Gravity as the accelerometer measures it, g: +1 on the up axis (specific-force sign).
    var gravity: Vector3
    /// Linear acceleration (specific force minus gravity), g, specific-force sign.
    var linearAcceleration: Vector3
}

/// The result of one accelerometer/gyroscope burst read.
enum InertialRead {
    case sample(InertialSample)
    /// The read-back configuration is not what was written: the chip was reset.
    case configurationLost
}

/// The result of one magnetometer burst read.
enum MagneticRead {
    /// Field in µT, already turned into the accelerometer/gyroscope chip frame.
    case sample(Vector3)
    /// No new sample since the last read (data-ready clear).
    case notReady
    /// The chip flagged magnetic overflow: the sample is not valid and is discarded.
    case overflow
}

/// Progress of a set-up procedure run in phases, so waits (after a reset, a mode change)
/// can be slept at start and spread over ticks during recovery.
enum PhaseResult: Equatable {
    case next(afterSeconds: Double)
    case done
}

/// What the chip was configured to: ranges and rates, for `SensorInfo` and the metadata.
struct ChipSettings {
    var accelRangeG: Double
    var gyroRangeDegPerSec: Double
    var magRangeMicroTesla: Double
    var accelRateHz: Double
    var gyroRateHz: Double
    var magRateHz: Double
    var notes: [String]

    /// Nothing configured yet (before bring-up); `magRateHz` where a chip states it up front.
    static func unset(magRateHz: Double = 0) -> ChipSettings {
        ChipSettings(accelRangeG: 0, gyroRangeDegPerSec: 0, magRangeMicroTesla: 0,
                     accelRateHz: 0, gyroRateHz: 0, magRateHz: magRateHz, notes: [])
    }
}

/// A chip family behind the generic `IMUDriver`: register-level bring-up, burst reads and
/// conversion to physical units. The driver owns retries, gaps, recovery and mounting.
protocol IMUChip: AnyObject {
    /// E.g. `MPU-9250`.
    var model: String { get }
    /// E.g. `MPU-9250 (AK8963 magnetometer) at 0x68 on /dev/i2c-1`.
    var placement: String { get }
    var maxRateHz: Int { get }
    /// Transfers that failed during bring-up (the driver adds them to `busErrors`).
    var failures: FailureCounter { get }
    /// Valid after bring-up.
    var settings: ChipSettings { get }

    /// Identity, reset, ranges, ODR and filter for `rateHz`. Phase 0 first.
    func bringUpInertial(phase: Int, rateHz: Int) throws(IMUError) -> PhaseResult
    /// Magnetometer identity, reset and continuous mode (after the inertial part is up).
    func bringUpMagnetometer(phase: Int) throws(IMUError) -> PhaseResult
    /// One burst read of accelerometer and gyroscope.
    func readInertial() throws(I2CError) -> InertialRead
    /// One burst read of the magnetometer (status, data and the status that ends the read).
    func readMagnetometer() throws(I2CError) -> MagneticRead
    /// Reads back the accelerometer/gyroscope configuration; false when it is not what was written.
    func inertialConfigurationIntact() throws(I2CError) -> Bool
    /// Reads back the magnetometer mode; false when it is not what was written.
    func magnetometerConfigurationIntact() throws(I2CError) -> Bool
    /// False for an accelerometer/gyroscope chip used without a magnetometer (no M rows).
    var hasMagnetometer: Bool { get }
    /// True when the magnetometer is a chip of its own: it goes on through the other
    /// chip's gaps and is not part of its re-initialisation.
    var magnetometerIndependent: Bool { get }
    /// With `IMUOptions.chipFusion`: what computes the fusion output of `readInertial`
    /// (chip, mode, calibration status at start), for the metadata. Valid after bring-up.
    var fusionInfo: [String: String]? { get }
}

extension IMUChip {
    var hasMagnetometer: Bool { true }
    var magnetometerIndependent: Bool { false }
    var fusionInfo: [String: String]? { nil }
}
