/// ICM-42688-P registers (user bank 0), from TDK InvenSense "ICM-42688-P" datasheet
/// DS-000347 rev 1.8, section 14 (register map) and 15 (descriptions).
enum ICM42688Register {
    static let addresses: [UInt8] = [0x68, 0x69]
    /// §15.1 DEVICE_CONFIG: SOFT_RESET_CONFIG [0] (wait 1 ms after).
    static let deviceConfig: UInt8 = 0x11
    /// §15.6–15.9 TEMP_DATA1/0, ACCEL_DATA_X1 … ACCEL_DATA_Z0 (0x1F–0x24), GYRO_DATA_X1 …
    /// GYRO_DATA_Z0 (0x25–0x2A): big-endian two's complement (INTF_CONFIG0 DATA_ENDIAN = 1,
    /// the power-on value); −32768 while a sensor is off.
    static let accelDataX1: UInt8 = 0x1F
    /// §15.19 PWR_MGMT0: GYRO_MODE [3:2], ACCEL_MODE [1:0] (11 = low-noise); 0 (off) at power-on.
    static let pwrMgmt0: UInt8 = 0x4E
    /// §15.20 GYRO_CONFIG0: GYRO_FS_SEL [7:5], GYRO_ODR [3:0].
    static let gyroConfig0: UInt8 = 0x4F
    /// §15.21 ACCEL_CONFIG0: ACCEL_FS_SEL [7:5], ACCEL_ODR [3:0].
    static let accelConfig0: UInt8 = 0x50
    /// §15.39 WHO_AM_I: 0x47.
    static let whoAmI: UInt8 = 0x75
    static let identity: UInt8 = 0x47
    /// REG_BANK_SEL: BANK_SEL [2:0], reachable from every bank.
    static let regBankSel: UInt8 = 0x76

    static let softReset: UInt8 = 0x01
    static let lowNoiseBoth: UInt8 = 0x0F
}
