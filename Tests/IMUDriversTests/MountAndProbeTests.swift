import IMUDrivers
import MotionMath
import MotionSimulator
import Testing

@Suite struct MountOrientationTests {
    @Test func parsesAndMaps() throws {
        let m = try MountOrientation(["-y", "+x", "+z"])
        #expect(m.toDevice(Vector3(1, 2, 3)) == Vector3(-2, 1, 3))
        #expect(m.toChip(Vector3(-2, 1, 3)) == Vector3(1, 2, 3))
        #expect(m.axes == ["-y", "+x", "+z"])
    }

    @Test("all 24 proper rotations invert exactly")
    func allRotations() throws {
        var count = 0
        for p in [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]] {
            for s in 0..<8 {
                let axes = (0..<3).map { (s >> $0 & 1 == 1 ? "-" : "+") + ["x", "y", "z"][p[$0]] }
                guard let m = try? MountOrientation(axes) else { continue }
                count += 1
                let v = Vector3(0.3, -1.7, 2.9)
                #expect(m.toChip(m.toDevice(v)) == v)
                #expect(m.matrix * v == m.toDevice(v))
                #expect(abs(m.matrix.determinant - 1) < 1e-12)
            }
        }
        #expect(count == 24)
    }

    @Test("invalid mounts are rejected with a clear message", arguments: [
        (["+x", "+y"], "three axes"), (["+x", "+y", "+w"], "\"+w\""), (["+x", "-x", "+z"], "twice"),
        (["+x", "+y", "-z"], "mirror"), (["x", "+y", "+z"], "\"x\""),
    ])
    func invalid(axes: [String], mentions: String) {
        #expect {
            _ = try MountOrientation(axes)
        } throws: { error in
            String(describing: error).contains(mentions)
        }
    }

    @Test("the driver turns chip axes into device axes", arguments: Chips.all)
    func driverMount(model: IMUSelection) throws {
        let mount = try MountOrientation(["-y", "+x", "+z"])
        let device = (accel: Vector3(0.1, -0.5, -0.85), gyro: Vector3(0.7, -0.2, 0.05), mag: Vector3(12, 25, -40))
        let truth = ChipFrameTruth.fromDevice(mount: mount) { _ in device }
        let h = Harness(model, options: IMUOptions(mount: mount), truth: truth)
        try h.start()
        let r = h.ticks(5).last
        let a = try #require(r?.accel), g = try #require(r?.gyro), m = try #require(r?.mag)
        #expect(maxAbs(a - device.accel) <= Resolution.accel(model, range: 16))
        #expect(maxAbs(g - device.gyro) <= Resolution.gyro(model, range: model == .lsm9ds1 ? 2000 : 2000))
        #expect(maxAbs(m - device.mag) <= Resolution.mag(model))
    }
}

@Suite struct ProbeTests {
    @Test func findsEachChipWithItsIdentity() throws {
        let bus = FakeI2CBus()
        FakeMPU9250().install(on: bus, address: 0x68)
        FakeLSM9DS1().install(on: bus, address: 0x6A, magAddress: 0x1C)
        let results = probe(bus: bus)
        #expect(results.map(\.address) == [0x1C, 0x68, 0x6A])
        #expect(results.map(\.chip) == ["LSM9DS1 magnetometer", "MPU-9250", "LSM9DS1 accelerometer/gyroscope"])
        #expect(results.map(\.identity) == [0x3D, 0x71, 0x68])
        #expect(results[1].model == .mpu9250)
        #expect(DetectedIMU(results) == DetectedIMU(probeModel: .mpu9250, address: 0x68))
    }

    @Test func findsTheICM20948ByItsBankZeroIdentity() throws {
        let bus = FakeI2CBus()
        FakeICM20948().install(on: bus, address: 0x69)
        let results = probe(bus: bus)
        #expect(results.count == 1)
        #expect(results.first?.chip == "ICM-20948" && results.first?.identity == 0xEA && results.first?.model == .icm20948)
    }

