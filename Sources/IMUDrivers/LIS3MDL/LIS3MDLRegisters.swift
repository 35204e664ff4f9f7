/// LIS3MDL registers, from ST "LIS3MDL" datasheet DocID024204 rev 6, section 7 (register
/// map) and 8 (register description). The map is the LSM9DS1 magnetometer's; the
/// sensitivities (Table 2) are not.
enum LIS3MDLRegister {
    /// SDO/SA1 low: 0x1C (Adafruit's default), high: 0x1E.
    static let addresses: [UInt8] = [0x1C, 0x1E]
    /// §8.1 WHO_AM_I: 0x3D.
    static let whoAmI: UInt8 = 0x0F
    static let identity: UInt8 = 0x3D
    /// §8.2 CTRL_REG1: TEMP_EN [7], OM [6:5] X/Y operating mode, DO [4:2], FAST_ODR [1].
    static let ctrlReg1: UInt8 = 0x20
    /// §8.3 CTRL_REG2: FS [6:5], REBOOT [3], SOFT_RST [2].
    static let ctrlReg2: UInt8 = 0x21
    /// §8.4 CTRL_REG3: MD [1:0] (00 continuous, 11 power-down = power-on default).
    static let ctrlReg3: UInt8 = 0x22
    /// §8.5 CTRL_REG4: OMZ [3:2] Z operating mode, BLE [1].
    static let ctrlReg4: UInt8 = 0x23
    /// §8.6 CTRL_REG5: BDU [6].
    static let ctrlReg5: UInt8 = 0x24
    /// §8.7 STATUS_REG: ZYXOR [7] overrun, ZYXDA [3] new X, Y, Z data.
    static let status: UInt8 = 0x27
    /// §8.8–8.10 OUT_X_L … OUT_Z_H: little-endian two's complement.
    static let outXL: UInt8 = 0x28
    /// §6.1.1: the sub-address MSB set makes multi-byte reads auto-increment.
    static let autoIncrement: UInt8 = 0x80

    static let softReset: UInt8 = 0x04
    static let dataAvailable: UInt8 = 0x08
    static let blockDataUpdate: UInt8 = 0x40
    static let continuous: UInt8 = 0x00
    static let fastODR: UInt8 = 0x02
}
