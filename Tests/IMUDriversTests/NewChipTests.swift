import IMUDrivers
import MotionCore
import MotionMath
import MotionSimulator
import Testing

/// The fakes of the new chips encode what their datasheets say (checked byte by byte
/// here, without the drivers), and what is particular to each driver.
@Suite struct NewChipEncodingTests {
    static let state = PhysicalState(specificForce: Vector3(0.5, -0.25, 1), angularRate: Vector3(0, Double.pi / 180 * 100, 0),
                                     magneticField: Vector3(30, -20, 45))

    @Test func mpu6050IsAsleepAtPowerOnAndBigEndian() throws {
        let bus = FakeI2CBus(), chip = FakeMPU6050 { _ in Self.state }
        bus.attach(chip, at: 0x68)
        #expect(try bus.readByte(address: 0x68, register: 0x6B) == 0x40)
        try bus.writeByte(address: 0x68, register: 0x6B, 0x01)
        try bus.writeByte(address: 0x68, register: 0x1C, 0x08)   // ±4 g: 8192 LSB/g
        let a = try bus.readBytes(address: 0x68, register: 0x3B, count: 6)
        #expect(a == [0x10, 0x00, 0xF8, 0x00, 0x20, 0x00])   // 4096, −2048, 8192
    }

    @Test func qmc5883lLittleEndianAt3000LSBPerGaussAndDRDY() throws {
        let bus = FakeI2CBus(), chip = FakeQMC5883L { _ in Self.state }
        bus.attach(chip, at: 0x0D)
        #expect(try bus.readByte(address: 0x0D, register: 0x0D) == 0xFF)
        try bus.writeByte(address: 0x0D, register: 0x09, 0x19)   // OSR 512, ±8 G, 100 Hz, continuous
        bus.advance(to: 0.011)
        #expect(try bus.readByte(address: 0x0D, register: 0x06) & 0x01 == 0x01)
        // 30 µT = 0.3 G × 3000 = 900 = 0x0384; −20 µT = −600 = 0xFDA8; 45 µT = 1350 = 0x0546.
        #expect(try bus.readBytes(address: 0x0D, register: 0x00, count: 6) == [0x84, 0x03, 0xA8, 0xFD, 0x46, 0x05])
        #expect(try bus.readByte(address: 0x0D, register: 0x06) & 0x01 == 0)   // reading the data cleared DRDY
    }

    @Test func hmc5883lBigEndianXZYAndTheSingleMeasurement() throws {
        let bus = FakeI2CBus(), chip = FakeHMC5883L { _ in Self.state }
        bus.attach(chip, at: 0x1E)
        #expect(try bus.readBytes(address: 0x1E, register: 0x0A, count: 3) == Array("H43".utf8))
        try bus.writeByte(address: 0x1E, register: 0x01, 0x20)   // gain 1090 LSB/Ga
        try bus.writeByte(address: 0x1E, register: 0x02, 0x01)   // single measurement (6.25 ms)
        #expect(try bus.readBytes(address: 0x1E, register: 0x03, count: 6) == [0, 0, 0, 0, 0, 0])   // not done yet
        bus.advance(to: 0.01)
        // X 0.30 Ga → 327 (0x0147), Z 0.45 Ga → 490.5 → 491 (0x01EB), Y −0.20 Ga → −218 (0xFF26).
        #expect(try bus.readBytes(address: 0x1E, register: 0x03, count: 6) == [0x01, 0x47, 0x01, 0xEB, 0xFF, 0x26])
        #expect(try bus.readByte(address: 0x1E, register: 0x02) & 0x03 == 0x03)   // idle once done
        // Reading the mode register locks the data: a measurement finishing meanwhile is not placed.
        try bus.writeByte(address: 0x1E, register: 0x02, 0x01)
        _ = try bus.readByte(address: 0x1E, register: 0x02)
        chip.truth = { _ in PhysicalState(specificForce: .zero, angularRate: .zero, magneticField: .zero) }
        bus.advance(to: 0.02)
        #expect(try bus.readBytes(address: 0x1E, register: 0x03, count: 2) == [0x01, 0x47])
    }

    @Test func lis3mdlAt6842LSBPerGauss() throws {
        let bus = FakeI2CBus(), chip = FakeLIS3MDL { _ in Self.state }
        bus.attach(chip, at: 0x1C)
        try bus.writeByte(address: 0x1C, register: 0x22, 0x00)   // continuous, 10 Hz (power-on DO)
        bus.advance(to: 0.2)
        let b = try bus.readBytes(address: 0x1C, register: 0x28 | 0x80, count: 2)
        #expect(Int16(bitPattern: UInt16(b[1]) << 8 | UInt16(b[0])) == 2053)   // 0.3 gauss × 6842 = 2052.6
    }

