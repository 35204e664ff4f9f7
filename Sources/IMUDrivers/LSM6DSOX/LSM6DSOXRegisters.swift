/// LSM6DSOX registers, from ST "LSM6DSOX" datasheet DS12814 rev 3, section 8 (register
/// mapping) and 9 (register description). The LSM6DS3TR-C (DS12161) and ISM330DHCX
/// (DS13012) share every register used here.
enum LSM6DSOXRegister {
    /// SDO/SA0 low: 0x6A (Adafruit's default), high: 0x6B.
    static let addresses: [UInt8] = [0x6A, 0x6B]
    /// §9.11 WHO_AM_I.
    static let whoAmI: UInt8 = 0x0F
    static let identityLSM6DSOX: UInt8 = 0x6C
    static let identityLSM6DS3TRC: UInt8 = 0x6A
    static let identityISM330DHCX: UInt8 = 0x6B
    /// §9.12 CTRL1_XL: ODR_XL [7:4], FS_XL [3:2] (00 ±2 g, 01 ±16 g, 10 ±4 g, 11 ±8 g).
    static let ctrl1XL: UInt8 = 0x10
    /// §9.13 CTRL2_G: ODR_G [7:4], FS_G [3:2] (250…2000 °/s), FS_125 [1], FS_4000 [0] (ISM330DHCX only).
    static let ctrl2G: UInt8 = 0x11
    /// §9.14 CTRL3_C: BOOT [7], BDU [6], IF_INC [2] (power-on 1), SW_RESET [0].
    static let ctrl3C: UInt8 = 0x12
    /// §9.26 OUTX_L_G … OUTZ_H_G (0x22–0x27) then §9.29 OUTX_L_A … OUTZ_H_A (0x28–0x2D):
    /// little-endian two's complement, gyroscope first.
    static let outXLG: UInt8 = 0x22

    static let softwareReset: UInt8 = 0x01
    static let blockUpdateAutoIncrement: UInt8 = 0x44
}
