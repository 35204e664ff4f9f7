import MotionMath

/// Every HMC5883L scale and rate the driver uses, in one place (datasheet Tables 4, 5, 9).
enum HMC5883LConversion {
    /// GN: (full scale µT, (code, LSB per gauss)); 1 gauss = 100 µT.
    static let scales: [(range: Double, value: (code: UInt8, lsbPerGauss: Double))] = [
        (88, (0, 1370)), (130, (1, 1090)), (190, (2, 820)), (250, (3, 660)),
        (400, (4, 440)), (470, (5, 390)), (560, (6, 330)), (810, (7, 230)),
    ]
    /// DO code → continuous-mode output rate, Hz.
    static let rates: [(hz: Double, value: UInt8)] = [
        (0.75, 0), (1.5, 1), (3, 2), (7.5, 3), (15, 4), (30, 5), (75, 6),
    ]
    /// Highest single-measurement rate (datasheet: 160 Hz): samples averaged × rate stays below it.
    static let maxMeasurementsPerSecond = 160.0

    /// Configuration A for a rate: as many samples averaged (1, 2, 4, 8) as the rate allows.
    static func configA(rate: (hz: Double, value: UInt8)) -> (value: UInt8, averaged: Int) {
        var code: UInt8 = 0
        while code < 3 && Double(1 << (code + 1)) * rate.hz <= maxMeasurementsPerSecond { code += 1 }
        return (code << 5 | rate.value << 2, 1 << Int(code))
    }

    /// Raw counts (X, Y, Z after reordering from the X, Z, Y registers) → µT, HMC5883L axes.
    static func magnetic(raw: (Int16, Int16, Int16), lsbPerGauss: Double) -> Vector3 {
        Vector3(Double(raw.0), Double(raw.1), Double(raw.2)) * (100 / lsbPerGauss)
    }
}
