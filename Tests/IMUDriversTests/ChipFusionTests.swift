import Foundation
import IMUDrivers
import MotionCore
import MotionMath
import MotionSimulator
import Testing

/// The BNO055's own fusion (NDOF): the fake's new registers byte by byte as the datasheet
/// encodes them (without the driver), the driver's decoding of them within one LSB through
/// mounts and attitudes, and faults in fusion mode.
@Suite struct ChipFusionEncodingTests {
    static func word(_ b: [UInt8], _ i: Int) -> Int { Int(Int16(bitPattern: UInt16(b[i + 1]) << 8 | UInt16(b[i]))) }
    /// The little-endian words of a burst.
    static func words(_ b: [UInt8]) -> [Int] { stride(from: 0, to: b.count - 1, by: 2).map { (i: Int) in word(b, i) } }

    /// Turned 60° counter-clockwise about the vertical, lying still face up: specific force
    /// (0.5, −0.25, 1) g, 100 °/s about Y of which 10 °/s is offset, gravity +1 g on Z.
    static let state: PhysicalState = {
        let attitude = Quaternion(axis: Vector3(0, 0, 1), angle: Double.pi / 3)
        return PhysicalState(specificForce: Vector3(0.5, -0.25, 1), angularRate: Vector3(0, Double.pi / 180 * 100, 0),
                             magneticField: Vector3(30, -20, 45),
                             orientation: OrientationTruth(attitude: attitude, gravity: Vector3(0, 0, 1),
                                                           gyroOffset: Vector3(0, Double.pi / 180 * 10, 0),
                                                           magOffset: Vector3(10, 0, 5)))
    }()

    @Test func ndofRegistersAsTheDatasheetSays() throws {
        let bus = FakeI2CBus(), chip = FakeBNO055 { _ in Self.state }
        bus.attach(chip, at: 0x28)
        #expect(try bus.readByte(address: 0x28, register: 0x35) == 0)             // CALIB_STAT: 0 in CONFIGMODE
        try bus.writeByte(address: 0x28, register: 0x3D, 0x0C)                    // NDOF, power-on units: m/s²
        // Within the 7 ms switching time (Table 3-6) the fusion has no output yet.
        #expect(try bus.readBytes(address: 0x28, register: 0x20, count: 20) == [UInt8](repeating: 0, count: 20))
        bus.advance(to: 0.01)
        // Quaternion at 2^14 LSB per unit: w = cos 30° → 14189 (0x376D), z = sin 30° → 8192 (0x2000).
        #expect(try bus.readBytes(address: 0x28, register: 0x20, count: 8) == [0x6D, 0x37, 0, 0, 0, 0, 0x00, 0x20])
        // Linear acceleration (0.5, −0.25, 0) g in m/s² × 100: 490 (0x01EA), −245 (0xFF0B), 0.
        #expect(try bus.readBytes(address: 0x28, register: 0x28, count: 6) == [0xEA, 0x01, 0x0B, 0xFF, 0, 0])
        // Gravity 1 g = 9.80665 m/s² → 981 (0x03D5) on Z, the accelerometer's sign.
        #expect(try bus.readBytes(address: 0x28, register: 0x2E, count: 6) == [0, 0, 0, 0, 0xD5, 0x03])
        // Offset-compensated gyroscope: 90 °/s × 16 = 1440 (0x05A0); CALIB_STAT as set.
        #expect(try bus.readBytes(address: 0x28, register: 0x16, count: 2) == [0xA0, 0x05])
        #expect(try bus.readByte(address: 0x28, register: 0x35) == 0xFF)
        chip.calibrationStatus = 0x3C
        #expect(try bus.readByte(address: 0x28, register: 0x35) == 0x3C)
        // In mg: the same vectors at 1 LSB per mg.
        try bus.writeByte(address: 0x28, register: 0x3D, 0x00)
        try bus.writeByte(address: 0x28, register: 0x3B, 0x01)
        try bus.writeByte(address: 0x28, register: 0x3D, 0x0C)
        bus.advance(to: 0.02)
        let b = try bus.readBytes(address: 0x28, register: 0x28, count: 12)
        let expected: [Int] = [500, -250, 0, 0, 0, 1000]
        #expect(Self.words(b) == expected)
    }

