import MotionMath

/// One tick of the fixed-rate scheduler.
public struct Tick: Sendable, Equatable {
    /// 0 for the first tick of a recording.
    public var index: Int64
    /// The tick's ideal time on the monotonic clock, nanoseconds.
    public var monotonicNanos: Int64
    /// The tick's When: epoch seconds (ideal tick time through the start anchor).
    public var when: Double
    /// Seconds since the first tick (index / rate).
    public var elapsed: Double
    /// Epoch seconds of the tick's ideal time, whatever the When mode.
    public var epoch: Double

    public init(index: Int64, monotonicNanos: Int64, when: Double, elapsed: Double, epoch: Double? = nil) {
        self.index = index; self.monotonicNanos = monotonicNanos; self.when = when; self.elapsed = elapsed
        self.epoch = epoch ?? when
    }
}

/// What a sensor tells the metadata about itself: model, ranges and rates.
public struct SensorInfo: Sendable, Codable, Equatable {
    public var model: String
    public var accelRangeG: Double?
    public var gyroRangeDegPerSec: Double?
    public var magRangeMicroTesla: Double?
    /// Rates in Hz at which each sensor produces new data (the magnetometer is often slower).
    public var accelRateHz: Double?
    public var gyroRateHz: Double?
    public var magRateHz: Double?
    public var notes: [String]

    public init(model: String, accelRangeG: Double? = nil, gyroRangeDegPerSec: Double? = nil,
                magRangeMicroTesla: Double? = nil, accelRateHz: Double? = nil, gyroRateHz: Double? = nil,
                magRateHz: Double? = nil, notes: [String] = []) {
        self.model = model; self.accelRangeG = accelRangeG; self.gyroRangeDegPerSec = gyroRangeDegPerSec
        self.magRangeMicroTesla = magRangeMicroTesla; self.accelRateHz = accelRateHz
        self.gyroRateHz = gyroRateHz; self.magRateHz = magRateHz; self.notes = notes
    }
}

/// Counters a sensor keeps about trouble it handled by itself (for the metadata and status).
public struct SensorHealth: Sendable, Codable, Equatable {
    /// Bus errors seen (each failed transfer, including ones a retry recovered).
    public var busErrors: Int = 0
    /// Ticks for which the IMU delivered no accel/gyro sample because of errors (a counted gap).
    public var gapTicks: Int = 0
    /// Times the chip was re-initialised after persistent errors.
    public var reinitializations: Int = 0
    /// Magnetometer reads that found no new data (data-not-ready).
    public var magNotReady: Int = 0
    /// Magnetometer samples discarded because the chip flagged overflow.
    public var magOverflow: Int = 0
    /// Magnetometer samples missed because the magnetometer failed (bus errors, NACK,
    /// restarts), one per magnetometer period; a separate magnetometer chip counts its
    /// own gaps here while the accelerometer/gyroscope goes on.
    public var magGapTicks: Int = 0
    /// Ticks with accelerometer and gyroscope data but no D row because the chip's own
    /// fusion (`--device-motion chip`) had no valid output yet (not a unit quaternion:
    /// the fusion had not started, or the chip was reset).
    public var fusionNotReady: Int = 0

    public init() {}
}

extension SensorHealth {
    private enum CodingKeys: String, CodingKey {
        case busErrors, gapTicks, reinitializations, magNotReady, magOverflow, magGapTicks, fusionNotReady
    }

    /// Metadata written before `magGapTicks` or `fusionNotReady` existed still reads (as 0).
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        busErrors = try c.decode(Int.self, forKey: .busErrors)
        gapTicks = try c.decode(Int.self, forKey: .gapTicks)
        reinitializations = try c.decode(Int.self, forKey: .reinitializations)
        magNotReady = try c.decode(Int.self, forKey: .magNotReady)
        magOverflow = try c.decode(Int.self, forKey: .magOverflow)
        magGapTicks = try c.decodeIfPresent(Int.self, forKey: .magGapTicks) ?? 0
        fusionNotReady = try c.decodeIfPresent(Int.self, forKey: .fusionNotReady) ?? 0
    }
}

/// An IMU as the sampling thread sees it. Implementations: the simulator's ideal sensor,
/// and the chip drivers (MPU-9250, ICM-20948, LSM9DS1) over real or fake I2C.
///
/// Called on the sampling thread only, in this order: `start`, then `read` once per tick.
/// `read` must not block for long and never throws: transient errors are retried within the
/// tick, persistent ones handled (re-initialisation with backoff) and counted in `health`;
/// a sample that could not be read is returned as nil, never invented.
public protocol MotionSensor: AnyObject {
    var info: SensorInfo { get }
    var health: SensorHealth { get }
    /// Prepares the sensor for ticks at `rateHz`. Throws when the sensor cannot be used at all.
    func start(rateHz: Int) throws
    func read(at tick: Tick) -> MotionReading
    /// When the sensor delivers its chip's own fusion (`MotionReading.chipFusion`): what
    /// computes it (chip, mode, calibration status at start), for the metadata's
    /// `recording.deviceMotion`. Valid after `start`; nil for sensors without one.
    var chipFusionInfo: [String: String]? { get }
    /// Whether the sensor gives M rows at all, known before `start` (nil: not known).
    var hasMagnetometer: Bool? { get }
}

