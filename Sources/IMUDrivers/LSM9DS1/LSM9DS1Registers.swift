/// LSM9DS1 registers, from ST "LSM9DS1" datasheet DocID025715 rev 3: section 6 (register
/// mapping), 7 (accelerometer/gyroscope register descriptions), 8 (magnetometer register
/// descriptions). The magnetometer is a separate I2C device with its own address.
enum LSM9DS1Register {
    // Accelerometer and gyroscope (§7)
    /// §7.11 WHO_AM_I: 0x68.
    static let whoAmI: UInt8 = 0x0F
    static let identity: UInt8 = 0x68
    /// §7.12 CTRL_REG1_G: ODR_G [7:5], FS_G [4:3], BW_G [1:0]. ODR_G also sets the
    /// accelerometer's rate while the gyroscope runs.
    static let ctrlReg1G: UInt8 = 0x10
    /// §7.17 OUT_X_L_G … OUT_Z_H_G (0x18–0x1D): little-endian two's complement.
    static let outXLG: UInt8 = 0x18
    /// §7.18 CTRL_REG4: Zen_G, Yen_G, Xen_G [5:3].
    static let ctrlReg4: UInt8 = 0x1E
    /// §7.19 CTRL_REG5_XL: Zen_XL, Yen_XL, Xen_XL [5:3].
    static let ctrlReg5XL: UInt8 = 0x1F
    /// §7.20 CTRL_REG6_XL: ODR_XL [7:5], FS_XL [4:3], BW_SCAL_ODR [2] (0 = bandwidth from ODR), BW_XL [1:0].
    static let ctrlReg6XL: UInt8 = 0x20
    /// §7.22 CTRL_REG8: BOOT [7], BDU [6], IF_ADD_INC [2] (auto-increment on multi-byte reads), SW_RESET [0].
    static let ctrlReg8: UInt8 = 0x22
    /// §7.30 OUT_X_L_XL … OUT_Z_H_XL (0x28–0x2D): little-endian two's complement.
    static let outXLXL: UInt8 = 0x28

    static let addresses: [UInt8] = [0x6B, 0x6A]
    static let softwareReset: UInt8 = 0x05          // SW_RESET with IF_ADD_INC kept
    static let blockUpdateAutoIncrement: UInt8 = 0x44
    static let allAxesOn: UInt8 = 0x38
    /// BW_G = 11: the widest gyroscope low-pass of each ODR (31, 78, 100, 100 Hz at 119…952 Hz).
    static let widestGyroBandwidth: UInt8 = 0x03
}

/// LSM9DS1 magnetometer registers (§8).
enum LSM9DS1MagRegister {
    /// §8.3 WHO_AM_I_M: 0x3D.
    static let whoAmI: UInt8 = 0x0F
    static let identity: UInt8 = 0x3D
    /// §8.4 CTRL_REG1_M: TEMP_COMP [7], OM [6:5] (11 ultra-high performance), DO [4:2] (111 = 80 Hz), FAST_ODR [1], ST [0].
    static let ctrlReg1: UInt8 = 0x20
    /// §8.5 CTRL_REG2_M: FS [6:5], REBOOT [3], SOFT_RST [2].
    static let ctrlReg2: UInt8 = 0x21
    /// §8.6 CTRL_REG3_M: MD [1:0] (00 continuous, 11 power-down; resets to 0x03).
    static let ctrlReg3: UInt8 = 0x22
    /// §8.7 CTRL_REG4_M: OMZ [3:2] (11 ultra-high performance).
    static let ctrlReg4: UInt8 = 0x23
    /// §8.8 CTRL_REG5_M: BDU [6].
    static let ctrlReg5: UInt8 = 0x24
    /// §8.9 STATUS_REG_M: ZYXOR [7] overrun, ZYXDA [3] new data. Burst 0x27…0x2D: status, OUT_X_L_M…OUT_Z_H_M.
    static let status: UInt8 = 0x27

    /// §5.1.1 (I2C operation): on the magnetometer, the MSB of the register address
    /// enables auto-increment for multi-byte transfers.
    static let autoIncrement: UInt8 = 0x80

    static let addresses: [UInt8] = [0x1E, 0x1C]
    static let softReset: UInt8 = 0x04
    static let dataAvailable: UInt8 = 0x08
    static let ultraHighPerformance80Hz: UInt8 = 0xFC   // TEMP_COMP, OM 11, DO 111
    static let zUltraHighPerformance: UInt8 = 0x0C
    static let blockDataUpdate: UInt8 = 0x40
    static let continuous: UInt8 = 0x00
}
