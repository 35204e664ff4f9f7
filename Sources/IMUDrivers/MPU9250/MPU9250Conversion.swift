import MotionMath

/// Every MPU-9250/AK8963 scale, filter and axis fact the driver uses, in one place.
enum MPU9250Conversion {
    /// Accelerometer full scales (register 28 ACCEL_FS_SEL) and sensitivity, LSB per g
    /// (MPU-9250 product specification PS-MPU-9250A-01 §3.2).
    static let accelScales: [(range: Double, value: (code: UInt8, lsbPerG: Double))] = [
        (2, (0, 16384)), (4, (1, 8192)), (8, (2, 4096)), (16, (3, 2048)),
    ]
    /// Gyroscope full scales (register 27 GYRO_FS_SEL), LSB per °/s (PS §3.1).
    static let gyroScales: [(range: Double, value: (code: UInt8, lsbPerDps: Double))] = [
        (250, (0, 131)), (500, (1, 65.5)), (1000, (2, 32.8)), (2000, (3, 16.4)),
    ]
    /// Internal sample rate with the DLPF on (DLPF_CFG 1…6), Hz.
    static let internalRateHz = 1000
    /// DLPF settings usable with SMPLRT_DIV: (DLPF_CFG = A_DLPFCFG, gyro 3-dB bandwidth,
    /// accel 3-dB bandwidth) from register 26 and 29 tables, widest first.
    static let filters: [(config: UInt8, gyroHz: Double, accelHz: Double)] = [
        (1, 184, 218.1), (2, 92, 99), (3, 41, 44.8), (4, 20, 21.2), (5, 10, 10.2), (6, 5, 5.05),
    ]
    /// AK8963 16-bit output: 0.15 µT per LSB (AK8963 datasheet §5.3 / §8.3.6).
    static let magMicroTeslaPerLSB = 0.15
    /// Continuous measurement mode 2.
    static let magRateHz = 100.0
    /// |X|+|Y|+|Z| above which the AK8963 flags overflow (datasheet §6.4.3.2), µT.
    static let magRangeMicroTesla = 4912.0

    /// SMPLRT_DIV for the output rate at least `rateHz`.
    static func sampleRateDivider(rateHz: Int) -> UInt8 {
        UInt8(clamping: max(0, internalRateHz / max(1, rateHz) - 1))
    }

    static func outputRate(divider: UInt8) -> Double { Double(internalRateHz) / Double(1 + Int(divider)) }

    /// The widest filter whose bandwidths stay at or below half the output rate (no aliasing).
    static func filter(outputRateHz: Double) -> (config: UInt8, gyroHz: Double, accelHz: Double) {
        filters.first { max($0.gyroHz, $0.accelHz) <= outputRateHz / 2 } ?? filters[filters.count - 1]
    }

    /// The AK8963 sensitivity adjustment factor from a fuse ROM ASA byte (§8.3.11):
    /// `H_adj = H × ((ASA − 128) × 0.5 / 128 + 1)`.
    static func sensitivityAdjustment(_ asa: UInt8) -> Double {
        (Double(asa) - 128) * 0.5 / 128 + 1
    }

    /// Accelerometer/gyroscope raw counts → physical units, chip frame.
    static func inertial(accel: (Int16, Int16, Int16), gyro: (Int16, Int16, Int16),
                         lsbPerG: Double, lsbPerDps: Double) -> InertialSample {
        let radPerLSB = Double.pi / 180 / lsbPerDps
        return InertialSample(specificForce: Vector3(Double(accel.0), Double(accel.1), Double(accel.2)) / lsbPerG,
                              rate: Vector3(Double(gyro.0), Double(gyro.1), Double(gyro.2)) * radPerLSB)
    }

    /// AK8963 raw counts (its own axes) → µT in the accelerometer/gyroscope chip frame.
    /// The AK8963's X is the MPU's Y, its Y the MPU's X, its Z the MPU's −Z (product
    /// specification §9.1, orientation of axes).
    static func magnetic(raw: (Int16, Int16, Int16), adjustment: Vector3) -> Vector3 {
        let mx = Double(raw.0) * magMicroTeslaPerLSB * adjustment.x
        let my = Double(raw.1) * magMicroTeslaPerLSB * adjustment.y
        let mz = Double(raw.2) * magMicroTeslaPerLSB * adjustment.z
        return Vector3(my, mx, -mz)
    }
}
