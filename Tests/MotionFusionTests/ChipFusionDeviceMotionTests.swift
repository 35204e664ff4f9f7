import Foundation
import IMUDrivers
import Logging
import MotionCore
import MotionFusion
import MotionMath
import MotionSimulator
import Testing

/// D rows from the BNO055's own fusion (`--device-motion chip`): the real driver against
/// the register-level fake in NDOF mode, through `ChipFusionDeviceMotion`, against the
/// simulated ride's truth and against motionlog's own D rows' conventions.
@Suite("D rows from the chip's own fusion")
struct ChipFusionDeviceMotionTests {
    static let rate = 100

    static func tick(_ i: Int) -> Tick {
        let t = Double(i) / Double(rate)
        return Tick(index: Int64(i), monotonicNanos: Int64(i) * 1_000_000_000 / Int64(rate), when: t, elapsed: t)
    }

    /// One quaternion unit is 2^14 LSB: each component within half an LSB turns a vector by
    /// about 1.2e-4 rad at most; 3e-4 rad (0.017°) leaves room for the mount and the angles.
    static let attitudeTolerance = 3e-4

    @Test("a ride through a mounted BNO055 in NDOF: D rows agree with the ride's truth within the chip's resolution")
    func rideAgreesWithTheTruth() throws {
        let field = EarthField()
        let imu = SimulatedIMU(field: field)
        let mount = try MountOrientation(["-y", "+x", "+z"])
        let sensor = SimulatedChipIMU(selection: IMUSelection(.bno055), ride: imu,
                                      options: IMUOptions(mount: mount, chipFusion: true))
        // With the field's declination, yaw refers to true north, as the ride's truth does.
        let provider = ChipFusionDeviceMotion(sensor: sensor, declination: field.declinationDegrees * Double.pi / 180)
        try sensor.start(rateHz: Self.rate)
        var rows = 0, without = 0
        var worst = (attitude: 0.0, angles: 0.0, gravity: 0.0, user: 0.0, rate: 0.0)
        for i in 0..<(60 * Self.rate) {
            let tick = Self.tick(i)
            let reading = sensor.read(at: tick)
            guard let d = provider.deviceMotion(for: reading, dt: 0.01) else {
                #expect(reading.chipFusion == nil)
                without += 1
                continue
            }
            rows += 1
            let truth = imu.ride.truth(at: tick.elapsed, field: field)
            worst.attitude = max(worst.attitude, (d.attitude * truth.attitude.conjugate).angle)
            // As a reader of the file rebuilds it from the row's angles.
            let fromRow = AttitudeAngles(pitch: d.pitch, roll: d.roll, yaw: d.yaw).quaternion
            worst.angles = max(worst.angles, (fromRow * truth.attitude.conjugate).angle)
            worst.gravity = max(worst.gravity, maxAbs(d.gravity - truth.gravity))
            // User acceleration = A − gravity (A as recorded, gravity the true one): two roundings of 1 mg.
            worst.user = max(worst.user, maxAbs(d.userAcceleration - (try #require(reading.accel) - truth.gravity)))
            // Rotation rate: the chip's compensated gyroscope (the G row), i.e. the raw rate minus the bias.
            #expect(d.rotationRate == reading.gyro)
            let raw = try #require(imu.read(at: tick).gyro)
            worst.rate = max(worst.rate, maxAbs(d.rotationRate - (raw - imu.imperfections.gyroBias)))
        }
        print("chip fusion on the ride: \(rows) D rows, \(without) without; worst attitude \(worst.attitude) rad, "
              + "from the row's angles \(worst.angles) rad, gravity \(worst.gravity) g, user acceleration \(worst.user) g, "
              + "rate \(worst.rate) rad/s")
        #expect(without == 1 && sensor.health.fusionNotReady == 1)    // the first tick: within the switching time
        #expect(sensor.health.gapTicks == 0 && sensor.health.busErrors == 0)
        #expect(worst.attitude <= Self.attitudeTolerance)
        #expect(worst.angles <= Self.attitudeTolerance)
        #expect(worst.gravity <= 0.5e-3 + 1e-9)
        #expect(worst.user <= 1e-3 + 1e-9)
        #expect(worst.rate <= Double.pi / 180 / 16 / 2 + 1e-9)
    }

    /// A device lying still at pitch, roll, yaw (degrees, device → magnetic ENU), with
    /// small deterministic noise so samples change as a real chip's do.
    static func still(pitch: Double, roll: Double, yaw: Double) -> (PhysicalTruth, Quaternion) {
        let d = Double.pi / 180
        let q = AttitudeAngles(pitch: pitch * d, roll: roll * d, yaw: yaw * d).quaternion
        let field = EarthField(declinationDegrees: 0).enu
        let truth: PhysicalTruth = { t in
            let wobble = Vector3(sin(37 * t), cos(23 * t), sin(11 * t + 1))
            return PhysicalState(specificForce: q.inverseRotate(Vector3(0, 0, 1)) + wobble * 0.002,
                                 angularRate: wobble * 0.001, magneticField: q.inverseRotate(field) + wobble * 0.3,
                                 orientation: OrientationTruth(still: q))
        }
        return (truth, q)
    }

    @Test("a still device: the chip's D rows have motionlog's conventions (gravity, pitch, roll, yaw as DeviceMotionFilter)",
          arguments: [[0.0, 0, 0], [0, 0, 90], [20, -35, 150], [-60, 10, -45], [0, 170, 0]])
    func sameConventionsAsMotionlogsFusion(angles: [Double]) throws {
        let (truth, q) = Self.still(pitch: angles[0], roll: angles[1], yaw: angles[2])
        let sensor = SimulatedChipIMU(selection: IMUSelection(.bno055), truth: truth, options: IMUOptions(chipFusion: true))
        let chip = ChipFusionDeviceMotion(sensor: sensor)
        let filter = try DeviceMotionFilter()
        try sensor.start(rateHz: Self.rate)
        var last: (chip: DeviceMotion, filter: DeviceMotion)?
        for i in 0..<(5 * Self.rate) {
            let reading = sensor.read(at: Self.tick(i))
            guard let f = filter.deviceMotion(for: reading, dt: 0.01) else { continue }
            if let c = chip.deviceMotion(for: reading, dt: 0.01) { last = (c, f) }
        }
        let (c, f) = try #require(last)
        let d = Double.pi / 180
        print("still at \(angles): chip vs truth \((c.attitude * q.conjugate).angle / d)°, chip vs motionlog's filter "
              + "\((c.attitude * f.attitude.conjugate).angle / d)°, gravity \(maxAbs(c.gravity - f.gravity)) g")
        // The chip's rows against the truth: quantisation only.
        #expect((c.attitude * q.conjugate).angle <= Self.attitudeTolerance)
        #expect(maxAbs(c.gravity - q.inverseRotate(Vector3(0, 0, -1))) <= 0.5e-3 + 1e-9)
        // …and against motionlog's own D rows of the same A/G/M: same frames, signs, units.
        #expect(maxAbs(c.gravity - f.gravity) <= 2e-3, "chip \(c.gravity) filter \(f.gravity)")
        #expect((c.attitude * f.attitude.conjugate).angle <= 0.5 * d, "chip \(c.attitude) filter \(f.attitude)")
        #expect(abs(c.pitch - f.pitch) <= 0.5 * d && abs(remainder(c.roll - f.roll, 2 * Double.pi)) <= 0.5 * d
                && abs(remainder(c.yaw - f.yaw, 2 * Double.pi)) <= 0.5 * d,
                "chip \(AttitudeAngles(c.attitude)) filter \(AttitudeAngles(f.attitude))")
        #expect(maxAbs(c.userAcceleration) <= 0.01 && maxAbs(f.userAcceleration) <= 0.01)
        if angles == [0, 0, 0] {
            // Level, face up, top edge to magnetic north: gravity (0, 0, −1) g, all angles 0.
            #expect(maxAbs(c.gravity - Vector3(0, 0, -1)) <= 0.5e-3 && maxAbs(f.gravity - Vector3(0, 0, -1)) <= 2e-3)
            #expect(abs(c.pitch) < 1e-3 && abs(c.roll) < 1e-3 && abs(c.yaw) < 1e-3)
        }
        if angles == [0, 0, 90] {
            #expect(abs(c.yaw - Double.pi / 2) < 1e-3)   // top edge west: yaw +90°, as CoreMotion
        }
    }

    @Test("the metadata says the D rows are the chip's, and a declination turns its yaw as it turns motionlog's")
    func metadataAndDeclination() throws {
        let (truth, q) = Self.still(pitch: 0, roll: 0, yaw: 30)
        let sensor = SimulatedChipIMU(selection: IMUSelection(.bno055), truth: truth, options: IMUOptions(chipFusion: true))
        let chip = ChipFusionDeviceMotion(sensor: sensor, declination: 4 * Double.pi / 180)
        try sensor.start(rateHz: Self.rate)
        _ = sensor.read(at: Self.tick(0))
        let d = try #require(chip.deviceMotion(for: sensor.read(at: Self.tick(1)), dt: 0.01))
        #expect(abs(d.yaw - (30 - 4) * Double.pi / 180) < 1e-3)
        #expect(abs(AttitudeAngles(q).yaw - 30 * Double.pi / 180) < 1e-9)
        let info = chip.info
        #expect(info["source"] == "chip")
        #expect(info["chip"]?.contains("BNO055 (NDOF mode, its own fusion)") == true)
        #expect(info["calibrationAtStart"]?.hasPrefix("CALIB_STAT 0xFF") == true)
        #expect(info["yawReference"]?.hasPrefix("true north (declination 4") == true)
        #expect(info["calibration"]?.contains("not applied") == true)
        #expect(chip.calibrationRecord == nil)
        #expect(try DeviceMotionFilter().info["source"] == "motionlog")
    }

    @Test("faults during a chip-fusion recording: counted gaps, no D row invented, the rest right")
    func faultsDuringARecording() throws {
        let field = EarthField()
        let imu = SimulatedIMU(field: field)
        let sensor = SimulatedChipIMU(selection: IMUSelection(.bno055), ride: imu, options: IMUOptions(chipFusion: true))
        let address = sensor.board.address
        sensor.bus.schedule(at: 2) { $0.faults.ioErrors = 3; $0.faults.ioErrorAddress = address }
        sensor.bus.schedule(at: 4) { $0.faults.nack.insert(address) }
        sensor.bus.schedule(at: 4.5) { $0.faults.nack.remove(address) }
        sensor.bus.schedule(at: 8) { _ in sensor.board.powerCycle() }

        let dir = NSTemporaryDirectory() + "motionlog-chipfusion-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let cfg = RecorderConfiguration(rateHz: 100, sources: [.accelerometer, .gyroscope, .magnetometer, .deviceMotion],
                                        whenMode: .relative, duration: 12, boardName: "simulator", softwareVersion: "test")
        let recorder = Recorder(configuration: cfg, clock: SimulatedClock(epoch: 1_763_735_405_000_000_000), sensor: sensor,
                                location: nil, estimator: ChipFusionDeviceMotion(sensor: sensor),
                                directory: try DiskDirectory(path: dir), log: Logger(label: "test"))
        let summary = try recorder.run()
        let health = summary.counters.sensorHealth
        #expect(summary.ticks == 1200)
        #expect(health.gapTicks > 50 + 65)          // the 0.5 s NACK and the 0.65 s reset after the power cycle
        #expect(health.reinitializations >= 2)
        let a = summary.rowsWritten[.accelerometer] ?? 0, dRows = summary.rowsWritten[.deviceMotion] ?? 0
        #expect(a == 1200 - Int64(health.gapTicks))
        #expect(health.fusionNotReady >= 1)
        #expect(dRows == a - Int64(health.fusionNotReady))

        let csv = try #require(summary.files.first)
        var aTimes = Set<Double>(), checked = 0
        let trueToMagnetic = Quaternion(axis: Vector3(0, 0, 1), angle: field.declinationDegrees * Double.pi / 180)
        for line in try String(contentsOfFile: dir + "/" + csv, encoding: .utf8).split(separator: "\n").dropFirst() {
            let f = line.split(separator: ",")
            let t = try #require(Double(f[2]))
            if f[0] == "A" { aTimes.insert(t) }
            guard f[0] == "D" else { continue }
            #expect(aTimes.contains(t), "a D row at \(t) s without an A row")
            let v = f[3...].compactMap { (text: Substring) in Double(text) }
            try #require(v.count == 9)
            let estimate = AttitudeAngles(pitch: v[6], roll: v[7], yaw: v[8]).quaternion
            let truth = trueToMagnetic * imu.ride.truth(at: t, field: field).attitude
            #expect((estimate * truth.conjugate).angle <= Self.attitudeTolerance, "D row at \(t) s")
            checked += 1
        }
        #expect(Int64(checked) == dRows)
        let json = dir + "/" + String(csv.dropLast(4)) + ".json"
        let meta = try RecordingMetadata.decode(Array(try Data(contentsOf: URL(fileURLWithPath: json))))
        #expect(meta.counters.sensorHealth == health)
        #expect(meta.recording.deviceMotion?["source"] == "chip")
        #expect(meta.recording.deviceMotion?["calibrationAtStart"]?.hasPrefix("CALIB_STAT 0xFF") == true)
        #expect(meta.recording.calibration == nil)
    }
}

private func maxAbs(_ v: Vector3) -> Double { max(abs(v.x), abs(v.y), abs(v.z)) }
