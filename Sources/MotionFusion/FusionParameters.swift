/// Tuning of the orientation filter. Every value is independent of the sample rate (the
/// filter works with the measured sample period). Defaults are the published VQF
/// parameters (Laidig & Seel, Information Fusion 2023), chosen by its authors on all of
/// BROAD; the two additions beyond VQF are off by default (see each).
public struct FusionParameters: Sendable, Equatable {
    /// Time constant of the accelerometer low-pass filter in the almost-inertial frame,
    /// seconds. Larger trusts the gyroscope more (less sensitive to bumps, braking, turns).
    public var accelTimeConstant: Double = 3.0
    /// Time constant of the magnetometer heading correction, seconds.
    public var magTimeConstant: Double = 9.0
    /// Use the magnetometer for heading when samples are given. When false (or when no
    /// sample ever arrives) yaw starts at 0 and is kept by the gyroscope alone.
    public var useMagnetometer = true
    /// Magnetic declination in radians (east positive). When set, yaw is referenced to true
    /// north instead of magnetic north.
    public var declination: Double?

    // Gyroscope bias estimation (Kalman filter on the bias).
    /// Estimate the bias while moving, from the inclination correction.
    public var motionBiasEstimation = true
    /// Detect rest and estimate the bias from the resting gyroscope.
    public var restBiasEstimation = true
    /// Standard deviation of the initial bias uncertainty, rad/s (0.5 °/s).
    public var biasSigmaInitial: Double = 0.5 * deg
    /// Seconds in which the bias uncertainty grows from 0 to 0.1 °/s (the bias random walk).
    public var biasForgettingTime: Double = 100
    /// Largest bias expected, rad/s (2 °/s): clips the estimate and each correction.
    public var biasClip: Double = 2 * deg
    /// Converged bias uncertainty while moving, rad/s (0.1 °/s).
    public var biasSigmaMotion: Double = 0.1 * deg
    /// Relative weight of the artificial zero measurement of the unobservable vertical bias.
    public var biasVerticalForgettingFactor: Double = 0.0001
    /// Converged bias uncertainty at rest, rad/s (0.03 °/s).
    public var biasSigmaRest: Double = 0.03 * deg

    // Rest detection.
    /// Seconds within the thresholds before rest is declared.
    public var restMinTime: Double = 1.5
    /// Time constant of the low-pass reference of the rest detector, seconds.
    public var restFilterTimeConstant: Double = 0.5
    /// Gyroscope deviation threshold, rad/s (2 °/s).
    public var restGyroThreshold: Double = 2 * deg
    /// Accelerometer deviation threshold, g (0.5 m/s²).
    public var restAccelThreshold: Double = 0.5 / gravityMetresPerSecond2

    // Magnetic disturbance detection and rejection.
    /// Detect magnetic disturbances (field norm and dip angle against a learned reference)
    /// and stop or slow the heading correction while they last.
    public var magDisturbanceRejection = true
    /// Time constant of the current norm/dip low-pass, seconds (≤ 0 disables it).
    public var magCurrentTimeConstant: Double = 0.05
    /// Time constant with which the reference follows the undisturbed field, seconds.
    public var magReferenceTimeConstant: Double = 20
    /// Relative norm difference regarded as a disturbance.
    public var magNormThreshold: Double = 0.1
    /// Dip angle difference regarded as a disturbance, radians (10°).
    public var magDipThreshold: Double = 10 * deg
    /// Seconds of consistent field while rotating after which a new field is accepted.
    public var magNewTime: Double = 20
    /// The same, when no reference exists yet.
    public var magNewFirstTime: Double = 5
    /// Rotation rate needed for that time to count, rad/s (20 °/s).
    public var magNewMinGyro: Double = 20 * deg
    /// Seconds within the thresholds after which the field counts as undisturbed again.
    public var magMinUndisturbedTime: Double = 0.5
    /// Longest full rejection (no heading correction), seconds.
    public var magMaxRejectionTime: Double = 60
    /// After the longest rejection, the heading correction is this many times slower.
    public var magRejectionFactor: Double = 2

    /// Acceleration rejection: the part of a specific-force sample that differs from the
    /// estimated gravity by more than this (g) is clipped before the low-pass filter.
    /// Off (0) by default, as in VQF: the low-pass in the almost-inertial frame already
    /// averages out accelerations that come and go (pedal strokes, cobbles, braking), while
    /// clipping biases that average whenever the accelerations are large — the vector sum of
    /// clipped samples no longer points up — and slows every correction tenfold when the
    /// device moves fast. On BROAD's fast translation trials (up to 5 g) 0.1 g made the
    /// error four times VQF's (docs/FUSION.md).
    public var accelRejectionThreshold: Double = 0
    /// Seconds at the start over which the field's norm and dip are averaged into a
    /// provisional reference for disturbance detection, confirmed once the field stays
    /// consistent with it through `magProvisionalConfirmAngle` of rotation. Off (0) by
    /// default, as in VQF: on BROAD it helped some magnet trials and hurt others as much
    /// (a field that stays consistent through a slow 90° turn is not proof that it is
    /// Earth's), so the first reference is found as VQF finds it, by fast rotation.
    public var magProvisionalReferenceTime: Double = 0
    /// Rotation (radians) through which the field must stay consistent with the
    /// provisional reference to confirm it.
    public var magProvisionalConfirmAngle: Double = 90 * deg

