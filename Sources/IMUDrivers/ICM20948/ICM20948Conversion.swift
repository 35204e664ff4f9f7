import MotionMath

/// Every ICM-20948/AK09916 scale, rate, filter and axis fact the driver uses, in one place.
enum ICM20948Conversion {
    /// ACCEL_FS_SEL and sensitivity, LSB per g (datasheet §3.2, Table 2).
    static let accelScales: [(range: Double, value: (code: UInt8, lsbPerG: Double))] = [
        (2, (0, 16384)), (4, (1, 8192)), (8, (2, 4096)), (16, (3, 2048)),
    ]
    /// GYRO_FS_SEL and sensitivity, LSB per °/s (§3.1, Table 1).
    static let gyroScales: [(range: Double, value: (code: UInt8, lsbPerDps: Double))] = [
        (250, (0, 131)), (500, (1, 65.5)), (1000, (2, 32.8)), (2000, (3, 16.4)),
    ]
    static let gyroBaseRateHz = 1100.0
    static let accelBaseRateHz = 1125.0
    /// GYRO_DLPFCFG and 3-dB bandwidth (§10.2 table), widest first.
    static let gyroFilters: [(config: UInt8, hz: Double)] = [
        (7, 361.4), (0, 196.6), (1, 151.8), (2, 119.5), (3, 51.2), (4, 23.9), (5, 11.6), (6, 5.7),
    ]
    /// ACCEL_DLPFCFG and 3-dB bandwidth (§10.14 table), widest first.
    static let accelFilters: [(config: UInt8, hz: Double)] = [
        (7, 473), (0, 246), (2, 111.4), (3, 50.4), (4, 23.9), (5, 11.5), (6, 5.7),
    ]
    /// AK09916: 0.15 µT per LSB, ±4912 µT (AK09916C datasheet §6).
    static let magMicroTeslaPerLSB = 0.15
    static let magRangeMicroTesla = 4912.0
    static let magRateHz = 100.0

    /// The divider giving an output rate of at least `rateHz` from `base`.
    static func divider(base: Double, rateHz: Int, maximum: Int) -> Int {
        min(maximum, max(0, Int(base / Double(max(1, rateHz))) - 1))
    }

    /// The widest filter at or below half the output rate.
    static func filter(_ table: [(config: UInt8, hz: Double)], outputRateHz: Double) -> (config: UInt8, hz: Double) {
        table.first { $0.hz <= outputRateHz / 2 } ?? table[table.count - 1]
    }

    static func inertial(accel: (Int16, Int16, Int16), gyro: (Int16, Int16, Int16),
                         lsbPerG: Double, lsbPerDps: Double) -> InertialSample {
        let radPerLSB = Double.pi / 180 / lsbPerDps
        return InertialSample(specificForce: Vector3(Double(accel.0), Double(accel.1), Double(accel.2)) / lsbPerG,
                              rate: Vector3(Double(gyro.0), Double(gyro.1), Double(gyro.2)) * radPerLSB)
    }

    /// AK09916 raw counts (its own axes) → µT in the accelerometer/gyroscope chip frame:
    /// its X is the ICM's X, its Y the ICM's −Y, its Z the ICM's −Z (datasheet §11,
    /// orientation of axes).
    static func magnetic(raw: (Int16, Int16, Int16)) -> Vector3 {
        Vector3(Double(raw.0), -Double(raw.1), -Double(raw.2)) * magMicroTeslaPerLSB
    }
}
