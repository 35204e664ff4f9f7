import IMUDrivers
import MotionMath
import MotionSimulator
import Testing

/// What bring-up writes: output data rate and low-pass filter for the tick rate, as read
/// back from the fake's registers, and what `info` reports.
@Suite struct SetupTests {
    @Test("MPU-9250 at 100 Hz: SMPLRT_DIV 9, DLPF 3 (41/44.8 Hz), bypass on")
    func mpu9250() throws {
        let h = Harness(.mpu9250, rateHz: 100) { _ in .faceUpAtRest }
        try h.start()
        let r = try h.bus.readBytes(address: 0x68, register: 0x19, count: 5)
        #expect(r == [9, 3, 0x18, 0x18, 3])
        #expect(try h.bus.readByte(address: 0x68, register: 0x37) == 0x02)
        #expect(try h.bus.readByte(address: 0x0C, register: 0x0A) == 0x16)
        let info = h.driver.info
        #expect(info.accelRateHz == 100 && info.magRateHz == 100)
        #expect(info.notes.contains { $0.contains("gyro 41 Hz") })
        #expect(info.model.contains("0x68"))
    }

    @Test("MPU-9250 at 500 Hz: SMPLRT_DIV 1, DLPF 1 (184/218 Hz, under 250 Hz)")
    func mpu9250Fast() throws {
        let h = Harness(.mpu9250, rateHz: 500) { _ in .faceUpAtRest }
        try h.start()
        #expect(try h.bus.readBytes(address: 0x68, register: 0x19, count: 2) == [1, 1])
        let slow = Harness(.mpu9250, rateHz: 50) { _ in .faceUpAtRest }
        try slow.start()
        #expect(try slow.bus.readBytes(address: 0x68, register: 0x19, count: 2) == [19, 4])   // 50 Hz: 20/21.2 Hz
    }

    @Test("ICM-20948 at 100 Hz: dividers 10, filters at or below Nyquist, back in bank 0")
    func icm20948() throws {
        let h = Harness(.icm20948, rateHz: 100) { _ in .faceUpAtRest }
        try h.start()
        #expect(try h.bus.readByte(address: 0x69, register: 0x7F) == 0x00)
        try h.bus.writeByte(address: 0x69, register: 0x7F, 0x20)
        let gyro = try h.bus.readBytes(address: 0x69, register: 0x00, count: 2)
        let accel = try h.bus.readBytes(address: 0x69, register: 0x10, count: 5)
        try h.bus.writeByte(address: 0x69, register: 0x7F, 0x00)
        #expect(gyro == [10, 4 << 3 | 3 << 1 | 1])            // 100 Hz, 23.9 Hz, ±2000 °/s
        #expect(accel[0] == 0 && accel[1] == 10)                // 102.3 Hz
        #expect(accel[4] == 3 << 3 | 3 << 1 | 1)                // 50.4 Hz, ±16 g
        #expect(h.driver.info.gyroRateHz == 100)
    }

    @Test("LSM9DS1 at 100 Hz: ODR 119 Hz, auto-increment and block update, magnetometer 80 Hz continuous")
    func lsm9ds1() throws {
        let h = Harness(.lsm9ds1, rateHz: 100) { _ in .faceUpAtRest }
        try h.start()
        #expect(try h.bus.readByte(address: 0x6B, register: 0x10) == 3 << 5 | 3 << 3 | 3)
        #expect(try h.bus.readByte(address: 0x6B, register: 0x22) == 0x44)
        #expect(try h.bus.readBytes(address: 0x1E, register: 0x20 | 0x80, count: 3) == [0xFC, 0x00, 0x00])
        #expect(h.driver.info.accelRateHz == 119)
    }

    @Test("the chip's address is found among its usual ones", arguments: [
        (IMUSelection.mpu9250, UInt8(0x69)), (.icm20948, 0x68), (.lsm9ds1, 0x6A), (.mpu6050QMC, 0x69), (.lsm6dsoxLIS3MDL, 0x6B),
        (.icm42688QMC, 0x69), (.bno055, 0x29),
    ])
    func alternateAddress(model: IMUSelection, address: UInt8) throws {
        let h = Harness(model, truth: { _ in .faceUpAtRest }, install: false)
        switch h.chip {
        case let c as FakeMPU9250: c.install(on: h.bus, address: address)
        case let c as FakeICM20948: c.install(on: h.bus, address: address)
        case let c as FakeLSM9DS1: c.install(on: h.bus, address: address, magAddress: 0x1C)
        default:
            h.bus.attach(h.chip, at: address)
            if let m = h.board.magnetometer, let a = h.board.magAddress { h.bus.attach(m, at: a) }
        }
        try h.start()
        #expect(h.driver.info.model.contains(Hex.byte(address)))
        #expect(h.ticks(3).last?.accel != nil)
    }
}
