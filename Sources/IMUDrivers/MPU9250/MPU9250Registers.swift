/// MPU-9250 accelerometer/gyroscope registers, from InvenSense "MPU-9250 Register Map and
/// Descriptions" (RM-MPU-9250A-00 rev 1.6), section 4, cited by register number there.
enum MPU9250Register {
    /// Register 25, SMPLRT_DIV: sample rate = internal rate / (1 + div) when the DLPF is on.
    static let smplrtDiv: UInt8 = 0x19
    /// Register 26, CONFIG: DLPF_CFG [2:0] (gyro low-pass filter).
    static let config: UInt8 = 0x1A
    /// Register 27, GYRO_CONFIG: GYRO_FS_SEL [4:3], FCHOICE_B [1:0] (00 = DLPF used).
    static let gyroConfig: UInt8 = 0x1B
    /// Register 28, ACCEL_CONFIG: ACCEL_FS_SEL [4:3].
    static let accelConfig: UInt8 = 0x1C
    /// Register 29, ACCEL_CONFIG 2: ACCEL_FCHOICE_B [3] (0 = DLPF used), A_DLPFCFG [2:0].
    static let accelConfig2: UInt8 = 0x1D
    /// Register 55, INT_PIN_CFG: BYPASS_EN [1] puts the AK8963 on the host bus.
    static let intPinCfg: UInt8 = 0x37
    /// Registers 59–64 ACCEL_XOUT_H…ACCEL_ZOUT_L, 65–66 TEMP_OUT, 67–72 GYRO_XOUT_H…GYRO_ZOUT_L:
    /// big-endian two's complement.
    static let accelXOutH: UInt8 = 0x3B
    /// Register 106, USER_CTRL: I2C_MST_EN [5] (must be 0 for bypass).
    static let userCtrl: UInt8 = 0x6A
    /// Register 107, PWR_MGMT_1: H_RESET [7], SLEEP [6], CLKSEL [2:0] (1 = best clock, PLL).
    static let pwrMgmt1: UInt8 = 0x6B
    /// Register 108, PWR_MGMT_2: disable bits per axis (0 = all on).
    static let pwrMgmt2: UInt8 = 0x6C
    /// Register 117, WHO_AM_I: 0x71 (MPU-9250); 0x73 on the MPU-9255, same registers.
    static let whoAmI: UInt8 = 0x75

    static let identities: [UInt8] = [0x71, 0x73]
    static let addresses: [UInt8] = [0x68, 0x69]

    static let hReset: UInt8 = 0x80
    static let clockPLL: UInt8 = 0x01
    static let bypassEnable: UInt8 = 0x02
}

/// AK8963 magnetometer registers (inside the MPU-9250, reached through bypass at 0x0C),
/// from AKM "AK8963" datasheet MS1356-E, section 8 (register map and descriptions).
enum AK8963Register {
    static let address: UInt8 = 0x0C
    /// §8.3.1 WIA, device ID: 0x48.
    static let wia: UInt8 = 0x00
    static let identity: UInt8 = 0x48
    /// §8.3.3 ST1: DRDY [0] data ready, DOR [1] data overrun.
    static let st1: UInt8 = 0x02
    /// §8.3.4 HXL…HZH: little-endian two's complement.
    static let hxl: UInt8 = 0x03
    /// §8.3.5 ST2: HOFL [3] magnetic sensor overflow, BITM [4] output bit setting mirror.
    /// Reading ST2 ends the read cycle and releases the data registers.
    static let st2: UInt8 = 0x09
    /// §8.3.6 CNTL1: BIT [4] (1 = 16-bit output), MODE [3:0].
    static let cntl1: UInt8 = 0x0A
    /// §8.3.7 CNTL2: SRST [0] soft reset.
    static let cntl2: UInt8 = 0x0B
    /// §8.3.11 ASAX/ASAY/ASAZ: sensitivity adjustment values, fuse ROM (readable in fuse ROM mode only).
    static let asax: UInt8 = 0x10

    static let dataReady: UInt8 = 0x01
    static let overflow: UInt8 = 0x08
    static let modePowerDown: UInt8 = 0x00
    static let modeFuseROM: UInt8 = 0x0F
    /// 16-bit output, continuous measurement mode 2 (100 Hz).
    static let mode16BitContinuous100Hz: UInt8 = 0x16
    static let softReset: UInt8 = 0x01
}