    @Test func ndofFixesTheRangesAndRemapsTheAttitude() throws {
        var s = Self.state
        s.specificForce = Vector3(6, 0, 1)
        let bus = FakeI2CBus(), chip = FakeBNO055 { _ in s }
        bus.attach(chip, at: 0x28)
        try bus.writeByte(address: 0x28, register: 0x07, 0x01)
        try bus.writeByte(address: 0x28, register: 0x08, 0x0F)                    // ±16 g: ignored in NDOF
        try bus.writeByte(address: 0x28, register: 0x07, 0x00)
        try bus.writeByte(address: 0x28, register: 0x3B, 0x01)                    // mg
        try bus.writeByte(address: 0x28, register: 0x41, 0x21)                    // X ← Y, Y ← X, Z ← Z …
        try bus.writeByte(address: 0x28, register: 0x42, 0x01)                    // … Z negated: a proper rotation
        try bus.writeByte(address: 0x28, register: 0x3D, 0x0C)
        bus.advance(to: 0.01)
        let acc = try bus.readBytes(address: 0x28, register: 0x08, count: 6)
        let clipped: [Int] = [0, 4000, -1000]
        #expect(Self.words(acc) == clipped)   // clipped at ±4 g
        let q = try bus.readBytes(address: 0x28, register: 0x20, count: 8)
        let attitude = Quaternion(w: Double(Self.word(q, 0)), x: Double(Self.word(q, 2)), y: Double(Self.word(q, 4)),
                                  z: Double(Self.word(q, 6))).normalized
        // The remapped frame's X axis is the chip's Y axis: the same direction in the world.
        let chipY = Self.state.orientation?.attitude.rotate(Vector3(0, 1, 0)) ?? .zero
        #expect(maxAbs(attitude.rotate(Vector3(1, 0, 0)) - chipY) < 3e-4)
        let grv = try bus.readBytes(address: 0x28, register: 0x2E, count: 6)
        let down: [Int] = [0, 0, -1000]
        #expect(Self.words(grv) == down)
    }
}

@Suite struct ChipFusionDriverTests {
    /// A still chip at `attitude` (chip → ENU) with small deterministic noise, so samples
    /// differ from tick to tick as a real chip's do.
    static func still(_ attitude: Quaternion, offsets: Bool = true) -> PhysicalTruth {
        let o = OrientationTruth(attitude: attitude, gravity: attitude.inverseRotate(Vector3(0, 0, 1)),
                                 gyroOffset: offsets ? Vector3(0.01, -0.02, 0.005) : .zero,
                                 magOffset: offsets ? Vector3(12, -7, 20) : .zero)
        let field = attitude.inverseRotate(EarthField().enu)
        return { t in
            let wobble = Vector3(sin(37 * t), cos(23 * t), sin(11 * t + 1))
            return PhysicalState(specificForce: o.gravity + wobble * 0.003, angularRate: o.gyroOffset + wobble * 0.002,
                                 magneticField: field + o.magOffset + wobble * 0.4, orientation: o)
        }
    }

    static let mounts: [[String]] = [["+x", "+y", "+z"], ["-y", "+x", "+z"], ["+x", "-y", "-z"], ["+z", "+x", "+y"]]
    static let attitudes: [Quaternion] = [
        .identity,
        Quaternion(axis: Vector3(0, 0, 1), angle: 2.0),
        Quaternion(axis: Vector3(1, 0, 0), angle: 0.6) * Quaternion(axis: Vector3(0, 1, 0), angle: -1.1),
        Quaternion(axis: Vector3(0.3, -0.5, 0.8), angle: 2.9),
    ]