extension MotionSensor {
    public var chipFusionInfo: [String: String]? { nil }
    public var hasMagnetometer: Bool? { nil }
}

/// Counters a location source keeps (for the metadata and status).
public struct LocationHealth: Sendable, Codable, Equatable {
    /// Fixes received whose time went backwards (dropped).
    public var backwardsFixes: Int = 0
    /// Times the connection to the GPS source was lost.
    public var disconnects: Int = 0
    /// Last fix mode seen (0 unknown, 1 no fix, 2, 3).
    public var lastMode: Int = 0
    /// Fix-mode changes seen.
    public var modeChanges: Int = 0
    /// Sessions in which the GPS source answered (gpsd: its reply to the watch request or a
    /// report), and connection attempts that failed. Nil where the source does not count
    /// them (the simulator) or in metadata written before they were kept: a summary can
    /// then tell "gpsd never answered" from "the receiver never had a fix".
    public var sessions: Int?
    public var failedAttempts: Int?
    /// Receivers in gpsd's last device list (nil: unknown): 0 is a gpsd without a GPS.
    public var receivers: Int?
    /// Whether a session with the source is open and answering now (nil: the source has no
    /// connection, or metadata from before it was kept). `lastMode` is reset when it ends.
    public var connected: Bool?

    public init() {}

    /// How a live status shows the GPS: `no gpsd` (not answering now, after failed attempts
    /// or a lost session), `no receiver` (gpsd answered with an empty device list), `no fix`,
    /// `2D fix`, `3D fix`; nil while nothing is known yet.
    public var statusText: String? {
        if connected == false && ((failedAttempts ?? 0) > 0 || disconnects > 0) { return "no gpsd" }
        if lastMode >= 3 { return "3D fix" }
        if lastMode == 2 { return "2D fix" }
        if lastMode == 1 { return "no fix" }
        if (sessions ?? 0) > 0 && receivers == 0 { return "no receiver" }
        return nil
    }
}

/// A source of GPS fixes (`L` rows). The simulator's scripted route and the gpsd client.
///
/// `poll` is called on the sampling thread once per tick; it hands over every fix that
/// is complete by then (a fix time is complete once a newer one arrived or its hold-off
/// expired) and must not block. `finish` is called once at stop and hands over the rest.
public protocol LocationSource: AnyObject {
    var health: LocationHealth { get }
    func start()
    func poll(at tick: Tick, _ emit: (LocationFix) -> Void)
    func finish(_ emit: (LocationFix) -> Void)
}

/// Where the recorder's `D` rows come from, tick by tick: motionlog's own fusion of the
/// tick's A/G/M (`DeviceMotionEstimator`), or the IMU chip's own fusion passed through
/// (`MotionFusion.ChipFusionDeviceMotion`). Implemented by the fusion module.
public protocol DeviceMotionProvider: AnyObject {
    /// A short description for the metadata (`source`, algorithm, parameters, calibration used).
    var info: [String: String] { get }
    /// The calibration applied, as numbers (nil when the provider applies none it can tell).
    var calibrationRecord: CalibrationRecord? { get }
    /// The D row for one tick's reading, or nil when there is none (no accelerometer and
    /// gyroscope sample, or no valid chip fusion output): a D row is never invented.
    /// `dt`: seconds since the previous tick that had one.
    func deviceMotion(for reading: MotionReading, dt: Double) -> DeviceMotion?
    /// A GPS fix was recorded, taken `age` seconds before the reading of the last
    /// `deviceMotion(for:dt:)` call (both times on the recording's When clock). Estimators
    /// that take the vehicle's own acceleration out use its ground velocity; others ignore it.
    func observe(_ fix: LocationFix, age: Double)
}

/// Computes device motion (`D` rows) from one tick's accelerometer, gyroscope and
/// (optional) magnetometer. Implemented by the fusion module.
public protocol DeviceMotionEstimator: DeviceMotionProvider {
    /// `accel` in g with CoreMotion signs, `gyro` rad/s, `mag` µT or nil; `dt` seconds since
    /// the previous update (the measured sample period).
    func update(accel: Vector3, gyro: Vector3, mag: Vector3?, dt: Double) -> DeviceMotion
}

extension DeviceMotionProvider {
    public var calibrationRecord: CalibrationRecord? { nil }
    public func observe(_ fix: LocationFix, age: Double) {}
}

extension DeviceMotionEstimator {
    /// A D row for every tick with accelerometer and gyroscope data.
    public func deviceMotion(for reading: MotionReading, dt: Double) -> DeviceMotion? {
        guard let a = reading.accel, let g = reading.gyro else { return nil }
        return update(accel: a, gyro: g, mag: reading.mag, dt: dt)
    }
}

/// Where D rows come from, as `--device-motion` and the config's `device_motion:` say.
public enum DeviceMotionOrigin: String, Sendable, CaseIterable, CustomStringConvertible {
    /// motionlog's own fusion of A, G and M (the default).
    case motionlog
    /// The IMU chip's own fusion (BNO055 NDOF mode); refused for chips without one.
    case chip

    /// The accepted spellings, for help texts and errors.
    public static let help = "motionlog (its own fusion of A/G/M, the default) or chip (the IMU's own fusion: BNO055)"
    public var description: String { rawValue }
}
