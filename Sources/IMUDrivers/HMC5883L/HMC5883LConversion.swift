import MotionMath

/// Every HMC5883L scale and rate the driver uses, in one place (datasheet Tables 4, 5, 9).
enum HMC5883LConversion {
    /// GN: (full scale µT, (code, LSB per gauss)); 1 gauss = 100 µT.
    static let scales: [(range: Double, value: (code: UInt8, lsbPerGauss: Double))] = [
        (88, (0, 1370)), (130, (1, 1090)), (190, (2, 820)), (250, (3, 660)),
        (400, (4, 440)), (470, (5, 390)), (560, (6, 330)), (810, (7, 230)),
    ]
    /// Rates at which single measurements are triggered: the continuous-mode rates of the
    /// DO table, and the fastest single-measurement rate (160 Hz, "Mode register" section).
    static let pollRates: [(hz: Double, value: Void)] = [
        (0.75, ()), (1.5, ()), (3, ()), (7.5, ()), (15, ()), (30, ()), (75, ()), (160, ()),
    ]
    static let maxMeasurementsPerSecond = 160.0

    /// Configuration A: as many samples averaged (MA: 1, 2, 4, 8) as the rate allows
    /// (averaged × rate ≤ 160 per second); DO left at 75 Hz (unused in single mode).
    static func configA(rateHz: Double) -> (value: UInt8, averaged: Int) {
        var code: UInt8 = 0
        while code < 3 && Double(1 << (code + 1)) * rateHz <= maxMeasurementsPerSecond { code += 1 }
        return (code << 5 | 6 << 2, 1 << Int(code))
    }

    /// How long one single measurement takes with `averaged` samples.
    static func measurementSeconds(averaged: Int) -> Double { Double(averaged) / maxMeasurementsPerSecond }

    /// Raw counts (X, Y, Z after reordering from the X, Z, Y registers) → µT, HMC5883L axes.
    static func magnetic(raw: (Int16, Int16, Int16), lsbPerGauss: Double) -> Vector3 {
        Vector3(Double(raw.0), Double(raw.1), Double(raw.2)) * (100 / lsbPerGauss)
    }
}