    @Test("NDOF output round trip within one LSB: attitude, gravity, linear acceleration, rate, through each mount",
          arguments: mounts)
    func roundTrip(mountText: [String]) throws {
        let mount = try MountOrientation(mountText)
        for attitude in Self.attitudes {
            let truth = Self.still(attitude)
            let h = Harness(.bno055, options: IMUOptions(mount: mount, chipFusion: true), truth: truth)
            try h.start()
            #expect(h.recordedPauses.contains(0.007))
            let first = h.tick()
            #expect(first.accel != nil && first.chipFusion == nil)       // tick 0: within the switching time
            #expect(h.driver.health.fusionNotReady == 1)
            for _ in 0..<5 {
                let t = h.elapsed
                let r = h.tick()
                let f = try #require(r.chipFusion)
                let s = truth(t), o = try #require(s.orientation)
                // Each device axis points where the chip axis it is mounted on points.
                for i in 0..<3 {
                    var e = Vector3.zero
                    e[i] = 1
                    #expect(maxAbs(f.attitude.rotate(e) - o.attitude.rotate(mount.toChip(e))) <= 4.0 / 16384,
                            "\(mountText) \(attitude) axis \(i)")
                }
                #expect(abs(f.attitude.norm - 1) < 1e-12)
                // Gravity (format sign) and user acceleration in g: 1 mg per LSB, rounded.
                #expect(maxAbs(f.gravity + mount.toDevice(o.gravity)) <= 0.5e-3 + 1e-12)
                let clipped = Vector3(max(-4, min(4, s.specificForce.x)), max(-4, min(4, s.specificForce.y)),
                                      max(-4, min(4, s.specificForce.z)))
                #expect(maxAbs(f.userAcceleration + mount.toDevice(clipped - o.gravity)) <= 0.5e-3 + 1e-12)
                #expect(maxAbs(f.rotationRate - mount.toDevice(s.angularRate - o.gyroOffset))
                        <= Resolution.gyro(.bno055, range: 2000) / 2 + 1e-12)
                // G rows are the same compensated rate; A rows the same clipped specific force.
                #expect(r.gyro == f.rotationRate)
                #expect(maxAbs(try #require(r.accel) + mount.toDevice(clipped)) <= 0.5e-3 + 1e-12)
            }
        }
    }

    @Test func ndofSettingsAndMetadata() throws {
        let h = Harness(.bno055, options: IMUOptions(chipFusion: true), truth: Self.still(.identity))
        let chip = try #require(h.chip as? FakeBNO055)
        chip.calibrationStatus = 0x3F
        try h.start()
        let info = h.driver.info
        #expect(info.accelRangeG == 4 && info.gyroRangeDegPerSec == 2000 && info.magRateHz == 20)
        #expect(info.model.contains("NDOF"))
        let fusion = try #require(h.driver.chipFusionInfo)
        #expect(fusion["source"] == "chip")
        #expect(fusion["mode"]?.hasPrefix("NDOF (OPR_MODE 0x0C)") == true)
        #expect(fusion["calibrationAtStart"]?.hasPrefix("CALIB_STAT 0x3F: system 0, gyroscope 3, accelerometer 3, magnetometer 3") == true)
        // M rows at the fusion's 20 Hz magnetometer rate, offset-compensated.
        let readings = h.ticks(200)
        let m = readings.compactMap(\.mag)
        #expect(m.count >= 38 && m.count <= 41, "\(m.count)")
        #expect(maxAbs(try #require(m.last) - EarthField().enu) < 1.5)
        // Without chip fusion the same chip runs AMG and delivers none.
        let amg = Harness(.bno055, truth: Self.still(.identity))
        try amg.start()
        #expect(amg.ticks(3).allSatisfy { $0.chipFusion == nil && $0.accel != nil })
        #expect(amg.driver.chipFusionInfo == nil && amg.driver.health.fusionNotReady == 0)
    }

    @Test("chip fusion is refused for every IMU without one", arguments: Chips.all.filter { !$0.hasOwnFusion })
    func refusedWithoutFusion(model: IMUSelection) throws {
        let h = Harness(model, options: IMUOptions(chipFusion: true), truth: FaultTests.truth)
        #expect(throws: IMUError.fusionUnsupported(chip: model.displayName)) { try h.start() }
        let message = IMUError.fusionUnsupported(chip: model.displayName).description
        #expect(message.contains("no sensor fusion of its own") && message.contains("BNO055")
                && message.contains("--device-motion motionlog"))
    }

    @Test func aFailedTickIsAGapWithoutFusionAndAResetIsRecovered() throws {
        let h = Harness(.bno055, options: IMUOptions(chipFusion: true), truth: Self.still(Quaternion(axis: Vector3(0, 0, 1), angle: 1)))
        try h.start()
        _ = h.ticks(5)
        h.bus.faults.ioErrors = 2
        h.bus.faults.ioErrorAddress = h.address
        let gap = h.tick()
        #expect(gap == MotionReading())                                  // nothing at all: no D either
        #expect(h.tick().chipFusion != nil)
        #expect(h.driver.health.gapTicks == 1 && h.driver.health.fusionNotReady == 1)
        // A power cycle: back in CONFIGMODE (zeros), noticed, re-initialised into NDOF.
        h.powerCycle()
        let during = h.ticks(100)                                       // reset (650 ms) and bring-up over ticks
        #expect(during.filter { $0.accel == nil }.count >= 65)
        #expect(during.filter { $0.accel == nil }.allSatisfy { $0.chipFusion == nil })
        let after = h.ticks(10)
        #expect(after.allSatisfy { $0.chipFusion != nil })
        #expect(h.driver.health.reinitializations == 1)
        // Every tick with A and G has fusion output, or is counted as not ready.
        let all = during + after
        let withAG = all.filter { $0.accel != nil && $0.gyro != nil }.count
        #expect(withAG - all.filter { $0.chipFusion != nil }.count == h.driver.health.fusionNotReady - 1)
    }
}