    @Test func theMagnetometerBehindTheBypassShowsOnceOpened() throws {
        let bus = FakeI2CBus()
        let chip = FakeMPU9250()
        chip.install(on: bus)
        #expect(!probe(bus: bus).contains { $0.address == 0x0C })
        try bus.writeByte(address: 0x68, register: 0x37, 0x02)
        #expect(probe(bus: bus).contains { $0.address == 0x0C && $0.chip.hasPrefix("AK8963") })
    }

    @Test func unknownAndUnsupportedDevicesAreListedAsSuch() throws {
        let bus = FakeI2CBus()
        FakeMPU9250(identity: 0x70).install(on: bus, address: 0x68)
        FakeLSM9DS1(identity: 0x42).install(on: bus)
        let results = probe(bus: bus)
        #expect(results.contains { $0.address == 0x68 && $0.chip.contains("MPU-6500") && $0.model == nil })
        #expect(results.contains { $0.address == 0x6B && $0.chip == "unknown device" && $0.identity == 0x42 })
        #expect(DetectedIMU(results) == nil)
    }

    @Test func anEmptyOrBrokenBus() throws {
        let bus = FakeI2CBus()
        #expect(probe(bus: bus).isEmpty)
        FakeLSM9DS1().install(on: bus)
        bus.faults.ioErrors = 1
        bus.faults.ioErrorAddress = 0x1E
        let results = probe(bus: bus)
        #expect(results.contains { $0.address == 0x1E && $0.problem != nil })
        #expect(DetectedIMU(results) == DetectedIMU(probeModel: .lsm9ds1, address: 0x6B, magAddress: nil))
    }

    @Test func autoDetectionFindsTheLSM9DS1MagnetometerAddress() throws {
        let bus = FakeI2CBus()
        FakeLSM9DS1().install(on: bus, address: 0x6A, magAddress: 0x1C)
        #expect(DetectedIMU(probe(bus: bus)) == DetectedIMU(probeModel: .lsm9ds1, address: 0x6A, magAddress: 0x1C))
    }
}

@Suite struct CalibrationTests {
    @Test func fromConfigListsAndCorrections() throws {
        let c = try IMUCalibration.from(gyroBias: [0.01, -0.02, 0.03], magHardIron: [10, -5, 2],
                                        magSoftIron: [[2, 0, 0], [0, 1, 0], [0, 0, 0.5]], accelOffset: [0.01, 0, 0],
                                        accelScale: [1, 1, 2])
        #expect(c.correctedGyro(Vector3(0.01, -0.02, 0.03)) == .zero)
        #expect(c.correctedMag(Vector3(11, -5, 4)) == Vector3(2, 0, 1))
        #expect(c.correctedAccel(Vector3(0.01, 0, -1)) == Vector3(0, 0, -2))
        #expect(try IMUCalibration.from(gyroBias: nil, magHardIron: nil, magSoftIron: nil, accelOffset: nil, accelScale: nil) == .none)
    }

    @Test func wrongShapesNameTheKey() {
        #expect(throws: CalibrationShapeError(key: "gyro_bias")) {
            try IMUCalibration.from(gyroBias: [1, 2], magHardIron: nil, magSoftIron: nil, accelOffset: nil, accelScale: nil)
        }
        #expect(throws: CalibrationShapeError(key: "mag_soft_iron")) {
            try IMUCalibration.from(gyroBias: nil, magHardIron: nil, magSoftIron: [[1, 0, 0], [0, 1]], accelOffset: nil, accelScale: nil)
        }
    }
}

@Suite struct I2CErrorTests {
    @Test func messagesNameBusAddressRegisterAndErrno() {
        let e = I2CError(kind: .noAcknowledge, bus: "/dev/i2c-1", operation: .read(count: 14), address: 0x68,
                         register: 0x3B, errno: 121, systemMessage: "Remote I/O error")
        #expect(e.description == "I2C read of 14 bytes at register 0x3B of device 0x68 on /dev/i2c-1 failed: "
                + "no acknowledge (NACK) (errno 121: Remote I/O error). " + e.advice)
        #expect(e.advice.contains("motionlog probe"))
    }
}
