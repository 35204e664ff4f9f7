/// The per-tick reads the MPU-6050 and MPU-9250 share (same register numbers and layout).
enum MPUFamilyRead {
    /// One 18-byte burst from INT_PIN_CFG (0x37) through GYRO_ZOUT_L (0x48): the bypass bit
    /// read back on every tick notices a reset at once (it returns to 0).
    static func inertial(bus: I2CBus, address: UInt8, buffer: RegisterBuffer,
                         lsbPerG: Double, lsbPerDps: Double) throws(I2CError) -> InertialRead {
        try bus.read(address: address, register: MPU6050Register.intPinCfg, into: buffer.prefix(18))
        guard buffer[0] == MPU6050Register.bypassEnable else { return .configurationLost }
        let b = buffer
        return .sample(MPU9250Conversion.inertial(
            accel: (b.bigEndianInt16(at: 4), b.bigEndianInt16(at: 6), b.bigEndianInt16(at: 8)),
            gyro: (b.bigEndianInt16(at: 12), b.bigEndianInt16(at: 14), b.bigEndianInt16(at: 16)),
            lsbPerG: lsbPerG, lsbPerDps: lsbPerDps))
    }

    /// The filter/range registers written from SMPLRT_DIV on, then USER_CTRL = 0 and
    /// PWR_MGMT_1 = PLL clock (a reset, sleep or I2C master mode shows here).
    static func configurationIntact(bus: I2CBus, address: UInt8, buffer: RegisterBuffer,
                                    written: [UInt8]) throws(I2CError) -> Bool {
        guard !written.isEmpty else { return false }
        try bus.read(address: address, register: MPU6050Register.smplrtDiv, into: buffer.prefix(written.count))
        for i in 0..<written.count where buffer[i] != written[i] { return false }
        try bus.read(address: address, register: MPU6050Register.userCtrl, into: buffer.prefix(2))
        return buffer[0] == 0x00 && buffer[1] == MPU6050Register.clockPLLX
    }
}
