import MotionMath

/// Every LSM9DS1 scale, rate and axis fact the driver uses, in one place. Sensitivities
/// from datasheet Table 3 (§2.1, sensor characteristics).
enum LSM9DS1Conversion {
    /// FS_XL code and sensitivity, mg per LSB. Note the code order: 00 ±2, 10 ±4, 11 ±8, 01 ±16.
    static let accelScales: [(range: Double, value: (code: UInt8, mgPerLSB: Double))] = [
        (2, (0, 0.061)), (4, (2, 0.122)), (8, (3, 0.244)), (16, (1, 0.732)),
    ]
    /// FS_G code and sensitivity, m°/s per LSB (code 10 is not available).
    static let gyroScales: [(range: Double, value: (code: UInt8, mdpsPerLSB: Double))] = [
        (245, (0, 8.75)), (500, (1, 17.5)), (2000, (3, 70)),
    ]
    /// Magnetometer FS code and sensitivity, mgauss per LSB (1 gauss = 100 µT).
    static let magScales: [(range: Double, value: (code: UInt8, mgaussPerLSB: Double))] = [
        (400, (0, 0.14)), (800, (1, 0.29)), (1200, (2, 0.43)), (1600, (3, 0.58)),
    ]
    /// ODR_G code and rate with the gyroscope on (§7.12, Table 46), slowest first.
    static let rates: [(code: UInt8, hz: Double)] = [
        (1, 14.9), (2, 59.5), (3, 119), (4, 238), (5, 476), (6, 952),
    ]
    /// Gyroscope low-pass cutoff with BW_G = 11 per ODR code (Table 47).
    static let gyroCutoffHz: [UInt8: Double] = [1: 14.9, 2: 16, 3: 31, 4: 78, 5: 100, 6: 100]
    static let magRateHz = 80.0

    static func rate(atLeast rateHz: Int) -> (code: UInt8, hz: Double)? {
        rates.first { $0.hz >= Double(rateHz) }
    }

    static func inertial(accel: (Int16, Int16, Int16), gyro: (Int16, Int16, Int16),
                         mgPerLSB: Double, mdpsPerLSB: Double) -> InertialSample {
        let gPerLSB = mgPerLSB / 1000
        let radPerLSB = mdpsPerLSB / 1000 * Double.pi / 180
        return InertialSample(specificForce: Vector3(Double(accel.0), Double(accel.1), Double(accel.2)) * gPerLSB,
                              rate: Vector3(Double(gyro.0), Double(gyro.1), Double(gyro.2)) * radPerLSB)
    }

    /// True when an axis sits at the 16-bit limit: the LSM9DS1 has no overflow flag in its
    /// data path, so a saturated word is the only sign the field exceeded the range.
    static func saturated(_ raw: (Int16, Int16, Int16)) -> Bool {
        [raw.0, raw.1, raw.2].contains { $0 == .max || $0 == .min }
    }

    /// Magnetometer raw counts (its own axes) → µT in the accelerometer/gyroscope frame.
    /// The magnetometer's X axis points opposite to the accelerometer's; Y and Z agree
    /// (datasheet Figure 1, as confirmed by users on hardware — see docs/IMU.md).
    static func magnetic(raw: (Int16, Int16, Int16), mgaussPerLSB: Double) -> Vector3 {
        let microTeslaPerLSB = mgaussPerLSB / 10
        return Vector3(-Double(raw.0), Double(raw.1), Double(raw.2)) * microTeslaPerLSB
    }
}