    /// Velocity-aided inclination: when GPS fixes with ground speed and course are given
    /// (`L` rows), the vehicle's own acceleration — the change of its GPS velocity between
    /// two fixes — is taken out of the accelerometer's mean over the same interval, and that
    /// mean steers the inclination instead of every raw sample (docs/FUSION.md). A bike's
    /// braking, pulling away and leaning turns then no longer tilt the estimate. Needs the
    /// magnetometer's heading (to turn GPS directions into the filter's frame); without
    /// fixes or heading the filter works as without it.
    public var groundVelocityAiding = true

    /// A gap between samples longer than this (seconds) restarts the attitude from the
    /// accelerometer and magnetometer (the bias estimate and field reference are kept).
    public var maxGap: Double = 1.0

    public init() {}

    /// The tunable numbers by name (for `motionlog fuse --parameter NAME=VALUE`).
    public static var numericNames: [String: WritableKeyPath<FusionParameters, Double>] { [
        "accelTimeConstant": \.accelTimeConstant, "magTimeConstant": \.magTimeConstant,
        "biasSigmaInitial": \.biasSigmaInitial, "biasForgettingTime": \.biasForgettingTime, "biasClip": \.biasClip,
        "biasSigmaMotion": \.biasSigmaMotion, "biasVerticalForgettingFactor": \.biasVerticalForgettingFactor,
        "biasSigmaRest": \.biasSigmaRest, "restMinTime": \.restMinTime,
        "restFilterTimeConstant": \.restFilterTimeConstant, "restGyroThreshold": \.restGyroThreshold,
        "restAccelThreshold": \.restAccelThreshold, "magCurrentTimeConstant": \.magCurrentTimeConstant,
        "magReferenceTimeConstant": \.magReferenceTimeConstant, "magNormThreshold": \.magNormThreshold,
        "magDipThreshold": \.magDipThreshold, "magNewTime": \.magNewTime, "magNewFirstTime": \.magNewFirstTime,
        "magNewMinGyro": \.magNewMinGyro, "magMinUndisturbedTime": \.magMinUndisturbedTime,
        "magMaxRejectionTime": \.magMaxRejectionTime, "magRejectionFactor": \.magRejectionFactor,
        "accelRejectionThreshold": \.accelRejectionThreshold,
        "magProvisionalReferenceTime": \.magProvisionalReferenceTime,
        "magProvisionalConfirmAngle": \.magProvisionalConfirmAngle, "maxGap": \.maxGap,
    ] }

    /// The switches by name.
    public static var flagNames: [String: WritableKeyPath<FusionParameters, Bool>] { [
        "motionBiasEstimation": \.motionBiasEstimation, "restBiasEstimation": \.restBiasEstimation,
        "magDisturbanceRejection": \.magDisturbanceRejection, "useMagnetometer": \.useMagnetometer,
        "groundVelocityAiding": \.groundVelocityAiding,
    ] }

    /// Sets one parameter from `NAME=VALUE` text (angles and rates in SI units: radians,
    /// rad/s); an error message when the name or value is not understood.
    public mutating func set(_ assignment: String) -> String? {
        let parts = assignment.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return "\"\(assignment)\": use NAME=VALUE" }
        if let path = Self.numericNames[parts[0]] {
            guard let v = Double(parts[1]), v.isFinite else { return "\(parts[0]): \"\(parts[1])\" is not a number" }
            self[keyPath: path] = v
            return nil
        }
        if let path = Self.flagNames[parts[0]] {
            guard let v = Bool(parts[1]) else { return "\(parts[0]): use true or false" }
            self[keyPath: path] = v
            return nil
        }
        let known = (Array(Self.numericNames.keys) + Array(Self.flagNames.keys)).sorted().joined(separator: ", ")
        return "unknown fusion parameter \"\(parts[0])\": known are \(known)"
    }

    /// One degree in radians.
    public static let degree = Double.pi / 180
    /// Standard gravity, m/s².
    public static let standardGravity = 9.80665

    /// Why these parameters cannot be used, or nil.
    public var problem: String? {
        let positive: [(String, Double)] = [
            ("accelTimeConstant", accelTimeConstant), ("magTimeConstant", magTimeConstant),
            ("biasSigmaInitial", biasSigmaInitial), ("biasForgettingTime", biasForgettingTime),
            ("biasClip", biasClip), ("biasSigmaMotion", biasSigmaMotion),
            ("biasVerticalForgettingFactor", biasVerticalForgettingFactor), ("biasSigmaRest", biasSigmaRest),
            ("restFilterTimeConstant", restFilterTimeConstant), ("restGyroThreshold", restGyroThreshold),
            ("restAccelThreshold", restAccelThreshold), ("magReferenceTimeConstant", magReferenceTimeConstant),
            ("magNormThreshold", magNormThreshold), ("magDipThreshold", magDipThreshold),
            ("magRejectionFactor", magRejectionFactor), ("maxGap", maxGap),
        ]
        if !(accelRejectionThreshold.isFinite && accelRejectionThreshold >= 0) {
            return "fusion parameter accelRejectionThreshold must be 0 (off) or positive (is \(accelRejectionThreshold))"
        }
        if !(magProvisionalReferenceTime.isFinite && magProvisionalReferenceTime >= 0) {
            return "fusion parameter magProvisionalReferenceTime must be 0 (off) or positive"
        }
        for (name, v) in positive where !(v.isFinite && v > 0) {
            return "fusion parameter \(name) must be a positive number (is \(v))"
        }
        if let d = declination, !(d.isFinite && abs(d) <= Double.pi) {
            return "declination must be within ±180° (is \(d) rad)"
        }
        return nil
    }
}

private let deg = Double.pi / 180
private let gravityMetresPerSecond2 = 9.80665
