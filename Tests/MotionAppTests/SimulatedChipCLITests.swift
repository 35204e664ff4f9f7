import Foundation
import MotionCore
import MotionMath
import MotionSimulator
import Testing

/// `record --board simulator --imu CHIP`: the real drivers against register-level fakes
/// fed by the ride; and the I2C errors a user sees on a machine without I2C.
@Suite("motionlog with the chip drivers")
struct SimulatedChipCLITests {
    /// One LSB of each chip at the driver's default full scales (±16 g, ±2000 °/s; LSM9DS1
    /// magnetometer ±4 gauss), from the datasheets; the AK8963 LSB grows with its fuse ROM
    /// adjustment (at most ×1.5).
    static let resolution: [String: (accel: Double, gyro: Double, mag: Double, magHz: Double)] = [
        "mpu9250": (1 / 2048, 1 / 16.4 * .pi / 180, 0.15 * 1.5, 100),
        "icm20948": (1 / 2048, 1 / 16.4 * .pi / 180, 0.15, 100),
        "lsm9ds1": (0.732e-3, 70e-3 * .pi / 180, 0.014, 80),
        // QMC5883L ±8 G: 3000 LSB/G; LIS3MDL ±4 gauss: 6842 LSB/gauss, 155 Hz (FAST_ODR).
        "mpu6050+qmc5883l": (1 / 2048, 1 / 16.4 * .pi / 180, 100.0 / 3000, 100),
        "lsm6dsox+lis3mdl": (0.488e-3, 70e-3 * .pi / 180, 100 / 6842.0, 155),
        "icm42688+qmc5883l": (1 / 2048, 1 / 16.4 * .pi / 180, 100.0 / 3000, 100),
    ]
    static let names = ["mpu9250": "MPU-9250", "icm20948": "ICM-20948", "lsm9ds1": "LSM9DS1",
                        "mpu6050+qmc5883l": "MPU-6050 at 0x68 on simulated I2C bus + QMC5883L at 0x0D",
                        "lsm6dsox+lis3mdl": "LSM6DSOX at 0x6A on simulated I2C bus + LIS3MDL at 0x1C",
                        "icm42688+qmc5883l": "ICM-42688-P at 0x68 on simulated I2C bus + QMC5883L at 0x0D"]

    @Test("A/G/M rows agree with the ride's truth within the chip's resolution",
          arguments: ["mpu9250", "icm20948", "lsm9ds1", "mpu6050+qmc5883l", "lsm6dsox+lis3mdl", "icm42688+qmc5883l"])
    func rowsMatchTheRide(chip: String) throws {
        let out = Binary.temporaryDirectory()
        let r = try Binary.run(["record", "--board", "simulator", "--imu", chip, "--fast", "--duration", "10",
                                "--when", "relative", "--sources", "AGM", "--out", out, "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let csv = try #require(Binary.csvFiles(in: out).first)
        let res = try #require(Self.resolution[chip])
        let ride = SimulatedIMU()
        func truth(_ t: Double) -> MotionReading {
            ride.read(at: Tick(index: 0, monotonicNanos: 0, when: 0, elapsed: t))
        }
        var counts: [Substring: Int] = [:]
        var worst: [Substring: Double] = [:]
        for line in try String(contentsOfFile: csv, encoding: .utf8).split(separator: "\n").dropFirst() {
            let f = line.split(separator: ",")
            let t = try #require(Double(f[2]))
            let v = Vector3(try #require(Double(f[3])), try #require(Double(f[4])), try #require(Double(f[5])))
            let expected: Vector3, tolerance: Double
            switch f[0] {
            case "A": expected = try #require(truth(t).accel); tolerance = res.accel
            case "G": expected = try #require(truth(t).gyro); tolerance = res.gyro
            case "M":
                // The magnetometer's newest sample at a tick was taken at its own rate's grid.
                expected = try #require(truth(((t * res.magHz + 1e-6).rounded(.down)) / res.magHz).mag)
                tolerance = res.mag
            default: continue
            }
            let e = max(abs(v.x - expected.x), abs(v.y - expected.y), abs(v.z - expected.z))
            worst[f[0]] = max(worst[f[0]] ?? 0, e / tolerance)
            counts[f[0], default: 0] += 1
        }
        #expect(counts["A"] == 1000 && counts["G"] == 1000)
        #expect(abs(Double(counts["M"] ?? 0) - 10 * min(100, res.magHz)) <= 2)
        for (source, w) in worst { #expect(w <= 1, "\(chip) \(source): worst error \(w) LSB") }
        let meta = try RecordingMetadata.decode(Array(try Data(contentsOf: URL(fileURLWithPath: String(csv.dropLast(4)) + ".json"))))
        #expect(meta.recording.sensor.model.contains(try #require(Self.names[chip])), "\(meta.recording.sensor.model)")
        #expect(meta.counters.sensorHealth == SensorHealth())
    }

    @Test func probeExplainsBusesItCannotUse() throws {
        let missing = try Binary.run(["probe", "--bus", "99"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("/dev/i2c-99") && missing.stderr.contains("dtparam=i2c_arm=on"))
        let notI2C = try Binary.run(["probe", "--bus", "/dev/null"])
        #expect(notI2C.status == 2)
        #expect(notI2C.stderr.contains("/dev/null") && notI2C.stderr.contains("not an I2C adapter"))
        let simulated = try Binary.run(["probe", "--simulated", "icm20948"])
        #expect(simulated.status == 0)
        #expect(simulated.stdout.contains("0x69  ICM-20948  (register 0x00 = 0xEA)"))
    }

    @Test func recordingOnABoardWithoutItsBusExitsNonZero() throws {
        let dir = Binary.temporaryDirectory()
        let board = dir + "/pi.yaml"
        try "name: pi-test\nimu:\n  model: mpu9250\n  bus: 99\n".write(toFile: board, atomically: true, encoding: .utf8)
        let r = try Binary.run(["record", "--board", board, "--duration", "1", "--out", dir])
        #expect(r.status == 2)
        #expect(r.stderr.contains("opening /dev/i2c-99 failed: no such I2C bus"))
        let imu = try Binary.run(["record", "--board", board, "--imu", "mpu9250", "--duration", "1", "--out", dir])
        #expect(imu.status == 2 && imu.stderr.contains("--imu chooses the chip simulated on the simulator board"))
    }
}