    @Test func lsm6dsoxGyroFirstAndFS125() throws {
        let bus = FakeI2CBus(), chip = FakeLSM6DSOX { _ in Self.state }
        bus.attach(chip, at: 0x6A)
        try bus.writeByte(address: 0x6A, register: 0x11, 0x42)   // 104 Hz, ±125 °/s: 4.375 m°/s per LSB
        let g = try bus.readBytes(address: 0x6A, register: 0x22, count: 4)
        #expect(Int16(bitPattern: UInt16(g[3]) << 8 | UInt16(g[2])) == 22857)   // 100 °/s ÷ 4.375 m°/s
    }

    @Test func icm42688ReadsMinus32768WhileOffAndHonoursItsEndianness() throws {
        let bus = FakeI2CBus(), chip = FakeICM42688 { _ in Self.state }
        bus.attach(chip, at: 0x68)
        #expect(try bus.readBytes(address: 0x68, register: 0x1F, count: 2) == [0x80, 0x00])
        try bus.writeByte(address: 0x68, register: 0x4E, 0x0F)
        try bus.writeByte(address: 0x68, register: 0x50, 0x66)   // ±2 g: 16384 LSB/g
        #expect(try bus.readBytes(address: 0x68, register: 0x1F, count: 2) == [0x20, 0x00])   // 8192
        try bus.writeByte(address: 0x68, register: 0x4C, 0x20)   // DATA_ENDIAN 0: little-endian
        #expect(try bus.readBytes(address: 0x68, register: 0x1F, count: 2) == [0x00, 0x20])
    }

    @Test func bno055ZeroInConfigModeThenUnitsAndAxisMap() throws {
        let bus = FakeI2CBus(), chip = FakeBNO055 { _ in Self.state }
        bus.attach(chip, at: 0x28)
        #expect(try bus.readBytes(address: 0x28, register: 0x08, count: 2) == [0, 0])
        try bus.writeByte(address: 0x28, register: 0x3D, 0x07)   // AMG, power-on units: m/s², °/s
        let a = try bus.readBytes(address: 0x28, register: 0x08, count: 2)
        #expect(Int16(bitPattern: UInt16(a[1]) << 8 | UInt16(a[0])) == 490)   // 0.5 g = 4.903 m/s² × 100
        let g = try bus.readBytes(address: 0x28, register: 0x16, count: 2)
        #expect(Int16(bitPattern: UInt16(g[1]) << 8 | UInt16(g[0])) == 1600)  // 100 °/s × 16
        try bus.writeByte(address: 0x28, register: 0x3D, 0x00)
        try bus.writeByte(address: 0x28, register: 0x41, 0x21)   // X ← Y, Y ← X, Z ← Z
        try bus.writeByte(address: 0x28, register: 0x3B, 0x01)   // mg
        try bus.writeByte(address: 0x28, register: 0x3D, 0x07)
        let x = try bus.readBytes(address: 0x28, register: 0x08, count: 2)
        #expect(Int16(bitPattern: UInt16(x[1]) << 8 | UInt16(x[0])) == -250)   // chip Y in mg
    }
}

@Suite struct NewChipDriverTests {
    @Test("a GY-87: the magnetometer behind the MPU-6050 answers once the driver opened the bypass",
          arguments: [IMUSelection.mpu6050HMC, .mpu6050QMC])
    func magnetometerBehindTheMPU6050(selection: IMUSelection) throws {
        let h = Harness(selection, truth: FaultTests.truth, magBehindHost: true)
        #expect(throws: I2CError.self) { try h.bus.readByte(address: h.magAddress, register: 0x00) }
        try h.start()
        let readings = h.ticks(100)
        #expect(readings.filter { $0.mag != nil }.count >= 95)
        #expect(h.driver.health == SensorHealth())
    }

    @Test("the magnetometer chip's own mount is applied to M rows")
    func magnetometerMount() throws {
        let mount = try MountOrientation(["+x", "+y", "+z"]), magMount = try MountOrientation(["-y", "+x", "+z"])
        let device = (accel: Vector3(0, 0, -1), gyro: Vector3.zero, mag: Vector3(12, 25, -40))
        let h = Harness(.lsm6dsoxLIS3MDL, options: IMUOptions(mount: mount, magMount: magMount),
                        truth: ChipFrameTruth.fromDevice(mount: mount) { _ in device },
                        magTruth: ChipFrameTruth.fromDevice(mount: magMount) { _ in device })
        try h.start()
        let m = try #require(h.ticks(5).compactMap(\.mag).last)
        #expect(maxAbs(m - device.mag) <= Resolution.mag(.lsm6dsoxLIS3MDL))
    }

