/// BNO055 registers, from Bosch Sensortec "BNO055 Intelligent 9-axis absolute orientation
/// sensor" datasheet BST-BNO055-DS000 rev 1.4, section 4.2 (register map) and 4.3
/// (register description). Page 0 unless marked page 1.
enum BNO055Register {
    /// COM3 low: 0x28, high: 0x29 (Adafruit's breakout: 0x28).
    static let addresses: [UInt8] = [0x28, 0x29]
    /// §4.3.1 CHIP_ID: 0xA0.
    static let chipID: UInt8 = 0x00
    static let identity: UInt8 = 0xA0
    /// §4.3.7 PAGE_ID (on both pages).
    static let pageID: UInt8 = 0x07
    /// §4.3.8–4.3.25 ACC_DATA (0x08–0x0D), MAG_DATA (0x0E–0x13), GYR_DATA (0x14–0x19):
    /// little-endian two's complement, in the units UNIT_SEL selects.
    static let accDataXLSB: UInt8 = 0x08
    static let magDataXLSB: UInt8 = 0x0E
    static let gyrDataXLSB: UInt8 = 0x14
    /// §4.3.26–4.3.31 EUL_DATA (0x1A–0x1F): heading, roll, pitch (fusion modes; not used:
    /// the quaternion carries the same attitude without the Euler conventions of Table 3-13).
    static let eulDataHeadingLSB: UInt8 = 0x1A
    /// §4.3.33–4.3.40 QUA_DATA (0x20–0x27): w, x, y, z, little-endian two's complement,
    /// 1 quaternion unit = 2^14 LSB (§3.6.5.5, Table 3-31). Fusion modes only.
    static let quaDataWLSB: UInt8 = 0x20
    /// §4.3.41–4.3.46 LIA_DATA (0x28–0x2D): linear acceleration x, y, z in UNIT_SEL's
    /// acceleration unit (mg: 1 LSB; m/s²: 100 LSB; §3.6.5.6, Table 3-33). Fusion modes only.
    static let liaDataXLSB: UInt8 = 0x28
    /// §4.3.47–4.3.52 GRV_DATA (0x2E–0x33): gravity vector x, y, z, same units (§3.6.5.7,
    /// Table 3-35). Fusion modes only.
    static let grvDataXLSB: UInt8 = 0x2E
    /// §4.3.54 CALIB_STAT: SYS [7:6], GYR [5:4], ACC [3:2], MAG [1:0]; 3 = fully calibrated,
    /// 0 = not calibrated (§3.10). Meaningful in fusion modes.
    static let calibStat: UInt8 = 0x35
    /// One burst from ACC_DATA to the end of GRV_DATA (0x08–0x33): 44 bytes.
    static let fusionBurstLength = Int(grvDataXLSB) + 6 - Int(accDataXLSB)
    /// §4.3.60 UNIT_SEL: ACC_Unit [0] (1 = mg), GYR_Unit [1] (0 = °/s), EUL_Unit [2], ORI [7].
    static let unitSel: UInt8 = 0x3B
    /// §4.3.61 OPR_MODE [3:0]: 0 CONFIGMODE, 7 AMG (all three sensors, no fusion), 0x0C NDOF
    /// (fusion of all nine axes, fast magnetometer calibration on; §3.3.3.5, Table 3-5).
    static let oprMode: UInt8 = 0x3D
    /// §4.3.62 PWR_MODE [1:0]: 0 normal.
    static let pwrMode: UInt8 = 0x3E
    /// §4.3.63 SYS_TRIGGER: RST_SYS [5].
    static let sysTrigger: UInt8 = 0x3F
    /// §4.3.64–65 AXIS_MAP_CONFIG (0x24 = X, Y, Z as the package) and AXIS_MAP_SIGN (0 = no flips).
    static let axisMapConfig: UInt8 = 0x41
    /// Page 1 §4.4.2 ACC_Config: PWR_Mode [7:5], ACC_BW [4:2], ACC_Range [1:0].
    static let accConfig: UInt8 = 0x08
    /// Page 1 §4.4.3 MAG_Config: power mode [6:5], operation mode [4:3], output rate [2:0].
    static let magConfig: UInt8 = 0x09
    /// Page 1 §4.4.4 GYR_Config_0: GYR_Bandwidth [5:3], GYR_Range [2:0].
    static let gyrConfig0: UInt8 = 0x0A
    /// Page 1 §4.4.5 GYR_Config_1: GYR_Power_Mode [2:0] (0 normal).
    static let gyrConfig1: UInt8 = 0x0B

    static let configMode: UInt8 = 0x00
    static let amgMode: UInt8 = 0x07
    static let ndofMode: UInt8 = 0x0C
    static let resetSystem: UInt8 = 0x20
    static let defaultAxisMap: (config: UInt8, sign: UInt8) = (0x24, 0x00)
    /// ACC in mg, GYR in °/s, Windows orientation.
    static let unitsMilliGDegrees: UInt8 = 0x01
}
