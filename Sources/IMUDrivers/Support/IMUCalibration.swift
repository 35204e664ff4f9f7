import MotionMath

/// Calibration of an IMU, as read from the config file's `calibration:` section: pure data.
///
/// The drivers do NOT apply it: A, G and M rows stay raw, as CoreMotion's raw sensor data
/// is. Device motion (D rows) uses the calibrated values: the fusion module corrects
/// with `gyro − gyroBias`, `softIron · (mag − hardIron)` and `(accel − accelOffset) ⊙ accelScale`
/// (the helpers below), all in the DEVICE frame and the format's units.
public struct IMUCalibration: Sendable, Equatable {
    /// Gyroscope bias, rad/s, subtracted.
    public var gyroBias: Vector3
    /// Magnetometer hard-iron offset, µT, subtracted.
    public var magHardIron: Vector3
    /// Magnetometer soft-iron correction, applied after the hard-iron offset.
    public var magSoftIron: Matrix3
    /// Accelerometer offset, g (CoreMotion sign, like A rows), subtracted.
    public var accelOffset: Vector3
    /// Accelerometer per-axis scale, applied after the offset.
    public var accelScale: Vector3

    /// No correction at all.
    public static let none = IMUCalibration()

    public init(gyroBias: Vector3 = .zero, magHardIron: Vector3 = .zero, magSoftIron: Matrix3 = .identity,
                accelOffset: Vector3 = .zero, accelScale: Vector3 = Vector3(1, 1, 1)) {
        self.gyroBias = gyroBias; self.magHardIron = magHardIron; self.magSoftIron = magSoftIron
        self.accelOffset = accelOffset; self.accelScale = accelScale
    }

    /// Builds it from the config file's lists (each optional; a missing one means no
    /// correction). Throws, naming the key, when a list has the wrong shape.
    public static func from(gyroBias: [Double]?, magHardIron: [Double]?, magSoftIron: [[Double]]?,
                            accelOffset: [Double]?, accelScale: [Double]?) throws(CalibrationShapeError) -> IMUCalibration {
        func vector(_ v: [Double]?, _ key: String, _ fallback: Vector3) throws(CalibrationShapeError) -> Vector3 {
            guard let v else { return fallback }
            guard v.count == 3, v.allSatisfy(\.isFinite) else { throw CalibrationShapeError(key: key) }
            return Vector3(v[0], v[1], v[2])
        }
        var c = IMUCalibration()
        c.gyroBias = try vector(gyroBias, "gyro_bias", .zero)
        c.magHardIron = try vector(magHardIron, "mag_hard_iron", .zero)
        c.accelOffset = try vector(accelOffset, "accel_offset", .zero)
        c.accelScale = try vector(accelScale, "accel_scale", Vector3(1, 1, 1))
        if let m = magSoftIron {
            guard m.count == 3, m.allSatisfy({ $0.count == 3 && $0.allSatisfy(\.isFinite) }) else {
                throw CalibrationShapeError(key: "mag_soft_iron")
            }
            c.magSoftIron = Matrix3(rows: Vector3(m[0][0], m[0][1], m[0][2]), Vector3(m[1][0], m[1][1], m[1][2]),
                                    Vector3(m[2][0], m[2][1], m[2][2]))
        }
        return c
    }

    /// Bias-corrected rotation rate (what D rows carry).
    public func correctedGyro(_ g: Vector3) -> Vector3 { g - gyroBias }
    /// Hard- and soft-iron corrected field.
    public func correctedMag(_ m: Vector3) -> Vector3 { magSoftIron * (m - magHardIron) }
    /// Offset- and scale-corrected acceleration.
    public func correctedAccel(_ a: Vector3) -> Vector3 { (a - accelOffset).scaled(by: accelScale) }
}

/// A calibration list of the wrong shape (not three finite numbers, or not a 3×3 matrix).
public struct CalibrationShapeError: Error, Sendable, Equatable, CustomStringConvertible {
    public var key: String
    public init(key: String) { self.key = key }
    public var description: String { "calibration.\(key): expected \(key == "mag_soft_iron" ? "a 3×3 matrix of numbers" : "three numbers")" }
}
