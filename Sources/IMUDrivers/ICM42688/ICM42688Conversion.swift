import MotionMath

/// Every ICM-42688-P scale and rate the driver uses, in one place (DS-000347 Table 1
/// gyroscope and Table 2 accelerometer sensitivity, §15.20–15.21 ODR codes).
enum ICM42688Conversion {
    static let accelScales: [(range: Double, value: (code: UInt8, lsbPerG: Double))] = [
        (2, (3, 16384)), (4, (2, 8192)), (8, (1, 4096)), (16, (0, 2048)),
    ]
    static let gyroScales: [(range: Double, value: (code: UInt8, lsbPerDps: Double))] = [
        (15.625, (7, 2097.2)), (31.25, (6, 1048.6)), (62.5, (5, 524.3)), (125, (4, 262)),
        (250, (3, 131)), (500, (2, 65.5)), (1000, (1, 32.8)), (2000, (0, 16.4)),
    ]
    /// ODR code → Hz (low-noise mode; both sensors).
    static let rates: [(hz: Double, value: UInt8)] = [
        (12.5, 11), (25, 10), (50, 9), (100, 8), (200, 7), (500, 15), (1000, 6), (2000, 5), (4000, 4), (8000, 3),
        (16000, 2), (32000, 1),
    ]
    static let maxRateHz = 8000

    /// Raw counts → physical units, chip frame (the InvenSense arithmetic).
    static func inertial(accel: (Int16, Int16, Int16), gyro: (Int16, Int16, Int16),
                         lsbPerG: Double, lsbPerDps: Double) -> InertialSample {
        MPU9250Conversion.inertial(accel: accel, gyro: gyro, lsbPerG: lsbPerG, lsbPerDps: lsbPerDps)
    }
}
