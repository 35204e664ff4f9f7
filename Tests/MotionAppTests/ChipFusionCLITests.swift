import Foundation
import MotionCore
import MotionFusion
import MotionMath
import MotionSimulator
import Testing

/// `--device-motion chip` / `device_motion: chip`: D rows from the BNO055's own fusion on
/// the simulator, and the clear refusal for every IMU without one.
@Suite("motionlog with the chip's own fusion")
struct ChipFusionCLITests {
    @Test("record --imu bno055 --device-motion chip: D rows from the chip agree with the ride's truth")
    func chipFusionRecording() throws {
        let out = Binary.temporaryDirectory()
        let config = out + "/config.yaml"
        try "declination: 4   # the simulated field's: yaw then refers to true north\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let r = try Binary.run(["record", "--board", "simulator", "--imu", "bno055", "--device-motion", "chip", "--config", config,
                                "--fast", "--duration", "10", "--when", "relative", "--sources", "AGMD", "--out", out, "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let csv = try #require(Binary.csvFiles(in: out).first)
        let ride = SimulatedIMU()
        var counts: [Substring: Int] = [:]
        var accel: [Double: Vector3] = [:]
        var worst = (attitude: 0.0, user: 0.0)
        for line in try String(contentsOfFile: csv, encoding: .utf8).split(separator: "\n").dropFirst() {
            let f = line.split(separator: ",")
            let t = try #require(Double(f[2]))
            counts[f[0], default: 0] += 1
            let v = f[3...].compactMap { (text: Substring) in Double(text) }
            if f[0] == "A" { accel[t] = Vector3(v[0], v[1], v[2]) }
            guard f[0] == "D" else { continue }
            try #require(v.count == 9)
            let truth = ride.ride.truth(at: t, field: ride.field)
            let q = AttitudeAngles(pitch: v[6], roll: v[7], yaw: v[8]).quaternion
            worst.attitude = max(worst.attitude, (q * truth.attitude.conjugate).angle)
            let a = try #require(accel[t], "a D row at \(t) s without its A row")
            let ua = Vector3(v[3], v[4], v[5]) - (a - truth.gravity)
            worst.user = max(worst.user, max(abs(ua.x), abs(ua.y), abs(ua.z)))
        }
        // Tick 0 falls within the chip's mode-switching time: no fusion output, no D row (counted).
        #expect(counts["A"] == 1000 && counts["G"] == 1000 && counts["D"] == 999)
        #expect(abs(Double(counts["M"] ?? 0) - 200) <= 2)                 // the NDOF magnetometer: 20 Hz
        #expect(worst.attitude <= 3e-4, "attitude \(worst.attitude) rad")   // 2^14 LSB per quaternion unit
        #expect(worst.user <= 1e-3 + 1e-9, "user acceleration \(worst.user) g")
        let meta = try RecordingMetadata.decode(Array(try Data(contentsOf: URL(fileURLWithPath: String(csv.dropLast(4)) + ".json"))))
        let dm = try #require(meta.recording.deviceMotion)
        #expect(dm["source"] == "chip")
        #expect(dm["mode"]?.hasPrefix("NDOF") == true)
        #expect(dm["chip"]?.contains("BNO055") == true)
        #expect(dm["calibrationAtStart"]?.hasPrefix("CALIB_STAT 0xFF: system 3") == true)
        #expect(dm["yawReference"]?.hasPrefix("true north") == true)
        #expect(meta.recording.sensor.model.contains("NDOF"))
        #expect(meta.recording.calibration == nil)
        let health = meta.counters.sensorHealth
        #expect(health.fusionNotReady == 1 && health.gapTicks == 0 && health.busErrors == 0 && health.reinitializations == 0)
        // The BNO055 has no magnetometer data-ready flag: a new sample whose words happen to
        // equal the last one's is taken as not refreshed (docs/IMU.md), rarely.
        #expect(health.magNotReady <= 10 && health.magGapTicks == 0, "\(health)")

        // To compare: motionlog's fusion recomputes D rows from the same (chip-compensated) A/G/M.
        let fused = out + "/motionlog.csv"
        let f = try Binary.run(["fuse", csv, "-o", fused])
        #expect(f.status == 0, "\(f.stderr)")
        let fusedMeta = try RecordingMetadata.decode(Array(try Data(contentsOf: URL(fileURLWithPath: out + "/motionlog.json"))))
        #expect(fusedMeta.recording.deviceMotion?["source"] == "motionlog")
        #expect(fusedMeta.recording.deviceMotion?["calibration"]?.hasPrefix("none") == true)
        #expect(fusedMeta.file.rows["D"] == 1000)
    }

