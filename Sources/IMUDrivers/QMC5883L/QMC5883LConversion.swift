import MotionMath

/// Every QMC5883L scale and rate the driver uses, in one place (datasheet §9.2.3).
enum QMC5883LConversion {
    /// RNG: (full scale µT, (code, LSB per gauss)); 1 gauss = 100 µT. ±2 G: 12000 LSB/G, ±8 G: 3000 LSB/G.
    static let scales: [(range: Double, value: (code: UInt8, lsbPerGauss: Double))] = [
        (200, (0, 12000)), (800, (1, 3000)),
    ]
    /// ODR code → Hz.
    static let rates: [(hz: Double, value: UInt8)] = [(10, 0), (50, 1), (100, 2), (200, 3)]

    static func control1(rateCode: UInt8, rangeCode: UInt8) -> UInt8 {
        QMC5883LRegister.oversampling512 | rangeCode << 4 | rateCode << 2 | QMC5883LRegister.continuous
    }

    /// Raw counts → µT in the QMC5883L's own axes.
    static func magnetic(raw: (Int16, Int16, Int16), lsbPerGauss: Double) -> Vector3 {
        let microTeslaPerLSB = 100 / lsbPerGauss
        return Vector3(Double(raw.0), Double(raw.1), Double(raw.2)) * microTeslaPerLSB
    }
}
