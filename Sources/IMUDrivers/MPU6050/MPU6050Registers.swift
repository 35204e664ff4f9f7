/// MPU-6050 registers, from InvenSense "MPU-6000 and MPU-6050 Register Map and
/// Descriptions" (RM-MPU-6000A-00 rev 4.2), section 4, cited by register number there.
/// The numbers match the MPU-9250's; the MPU-6050 has no ACCEL_CONFIG 2 and no magnetometer.
enum MPU6050Register {
    /// Register 25, SMPLRT_DIV: sample rate = gyroscope output rate / (1 + div).
    static let smplrtDiv: UInt8 = 0x19
    /// Register 26, CONFIG: DLPF_CFG [2:0] (accelerometer and gyroscope low-pass).
    static let config: UInt8 = 0x1A
    /// Register 27, GYRO_CONFIG: FS_SEL [4:3].
    static let gyroConfig: UInt8 = 0x1B
    /// Register 28, ACCEL_CONFIG: AFS_SEL [4:3].
    static let accelConfig: UInt8 = 0x1C
    /// Register 55, INT_PIN_CFG: I2C_BYPASS_EN [1] connects the auxiliary bus (XDA/XCL) to
    /// the host bus, so a magnetometer wired behind the MPU-6050 (GY-87) is reachable.
    static let intPinCfg: UInt8 = 0x37
    /// Registers 59–64 ACCEL_XOUT_H…, 65–66 TEMP_OUT, 67–72 GYRO_XOUT_H…: big-endian two's complement.
    static let accelXOutH: UInt8 = 0x3B
    /// Register 106, USER_CTRL: I2C_MST_EN [5] (0 for bypass).
    static let userCtrl: UInt8 = 0x6A
    /// Register 107, PWR_MGMT_1: DEVICE_RESET [7], SLEEP [6], CLKSEL [2:0] (1 = PLL, X gyro).
    static let pwrMgmt1: UInt8 = 0x6B
    /// Register 108, PWR_MGMT_2: standby bits per axis (0 = all on).
    static let pwrMgmt2: UInt8 = 0x6C
    /// Register 117, WHO_AM_I: bits [6:1] of the address, 0x68, whatever AD0 is.
    static let whoAmI: UInt8 = 0x75

    static let identity: UInt8 = 0x68
    static let addresses: [UInt8] = [0x68, 0x69]
    static let deviceReset: UInt8 = 0x80
    static let clockPLLX: UInt8 = 0x01
    static let bypassEnable: UInt8 = 0x02
}
