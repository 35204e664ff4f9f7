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
    /// §3.6.5.5, Table 3-31: 1 quaternion unit = 2^14 LSB.
    static let lsbPerQuaternionUnit = 16384.0

    /// In the fusion modes the fusion sets the sensors itself (the page-1 configuration
    /// applies to the non-fusion modes only): the default settings of Table 3-4
    /// (accelerometer ±4 g, 62.5 Hz bandwidth; gyroscope ±2000 °/s, 32 Hz) at the NDOF data
    /// rates of Table 3-14 (accelerometer and gyroscope 100 Hz, magnetometer 20 Hz, fusion
    /// output 100 Hz).
    enum Fusion {
        static let accelRangeG = 4.0
        static let accelBandwidthHz = 62.5
        static let gyroRangeDegPerSec = 2000.0
        static let gyroBandwidthHz = 32.0
        static let inertialRateHz = 100.0
        static let magRateHz = 20.0
        static let outputRateHz = 100.0
    }

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

    /// QUA_DATA (w, x, y, z), LIA_DATA and GRV_DATA (x, y, z; UNIT_SEL mg) as read, in the
    /// chip frame; the quaternion is not normalised (an all-zero one means no output yet).
    static func fusion(quaternion q: (Int16, Int16, Int16, Int16), linear: (Int16, Int16, Int16),
                       gravity: (Int16, Int16, Int16)) -> ChipFusionSample {
        let gPerLSB = 1 / (1000 * lsbPerMilliG)
        return ChipFusionSample(
            attitude: Quaternion(w: Double(q.0) / lsbPerQuaternionUnit, x: Double(q.1) / lsbPerQuaternionUnit,
                                 y: Double(q.2) / lsbPerQuaternionUnit, z: Double(q.3) / lsbPerQuaternionUnit),
            gravity: Vector3(Double(gravity.0), Double(gravity.1), Double(gravity.2)) * gPerLSB,
            linearAcceleration: Vector3(Double(linear.0), Double(linear.1), Double(linear.2)) * gPerLSB)
    }

    /// CALIB_STAT in words, e.g. `CALIB_STAT 0x3F: system 0, gyroscope 3, accelerometer 3,
    /// magnetometer 3 (0 = not calibrated … 3 = fully calibrated)`.
    static func calibrationText(_ status: UInt8) -> String {
        let field = { (shift: UInt8) in String(status >> shift & 0x03) }
        return "CALIB_STAT \(Hex.byte(status)): system \(field(6)), gyroscope \(field(4)), accelerometer \(field(2)), "
            + "magnetometer \(field(0)) (0 = not calibrated … 3 = fully calibrated)"
    }
}
