/// QMC5883L registers, from QST "QMC5883L 3-Axis Magnetic Sensor" datasheet rev 1.0,
/// section 9 (register map, 9.1 and 9.2).
enum QMC5883LRegister {
    static let address: UInt8 = 0x0D
    /// 00H–05H: X, Y, Z, little-endian two's complement. Reading any of them clears DRDY and DOR.
    static let dataXL: UInt8 = 0x00
    /// 06H status: DRDY [0] new data, OVL [1] a channel out of range, DOR [2] data skipped.
    static let status: UInt8 = 0x06
    /// 09H control 1: OSR [7:6], RNG [5:4], ODR [3:2], MODE [1:0] (01 continuous).
    static let control1: UInt8 = 0x09
    /// 0AH control 2: SOFT_RST [7], ROL_PNT [6], INT_ENB [0].
    static let control2: UInt8 = 0x0A
    /// 0BH SET/RESET period: 0x01 recommended.
    static let setResetPeriod: UInt8 = 0x0B
    /// 0DH chip ID: 0xFF.
    static let chipID: UInt8 = 0x0D
    static let identity: UInt8 = 0xFF

    static let dataReady: UInt8 = 0x01
    static let overflow: UInt8 = 0x02
    static let softReset: UInt8 = 0x80
    static let setResetRecommended: UInt8 = 0x01
    static let continuous: UInt8 = 0x01
    /// OSR 512 (lowest noise).
    static let oversampling512: UInt8 = 0x00
}
