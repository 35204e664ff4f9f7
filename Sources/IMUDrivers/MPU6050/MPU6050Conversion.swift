/// Every MPU-6050 rate, filter and scale fact the driver uses, in one place.
enum MPU6050Conversion {
    /// Full scales and sensitivities: the same as the MPU-9250's (MPU-6000/6050 product
    /// specification PS-MPU-6000A-00 §6.1 gyroscope, §6.2 accelerometer).
    static let accelScales = MPU9250Conversion.accelScales
    static let gyroScales = MPU9250Conversion.gyroScales
    /// Gyroscope output rate with the DLPF on (DLPF_CFG 1…6), Hz (register 25).
    static let internalRateHz = 1000
    /// Register 26 table: (DLPF_CFG, accelerometer bandwidth, gyroscope bandwidth), widest first.
    static let filters: [(config: UInt8, accelHz: Double, gyroHz: Double)] = [
        (1, 184, 188), (2, 94, 98), (3, 44, 42), (4, 21, 20), (5, 10, 10), (6, 5, 5),
    ]

    static func sampleRateDivider(rateHz: Int) -> UInt8 { MPU9250Conversion.sampleRateDivider(rateHz: rateHz) }
    static func outputRate(divider: UInt8) -> Double { MPU9250Conversion.outputRate(divider: divider) }

    /// The widest filter whose bandwidths stay at or below half the output rate.
    static func filter(outputRateHz: Double) -> (config: UInt8, accelHz: Double, gyroHz: Double) {
        filters.first { max($0.gyroHz, $0.accelHz) <= outputRateHz / 2 } ?? filters[filters.count - 1]
    }
}
