/// Every LSM6DSOX-family scale and rate the driver uses, in one place (DS12814 Table 2
/// sensitivities, Tables 52 and 55 output data rates).
enum LSM6DSOXConversion {
    /// FS_XL: (±g, (code, mg per LSB)).
    static let accelScales: [(range: Double, value: (code: UInt8, mgPerLSB: Double))] = [
        (2, (0, 0.061)), (4, (2, 0.122)), (8, (3, 0.244)), (16, (1, 0.488)),
    ]
    /// CTRL2_G bits [3:0] (FS_G << 2 | FS_125 << 1 | FS_4000): (±°/s, (bits, mdps per LSB)).
    static let gyroScales: [(range: Double, value: (code: UInt8, mdpsPerLSB: Double))] = [
        (125, (0x02, 4.375)), (250, (0x00, 8.75)), (500, (0x04, 17.5)), (1000, (0x08, 35)), (2000, (0x0C, 70)),
    ]
    /// ISM330DHCX only: ±4000 °/s.
    static let gyro4000: (range: Double, value: (code: UInt8, mdpsPerLSB: Double)) = (4000, (0x01, 140))
    /// ODR code (accelerometer and gyroscope, high-performance mode), Hz.
    static let rates: [(hz: Double, value: UInt8)] = [
        (12.5, 1), (26, 2), (52, 3), (104, 4), (208, 5), (416, 6), (833, 7), (1666, 8), (3332, 9), (6664, 10),
    ]
    static let maxRateHz = 6664

    /// The family member for a WHO_AM_I value.
    static func name(identity: UInt8) -> String {
        switch identity {
        case LSM6DSOXRegister.identityLSM6DS3TRC: return "LSM6DS3TR-C"
        case LSM6DSOXRegister.identityISM330DHCX: return "ISM330DHCX"
        default: return "LSM6DSOX"
        }
    }

    /// Raw counts → physical units: the same arithmetic as the LSM9DS1's (ST mg and m°/s per LSB).
    static func inertial(accel: (Int16, Int16, Int16), gyro: (Int16, Int16, Int16),
                         mgPerLSB: Double, mdpsPerLSB: Double) -> InertialSample {
        LSM9DS1Conversion.inertial(accel: accel, gyro: gyro, mgPerLSB: mgPerLSB, mdpsPerLSB: mdpsPerLSB)
    }
}
