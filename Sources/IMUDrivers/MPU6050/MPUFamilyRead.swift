/// The per-tick reads the MPU-6050 and MPU-9250 share (same register numbers and layout).
enum MPUFamilyRead {
    /// One 18-byte burst from INT_PIN_CFG (0x37) through GYRO_ZOUT_L (0x48): the bypass bit
    /// read back on every tick notices a reset at once (it returns to 0).
    static func inertial(link: ChipLink, buffer: RegisterBuffer,
                         lsbPerG: Double, lsbPerDps: Double) throws(I2CError) -> InertialRead {
        try link.burst(MPU6050Register.intPinCfg, count: 18, into: buffer)
        guard buffer[0] == MPU6050Register.bypassEnable else { return .configurationLost }
        return .sample(MPU9250Conversion.inertial(
            accel: buffer.bigEndianVector(at: 4), gyro: buffer.bigEndianVector(at: 12),
            lsbPerG: lsbPerG, lsbPerDps: lsbPerDps))
    }

    /// The `count` filter/range registers written from SMPLRT_DIV on, then USER_CTRL = 0 and
    /// PWR_MGMT_1 = PLL clock (a reset, sleep or I2C master mode shows here).
    static func configurationIntact(link: ChipLink, buffer: RegisterBuffer,
                                    written: [UInt8], count: Int) throws(I2CError) -> Bool {
        guard try link.stillHolds(written, count: count, from: MPU6050Register.smplrtDiv, buffer: buffer) else { return false }
        try link.burst(MPU6050Register.userCtrl, count: 2, into: buffer)
        return buffer[0] == 0x00 && buffer[1] == MPU6050Register.clockPLLX
    }
}
