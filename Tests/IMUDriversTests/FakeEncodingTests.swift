import IMUDrivers
import MotionMath
import MotionSimulator
import Testing

/// The fakes against the datasheets directly (raw register bytes, no driver decoding):
/// byte order, two's complement, sensitivity, AK8963 adjustment, the LSM9DS1
/// magnetometer's own address and auto-increment bit.
@Suite struct FakeEncodingTests {
    @Test func mpu9250AccelerometerIsBigEndianAtTheWrittenScale() throws {
        let bus = FakeI2CBus()
        let chip = FakeMPU9250 { _ in PhysicalState(specificForce: Vector3(1, -1, 0.5), angularRate: Vector3(0, 0, -Double.pi / 180),
                                                    magneticField: .zero) }
        chip.install(on: bus)
        try bus.writeByte(address: 0x68, register: 0x1C, 0x00)   // ±2 g: 16384 LSB/g
        try bus.writeByte(address: 0x68, register: 0x1B, 0x00)   // ±250 °/s: 131 LSB per °/s
        let b = try bus.readBytes(address: 0x68, register: 0x3B, count: 14)
        #expect(Array(b[0..<6]) == [0x40, 0x00, 0xC0, 0x00, 0x20, 0x00])   // 16384, −16384, 8192
        #expect(Array(b[12..<14]) == [0xFF, 0x7D])                         // −131
        try bus.writeByte(address: 0x68, register: 0x1C, 0x18)   // ±16 g: 2048 LSB/g
        let c = try bus.readBytes(address: 0x68, register: 0x3B, count: 2)
        #expect(c == [0x08, 0x00])
    }

    @Test func ak8963IsHiddenUntilBypassAndAppliesTheFuseROM() throws {
        let bus = FakeI2CBus()
        let chip = FakeMPU9250(fuseROM: (128, 128, 255)) { _ in
            PhysicalState(specificForce: .zero, angularRate: .zero, magneticField: Vector3(15, -30, 45))
        }
        chip.install(on: bus)
        #expect(throws: I2CError.self) { try bus.readByte(address: 0x0C, register: 0x00) }
        try bus.writeByte(address: 0x68, register: 0x37, 0x02)
        #expect(try bus.readByte(address: 0x0C, register: 0x00) == 0x48)
        #expect(try bus.readBytes(address: 0x0C, register: 0x10, count: 3) == [0, 0, 0])   // fuse ROM needs its mode
        try bus.writeByte(address: 0x0C, register: 0x0A, 0x0F)
        #expect(try bus.readBytes(address: 0x0C, register: 0x10, count: 3) == [128, 128, 255])
        try bus.writeByte(address: 0x0C, register: 0x0A, 0x00)
        try bus.writeByte(address: 0x0C, register: 0x0A, 0x16)   // 16-bit, 100 Hz
        #expect(try bus.readByte(address: 0x0C, register: 0x02) & 0x01 == 0)   // nothing yet
        bus.advance(to: 0.01)
        let b = try bus.readBytes(address: 0x0C, register: 0x02, count: 8)
        #expect(b[0] & 0x01 == 1)
        // Die axes (Y, X, −Z) of the MPU frame: (−30, 15, −45) µT; X and Y adjust by 1, Z by
        // 1 + 127/256, so raw Z = −45 / 1.49609375 / 0.15 = −200.5… → −201; 0.15 µT counts, little-endian.
        #expect(Array(b[1..<7]) == [0x38, 0xFF, 0x64, 0x00, 0x37, 0xFF])
        #expect(b[7] == 0x10)   // ST2: BITM (16-bit), no overflow
        #expect(try bus.readByte(address: 0x0C, register: 0x02) & 0x01 == 0)   // read cycle ended
    }

    @Test func icm20948KeepsConfigurationInBankTwoAndSleepsAfterReset() throws {
        let bus = FakeI2CBus()
        let chip = FakeICM20948 { _ in PhysicalState(specificForce: Vector3(0, 0, 1), angularRate: .zero, magneticField: .zero) }
        chip.install(on: bus)
        #expect(try bus.readByte(address: 0x69, register: 0x00) == 0xEA)
        #expect(try bus.readByte(address: 0x69, register: 0x06) == 0x41)
        #expect(try bus.readBytes(address: 0x69, register: 0x31, count: 2) == [0, 0])   // asleep: no data
        try bus.writeByte(address: 0x69, register: 0x06, 0x01)
        try bus.writeByte(address: 0x69, register: 0x7F, 0x20)
        try bus.writeByte(address: 0x69, register: 0x14, 0x02 << 1 | 1)   // ±8 g: 4096 LSB/g
        #expect(try bus.readByte(address: 0x69, register: 0x00) == 0x00)   // bank 2 has no WHO_AM_I there
        try bus.writeByte(address: 0x69, register: 0x7F, 0x00)
        #expect(try bus.readBytes(address: 0x69, register: 0x31, count: 2) == [0x10, 0x00])
    }

    @Test func lsm9ds1MagnetometerAutoIncrementsOnlyWithTheAddressMSB() throws {
        let bus = FakeI2CBus()
        let chip = FakeLSM9DS1 { _ in PhysicalState(specificForce: Vector3(1, 0, 0), angularRate: .zero,
                                                    magneticField: Vector3(14, -28, 0)) }
        chip.install(on: bus)
        #expect(try bus.readByte(address: 0x1E, register: 0x0F) == 0x3D)
        #expect(try bus.readByte(address: 0x6B, register: 0x0F) == 0x68)
        try bus.writeByte(address: 0x1E, register: 0x20, 0x1C)   // 80 Hz
        try bus.writeByte(address: 0x1E, register: 0x22, 0x00)   // continuous, ±4 gauss
        bus.advance(to: 0.0125)
        let b = try bus.readBytes(address: 0x1E, register: 0x27 | 0x80, count: 7)
        #expect(b[0] & 0x08 != 0)
        // Die X is −(accel X): −14 µT = −140 mgauss = −1000 counts of 0.14; Y −28 µT = −2000 counts.
        #expect(Array(b[1..<5]) == [0x18, 0xFC, 0x30, 0xF8])
        bus.advance(to: 0.025)
        let repeated = try bus.readBytes(address: 0x1E, register: 0x28, count: 3)
        #expect(repeated[0] == repeated[1] && repeated[1] == repeated[2])   // no MSB: same register
        // Accelerometer/gyroscope: ±2 g after power-on; ODR set, 1 g = 1000 / 0.061 = 16393 counts.
        try bus.writeByte(address: 0x6B, register: 0x20, 0x60)
        #expect(try bus.readBytes(address: 0x6B, register: 0x28, count: 2) == [0x09, 0x40])
    }
}
