import MotionMath

/// Every LIS3MDL scale and rate the driver uses, in one place.
enum LIS3MDLConversion {
    /// FS: (full scale µT, (code, LSB per gauss)) from Table 2; 1 gauss = 100 µT.
    static let scales: [(range: Double, value: (code: UInt8, lsbPerGauss: Double))] = [
        (400, (0, 6842)), (800, (1, 3421)), (1200, (2, 2281)), (1600, (3, 1711)),
    ]
    /// Output data rates (Tables 20–22): DO codes in ultra-high-performance mode up to
    /// 80 Hz, then FAST_ODR, whose rate the operating mode sets (UHP 155, HP 300, MP 560, LP 1000 Hz).
    static let rates: [(hz: Double, value: (operatingMode: UInt8, dataRate: UInt8, fast: Bool))] = [
        (0.625, (3, 0, false)), (1.25, (3, 1, false)), (2.5, (3, 2, false)), (5, (3, 3, false)),
        (10, (3, 4, false)), (20, (3, 5, false)), (40, (3, 6, false)), (80, (3, 7, false)),
        (155, (3, 0, true)), (300, (2, 0, true)), (560, (1, 0, true)), (1000, (0, 0, true)),
    ]

    /// CTRL_REG1 and CTRL_REG4 (Z in the same operating mode as X/Y) for a rate.
    static func control(_ rate: (operatingMode: UInt8, dataRate: UInt8, fast: Bool)) -> (ctrl1: UInt8, ctrl4: UInt8) {
        (rate.operatingMode << 5 | rate.dataRate << 2 | (rate.fast ? LIS3MDLRegister.fastODR : 0), rate.operatingMode << 2)
    }

    /// The output saturates at the 16-bit limits; there is no overflow flag in the data path.
    static func saturated(_ raw: (Int16, Int16, Int16)) -> Bool {
        raw.0 == .max || raw.0 == .min || raw.1 == .max || raw.1 == .min || raw.2 == .max || raw.2 == .min
    }

    /// Raw counts → µT in the LIS3MDL's own axes.
    static func magnetic(raw: (Int16, Int16, Int16), lsbPerGauss: Double) -> Vector3 {
        Vector3(Double(raw.0), Double(raw.1), Double(raw.2)) * (100 / lsbPerGauss)
    }
}
