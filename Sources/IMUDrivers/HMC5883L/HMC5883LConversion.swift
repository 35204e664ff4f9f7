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

    /// How long one single measurement takes with `averaged` samples.
    static func measurementSeconds(averaged: Int) -> Double { Double(averaged) / maxMeasurementsPerSecond }

    /// The shortest time between two polls of a magnetometer at `rateHz` on ticks at
    /// `tickHz`: the driver polls on the first tick at most half a tick before one period.
    static func pollInterval(rateHz: Double, tickHz: Int) -> Double {
        let ticks = max(1, ((1 / rateHz - 0.5 / Double(tickHz)) * Double(tickHz) - 1e-9).rounded(.up))
        return ticks / Double(tickHz)
    }

    /// The rate to trigger single measurements at for ticks at `tickHz`: the slowest at or
    /// above the tick rate whose polls are never closer than one measurement (so every read
    /// finds the measurement triggered by the read before finished), and configuration A
    /// with as many samples averaged (MA: 1, 2, 4, 8) as fit between two polls.
    static func plan(tickHz: Int) -> (rateHz: Double, configA: UInt8, averaged: Int) {
        let sorted = pollRates.map(\.hz).sorted()
        let first = RateChoice.pick(tickHz, from: pollRates).hz
        var rate = first
        for candidate in sorted.reversed() where candidate <= first {
            rate = candidate
            if pollInterval(rateHz: candidate, tickHz: tickHz) >= measurementSeconds(averaged: 1) - 1e-9 { break }
        }
        let interval = pollInterval(rateHz: rate, tickHz: tickHz)
        var code: UInt8 = 0
        while code < 3 && measurementSeconds(averaged: 1 << Int(code + 1)) <= interval + 1e-9 { code += 1 }
        return (rate, code << 5 | 6 << 2, 1 << Int(code))
    }

    /// Raw counts (X, Y, Z after reordering from the X, Z, Y registers) → µT, HMC5883L axes.
    static func magnetic(raw: (Int16, Int16, Int16), lsbPerGauss: Double) -> Vector3 {
        Vector3(Double(raw.0), Double(raw.1), Double(raw.2)) * (100 / lsbPerGauss)
    }
}