    @Test func theDefaultStaysMotionlogsFusion() throws {
        let out = Binary.temporaryDirectory()
        let r = try Binary.run(["record", "--board", "simulator", "--imu", "bno055", "--fast", "--duration", "2",
                                "--sources", "AGD", "--out", out, "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let csv = try #require(Binary.csvFiles(in: out).first)
        let meta = try RecordingMetadata.decode(Array(try Data(contentsOf: URL(fileURLWithPath: String(csv.dropLast(4)) + ".json"))))
        #expect(meta.recording.deviceMotion?["source"] == "motionlog")
        #expect(meta.recording.sensor.model.contains("AMG mode"))
        #expect(meta.file.rows["D"] == 200)
    }

    @Test("the chip's fusion is refused, with what to do, for an IMU without one",
          arguments: ["mpu9250", "icm20948", "lsm9ds1", "mpu6050+qmc5883l", "lsm6dsox+lis3mdl", "icm42688"])
    func refusedWithoutFusion(chip: String) throws {
        let out = Binary.temporaryDirectory()
        let r = try Binary.run(["record", "--board", "simulator", "--imu", chip, "--device-motion", "chip",
                                "--fast", "--duration", "1", "--out", out])
        #expect(r.status == 2)
        #expect(r.stderr.contains("--device-motion chip: the ") && r.stderr.contains("has no sensor fusion of its own"), "\(r.stderr)")
        #expect(r.stderr.contains("only the BNO055") && r.stderr.contains("--device-motion motionlog"))
        #expect(Binary.csvFiles(in: out).isEmpty)
    }

    @Test func otherRefusals() throws {
        let dir = Binary.temporaryDirectory()
        let builtIn = try Binary.run(["record", "--board", "simulator", "--device-motion", "chip", "--fast", "--duration", "1", "--out", dir])
        #expect(builtIn.status == 2 && builtIn.stderr.contains("built-in IMU has no fusion of its own; add --imu bno055"), "\(builtIn.stderr)")
        let unknown = try Binary.run(["record", "--board", "simulator", "--device-motion", "vqf", "--fast", "--duration", "1", "--out", dir])
        #expect(unknown.status == 2 && unknown.stderr.contains("--device-motion \"vqf\": use motionlog"), "\(unknown.stderr)")
        // From the config file, on a board whose IMU has none: refused before the bus is opened.
        let board = dir + "/pi.yaml", config = dir + "/config.yaml"
        try "name: pi-test\nimu:\n  model: mpu9250\n  bus: 99\n".write(toFile: board, atomically: true, encoding: .utf8)
        try "device_motion: chip\n".write(toFile: config, atomically: true, encoding: .utf8)
        let fromConfig = try Binary.run(["record", "--board", board, "--config", config, "--duration", "1", "--out", dir])
        #expect(fromConfig.status == 2)
        #expect(fromConfig.stderr.contains("device_motion: chip (\(config))") && fromConfig.stderr.contains("MPU-9250 has no sensor fusion"),
                "\(fromConfig.stderr)")
        // The option overrides the config file.
        let overridden = try Binary.run(["record", "--board", board, "--config", config, "--device-motion", "motionlog",
                                         "--duration", "1", "--out", dir])
        #expect(overridden.status == 2 && overridden.stderr.contains("/dev/i2c-99"), "\(overridden.stderr)")
        // A BNO055 board is accepted (and then fails only for its missing bus).
        try "name: bno-test\nimu:\n  model: bno055\n  bus: 99\n".write(toFile: board, atomically: true, encoding: .utf8)
        let bno = try Binary.run(["record", "--board", board, "--config", config, "--duration", "1", "--out", dir])
        #expect(bno.status == 2 && bno.stderr.contains("/dev/i2c-99") && !bno.stderr.contains("fusion"), "\(bno.stderr)")
        // A bad value in the config file names file, line and key.
        try "rate: 50\ndevice_motion: maybe\n".write(toFile: config, atomically: true, encoding: .utf8)
        let bad = try Binary.run(["record", "--board", "simulator", "--config", config, "--duration", "1", "--out", dir])
        #expect(bad.status == 2 && bad.stderr.contains("\(config):2: device_motion: \"maybe\" is not motionlog"), "\(bad.stderr)")
    }
}