    @Test("HMC5883L configured, QMC5883L fitted (and the other way round): the error says which to use")
    func lookAlike() throws {
        let bus = FakeI2CBus()
        bus.attach(FakeMPU6050(), at: 0x68)
        bus.attach(FakeQMC5883L(), at: 0x0D)
        let driver = IMUDriver(selection: IMUSelection(.mpu6050, .hmc5883l), bus: bus, pause: { _ in })
        let error = try #require(throws: IMUError.self) { try driver.start(rateHz: 100) }
        #expect(error.description.contains("QMC5883L answers at 0x0D") && error.description.contains("qmc5883l"))
        let other = FakeI2CBus()
        other.attach(FakeMPU6050(), at: 0x68)
        other.attach(FakeHMC5883L(), at: 0x1E)
        let qmc = IMUDriver(selection: IMUSelection(.mpu6050, .qmc5883l), bus: other, pause: { _ in })
        let e2 = try #require(throws: IMUError.self) { try qmc.start(rateHz: 100) }
        #expect(e2.description.contains("HMC5883L answers at 0x1E"))
    }

    @Test("an accelerometer/gyroscope chip alone: A and G rows, no M rows, no magnetometer trouble")
    func withoutMagnetometer() throws {
        let h = Harness(IMUSelection(.icm42688), truth: FaultTests.truth)
        try h.start()
        let readings = h.ticks(200)
        #expect(readings.allSatisfy { $0.accel != nil && $0.gyro != nil && $0.mag == nil })
        #expect(h.driver.health == SensorHealth())
        #expect(h.driver.info.magRateHz == nil)
    }

    @Test("the ISM330DHCX (LSM6DSOX family) is told apart by WHO_AM_I and offers ±4000 °/s")
    func ism330dhcx() throws {
        let bus = FakeI2CBus()
        bus.attach(FakeLSM6DSOX(identity: 0x6B) { _ in .faceUpAtRest }, at: 0x6A)
        let driver = IMUDriver(selection: IMUSelection(.lsm6dsox), bus: bus, options: IMUOptions(gyroRangeDegPerSec: 4000),
                               pause: { _ in })
        try driver.start(rateHz: 100)
        #expect(driver.info.model.hasPrefix("ISM330DHCX"))
        #expect(driver.info.gyroRangeDegPerSec == 4000)
    }

    @Test("a failing magnetometer chip counts its own gaps; the accelerometer/gyroscope goes on",
          arguments: Chips.composite)
    func magnetometerGaps(selection: IMUSelection) throws {
        let h = Harness(selection, truth: FaultTests.truth)
        try h.start()
        _ = h.ticks(50)
        h.bus.faults.nack.insert(h.magAddress)
        let outage = h.ticks(300)
        #expect(outage.allSatisfy { $0.accel != nil && $0.gyro != nil && $0.mag == nil })
        let health = h.driver.health
        #expect(health.gapTicks == 0)
        // About one missed sample per magnetometer period over the 3 s outage.
        let expected = 3 * min(100, try #require(h.driver.info.magRateHz))
        #expect(Double(health.magGapTicks) >= 0.9 * expected && Double(health.magGapTicks) <= 1.05 * expected,
                "\(health.magGapTicks) for \(expected)")
    }

    @Test("probe: each new chip with its identity, and the auto choice pairs a magnetometer", arguments: [
        (IMUSelection.mpu6050QMC, [UInt8(0x0D), 0x68]), (.mpu6050HMC, [0x1E, 0x68]), (.lsm6dsoxLIS3MDL, [0x1C, 0x6A]),
        (.icm42688QMC, [0x0D, 0x68]), (.bno055, [0x28]),
    ])
    func probeFinds(selection: IMUSelection, addresses: [UInt8]) throws {
        let bus = FakeI2CBus()
        let board = FakeIMUBoard(selection, bus: bus, truth: { _ in .faceUpAtRest })
        board.install()
        let results = probe(bus: bus)
        #expect(results.map(\.address) == addresses, "\(results)")
        #expect(DetectedIMU(results) == DetectedIMU(selection: selection, address: board.address,
                                                    magAddress: selection.magnetometer == nil ? nil : board.magAddress))
    }

    @Test("probe --open-bypass reveals the magnetometer behind an MPU-6050")
    func probeOpensTheBypass() throws {
        let bus = FakeI2CBus()
        let board = FakeIMUBoard(.mpu6050HMC, bus: bus, truth: { _ in .faceUpAtRest }, magBehindHost: true)
        board.install()
        #expect(DetectedIMU(probe(bus: bus))?.selection == IMUSelection(.mpu6050))
        let opened = probe(bus: bus, openingBypass: true)
        #expect(opened.contains { $0.address == 0x1E && $0.chip == "HMC5883L magnetometer" })
        #expect(DetectedIMU(opened) == DetectedIMU(selection: .mpu6050HMC, address: 0x68, magAddress: 0x1E))
    }
}
