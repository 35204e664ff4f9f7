import MotionMath

/// Sensor calibration the fusion applies before it uses a sample: pure data, filled from the
/// config file's `calibration:` section (written by `motionlog calibrate`). A/G/M rows stay
/// raw; only device motion (`D` rows) sees calibrated values.
///
/// - accelerometer (g, format sign): `A_cal = (A − accelOffset) ⊙ accelScale`
/// - gyroscope (rad/s): the filter starts its bias estimate at `gyroBias`
/// - magnetometer (µT): `M_cal = magSoftIron · (M − magHardIron)`
public struct FusionCalibration: Sendable, Equatable {
    /// Gyroscope bias, rad/s: the filter's initial bias estimate (it keeps estimating).
    public var gyroBias: Vector3
    /// Magnetometer hard-iron offset, µT, subtracted first.
    public var magHardIron: Vector3
    /// Magnetometer soft-iron correction, applied after the offset.
    public var magSoftIron: Matrix3
    /// Accelerometer offset, g (format sign), subtracted first.
    public var accelOffset: Vector3
    /// Accelerometer scale per axis, applied after the offset.
    public var accelScale: Vector3
    /// Where the values came from (for the metadata), e.g. `/etc/motionlog/config.yaml`.
    public var origin: String?

    public init(gyroBias: Vector3 = .zero, magHardIron: Vector3 = .zero, magSoftIron: Matrix3 = .identity,
                accelOffset: Vector3 = .zero, accelScale: Vector3 = Vector3(1, 1, 1), origin: String? = nil) {
        self.gyroBias = gyroBias; self.magHardIron = magHardIron; self.magSoftIron = magSoftIron
        self.accelOffset = accelOffset; self.accelScale = accelScale; self.origin = origin
    }

    /// No correction at all.
    public static let none = FusionCalibration()

    /// True when every value is the identity (nothing is corrected).
    public var isIdentity: Bool {
        gyroBias == .zero && magHardIron == .zero && magSoftIron == .identity
            && accelOffset == .zero && accelScale == Vector3(1, 1, 1)
    }

    /// The calibrated accelerometer sample (g, format sign).
    @inlinable public func accelerometer(_ a: Vector3) -> Vector3 { (a - accelOffset).scaled(by: accelScale) }

    /// The calibrated magnetometer sample (µT).
    @inlinable public func magnetometer(_ m: Vector3) -> Vector3 { magSoftIron * (m - magHardIron) }

    /// Why the calibration cannot be used (a non-finite number, a singular soft-iron matrix,
    /// a zero scale), or nil when it is usable.
    public var problem: String? {
        let vectors = [("gyro_bias", gyroBias), ("mag_hard_iron", magHardIron),
                       ("accel_offset", accelOffset), ("accel_scale", accelScale)]
        for (name, v) in vectors where !(v.x.isFinite && v.y.isFinite && v.z.isFinite) {
            return "calibration \(name) \(v) has a non-finite value: run `motionlog calibrate` again"
        }
        let s = magSoftIron
        for r in 0..<3 { for c in 0..<3 where !s[r, c].isFinite {
            return "calibration mag_soft_iron has a non-finite value: run `motionlog calibrate` again"
        } }
        if abs(s.determinant) < 1e-6 {
            return "calibration mag_soft_iron is singular (determinant \(s.determinant)): run `motionlog calibrate` again"
        }
        if accelScale.x == 0 || accelScale.y == 0 || accelScale.z == 0 {
            return "calibration accel_scale \(accelScale) has a zero: use 1 for an axis without a scale correction"
        }
        return nil
    }

    /// A one-line description for the metadata.
    public var summary: String {
        if isIdentity { return "none (raw accelerometer and magnetometer, gyro bias estimated from 0)" }
        func f(_ v: Vector3, _ digits: Int = 4) -> String {
            "[\(Self.round(v.x, digits)), \(Self.round(v.y, digits)), \(Self.round(v.z, digits))]"
        }
        let s = magSoftIron
        let soft = "[\(f(s.rows.0)), \(f(s.rows.1)), \(f(s.rows.2))]"
        var text = "gyro_bias \(f(gyroBias, 6)) rad/s; mag_hard_iron \(f(magHardIron, 3)) uT; mag_soft_iron \(soft); "
            + "accel_offset \(f(accelOffset)) g; accel_scale \(f(accelScale))"
        if let origin { text += " (from \(origin))" }
        return text
    }

    static func round(_ x: Double, _ digits: Int) -> Double {
        var p = 1.0
        for _ in 0..<digits { p *= 10 }
        return (x * p).rounded() / p
    }
}
