/// ICM-20948 registers, from TDK InvenSense "ICM-20948 Datasheet" DS-000189 rev 1.3:
/// section 7 (register map), 8 (user bank 0 descriptions), 10 (user bank 2 descriptions).
/// Registers live in four banks chosen by REG_BANK_SEL; the driver works in bank 0 and
/// visits bank 2 only to configure.
enum ICM20948Register {
    /// Every bank, 0x7F REG_BANK_SEL: USER_BANK [5:4].
    static let regBankSel: UInt8 = 0x7F
    static func bank(_ n: UInt8) -> UInt8 { n << 4 }

    // Bank 0 (§8)
    /// §8.1 WHO_AM_I: 0xEA.
    static let whoAmI: UInt8 = 0x00
    static let identity: UInt8 = 0xEA
    /// §8.2 USER_CTRL: I2C_MST_EN [5] (must be 0 for bypass).
    static let userCtrl: UInt8 = 0x03
    /// §8.4 PWR_MGMT_1: DEVICE_RESET [7], SLEEP [6], CLKSEL [2:0]. Resets to 0x41 (asleep).
    static let pwrMgmt1: UInt8 = 0x06
    /// §8.5 PWR_MGMT_2: disable bits (0 = accelerometer and gyroscope on).
    static let pwrMgmt2: UInt8 = 0x07
    /// §8.6 INT_PIN_CFG: BYPASS_EN [1] puts the AK09916 on the host bus.
    static let intPinCfg: UInt8 = 0x0F
    /// §8.17–8.28 ACCEL_XOUT_H…GYRO_ZOUT_L (0x2D–0x38): big-endian two's complement.
    static let accelXOutH: UInt8 = 0x2D

    // Bank 2 (§10)
    /// §10.1 GYRO_SMPLRT_DIV: gyro ODR = 1.1 kHz / (1 + div).
    static let gyroSmplrtDiv: UInt8 = 0x00
    /// §10.2 GYRO_CONFIG_1: GYRO_DLPFCFG [5:3], GYRO_FS_SEL [2:1], GYRO_FCHOICE [0] (1 = DLPF on).
    static let gyroConfig1: UInt8 = 0x01
    /// §10.7–10.8 ACCEL_SMPLRT_DIV_1 [11:8], ACCEL_SMPLRT_DIV_2 [7:0]: accel ODR = 1.125 kHz / (1 + div).
    static let accelSmplrtDiv1: UInt8 = 0x10
    static let accelSmplrtDiv2: UInt8 = 0x11
    /// §10.14 ACCEL_CONFIG: ACCEL_DLPFCFG [5:3], ACCEL_FS_SEL [2:1], ACCEL_FCHOICE [0].
    static let accelConfig: UInt8 = 0x14

    static let addresses: [UInt8] = [0x68, 0x69]
    static let deviceReset: UInt8 = 0x80
    static let clockAuto: UInt8 = 0x01
    static let bypassEnable: UInt8 = 0x02
}

/// AK09916 magnetometer registers (inside the ICM-20948, at 0x0C through bypass), from AKM
/// "AK09916C" datasheet, section 9 (register map and descriptions).
enum AK09916Register {
    static let address: UInt8 = 0x0C
    /// §9.3 WIA2, device ID: 0x09.
    static let wia2: UInt8 = 0x01
    static let identity: UInt8 = 0x09
    /// §9.4 ST1: DRDY [0], DOR [1]. Burst ST1 (0x10) … ST2 (0x18): ST1, HXL…HZH, TMPS, ST2.
    static let st1: UInt8 = 0x10
    /// §9.6 ST2: HOFL [3]. Reading it ends the read cycle.
    static let st2: UInt8 = 0x18
    /// §9.7 CNTL2: MODE [4:0].
    static let cntl2: UInt8 = 0x31
    /// §9.8 CNTL3: SRST [0].
    static let cntl3: UInt8 = 0x32

    static let dataReady: UInt8 = 0x01
    static let overflow: UInt8 = 0x08
    /// Continuous measurement mode 4: 100 Hz.
    static let modeContinuous100Hz: UInt8 = 0x08
    static let softReset: UInt8 = 0x01
}
