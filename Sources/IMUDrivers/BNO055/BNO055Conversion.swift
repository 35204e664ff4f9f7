import MotionMath

/// Every BNO055 scale, range, bandwidth and rate the driver uses, in one place
/// (datasheet §3.5 sensor configuration tables, §3.6.4 output units: 1 mg = 1 LSB,
/// 1 °/s = 16 LSB, 1 µT = 16 LSB).
enum BNO055Conversion {
    static let accelScales: [(range: Double, value: UInt8)] = [(2, 0), (4, 1), (8, 2), (16, 3)]
    static let gyroScales: [(range: Double, value: UInt8)] = [(125, 4), (250, 3), (500, 2), (1000, 1), (2000, 0)]
    /// ACC_BW code → bandwidth, Hz (Table 3-8).
    static let accelBandwidths: [(hz: Double, code: UInt8)] = [
        (7.81, 0), (15.63, 1), (31.25, 2), (62.5, 3), (125, 4), (250, 5), (500, 6), (1000, 7),
    ]
    /// GYR_Bandwidth code → bandwidth, Hz (Table 3-13).
    static let gyroBandwidths: [(hz: Double, code: UInt8)] = [
        (12, 5), (23, 4), (32, 7), (47, 3), (64, 6), (116, 2), (230, 1), (523, 0),
    ]
    /// MAG data output rate code → Hz (Table 3-15).
    static let magRates: [(hz: Double, value: UInt8)] = [
        (2, 0), (6, 1), (8, 2), (10, 3), (15, 4), (20, 5), (25, 6), (30, 7),
    ]
    /// The magnetometer's output range (Table 0-2: ±1300 µT X/Y, ±2500 µT Z).
    static let magRangeMicroTesla = 1300.0
    /// The data registers are refreshed by the BNO055's own processor at up to 100 Hz.
    static let maxRateHz = 100
    static let lsbPerMilliG = 1.0
    static let lsbPerDps = 16.0
    static let lsbPerMicroTesla = 16.0

    /// The widest bandwidth at or below half the tick rate (no aliasing), else the narrowest.
    static func bandwidth(_ table: [(hz: Double, code: UInt8)], rateHz: Int) -> (hz: Double, code: UInt8) {
        table.filter { $0.hz <= Double(rateHz) / 2 }.max { $0.hz < $1.hz } ?? table.min { $0.hz < $1.hz } ?? table[0]
    }

    static func inertial(accel: (Int16, Int16, Int16), gyro: (Int16, Int16, Int16)) -> InertialSample {
        let gPerLSB = 1 / (1000 * lsbPerMilliG)
        let radPerLSB = Double.pi / 180 / lsbPerDps
        return InertialSample(specificForce: Vector3(Double(accel.0), Double(accel.1), Double(accel.2)) * gPerLSB,
                              rate: Vector3(Double(gyro.0), Double(gyro.1), Double(gyro.2)) * radPerLSB)
    }

    static func magnetic(raw: (Int16, Int16, Int16)) -> Vector3 {
        Vector3(Double(raw.0), Double(raw.1), Double(raw.2)) / lsbPerMicroTesla
    }
}
