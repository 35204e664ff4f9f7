import Foundation
import Testing

/// `--imu chip+magnetometer`, board files with a composite IMU, and `probe` of the pairs.
@Suite("motionlog with composite IMUs")
struct CompositeIMUCLITests {
    @Test func probeFindsThePairAndTheMagnetometerBehindTheMPU6050() throws {
        let closed = try Binary.run(["probe", "--simulated", "mpu6050+qmc5883l"])
        #expect(closed.status == 0, "\(closed.stderr)")
        #expect(closed.stdout.contains("0x68  MPU-6050 (accelerometer/gyroscope)  (register 0x75 = 0x68)"))
        #expect(!closed.stdout.contains("QMC5883L"))
        #expect(closed.stdout.contains("--open-bypass"))
        // Auto opens the bypass: the closed probe does not claim auto uses the MPU-6050 alone.
        #expect(!closed.stdout.contains("(imu: model: mpu6050)") && closed.stdout.contains("once its bypass is open"), "\(closed.stdout)")
        let open = try Binary.run(["probe", "--simulated", "mpu6050+qmc5883l", "--open-bypass"])
        #expect(open.status == 0)
        #expect(open.stdout.contains("0x0D  QMC5883L magnetometer  (register 0x0D = 0xFF)"))
        #expect(open.stdout.contains("(imu: model: mpu6050+qmc5883l)"), "\(open.stdout)")
        let st = try Binary.run(["probe", "--simulated", "lsm6dsox+lis3mdl"])
        #expect(st.stdout.contains("0x1C  LIS3MDL magnetometer") && st.stdout.contains("0x6A  LSM6DSOX"))
        #expect(st.stdout.contains("(imu: model: lsm6dsox+lis3mdl)"), "\(st.stdout)")
        let bno = try Binary.run(["probe", "--simulated", "bno055"])
        #expect(bno.stdout.contains("0x28  BNO055  (register 0x00 = 0xA0)") && bno.stdout.contains("(imu: model: bno055)"))
    }

    @Test func unsupportedPairsAreRefusedWithWhatIsAccepted() throws {
        let dir = Binary.temporaryDirectory()
        let own = try Binary.run(["record", "--board", "simulator", "--imu", "bno055+lis3mdl", "--duration", "1", "--out", dir])
        #expect(own.status != 0)
        #expect(own.stderr.contains("has its own magnetometer"))
        let unknown = try Binary.run(["record", "--board", "simulator", "--imu", "mpu6050+ak8963", "--duration", "1", "--out", dir])
        #expect(unknown.status != 0)
        #expect(unknown.stderr.contains("qmc5883l") && unknown.stderr.contains("mpu6050"))
    }

    /// A chip without a magnetometer: M asked for is refused (the recording said "AGM" and
    /// had no M row); by default M is left out of the metadata's sources.
    @Test func mFromAChipWithoutAMagnetometerIsRefusedOrLeftOut() throws {
        let dir = Binary.temporaryDirectory()
        let asked = try Binary.run(["record", "--board", "simulator", "--imu", "mpu6050", "--fast", "--duration", "1",
                                    "--sources", "AGM", "--out", dir + "/asked"])
        #expect(asked.status == 2)
        #expect(asked.stderr.contains("include M") && asked.stderr.contains("has no magnetometer"), "\(asked.stderr)")
        #expect(Binary.csvFiles(in: dir + "/asked").isEmpty)
        let plain = try Binary.run(["record", "--board", "simulator", "--imu", "mpu6050", "--fast", "--duration", "1",
                                    "--out", dir + "/plain", "--quiet"])
        #expect(plain.status == 0, "\(plain.stderr)")
        let csv = try #require(Binary.csvFiles(in: dir + "/plain").first)
        let json = try String(contentsOfFile: csv.replacingOccurrences(of: ".csv", with: ".json"), encoding: .utf8)
        #expect(json.contains("\"sources\" : \"AGDL\""), "\(json)")
        let paired = try Binary.run(["record", "--board", "simulator", "--imu", "mpu6050+qmc5883l", "--fast", "--duration", "1",
                                     "--sources", "AGM", "--out", dir + "/paired", "--quiet"])
        #expect(paired.status == 0, "\(paired.stderr)")
    }

    @Test func aBoardFileNamesTheMagnetometerItsAddressAndMount() throws {
        let dir = Binary.temporaryDirectory()
        let board = dir + "/gy.yaml"
        try """
            name: gy-test
            imu:
              model: mpu6050+hmc5883l
              bus: 99
              mag_address: 0x1E
              mount: ["+x", "+y", "+z"]
              mag_mount: ["-y", "+x", "+z"]
            """.write(toFile: board, atomically: true, encoding: .utf8)
        let r = try Binary.run(["record", "--board", board, "--duration", "1", "--out", dir])
        // The board file parsed; the bus does not exist on this machine.
        #expect(r.status == 2)
        #expect(r.stderr.contains("/dev/i2c-99"), "\(r.stderr)")
        try "name: gy-bad\nimu:\n  model: mpu6050+hmc5883\n".write(toFile: board, atomically: true, encoding: .utf8)
        let bad = try Binary.run(["record", "--board", board, "--duration", "1", "--out", dir])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("gy.yaml:3") && bad.stderr.contains("mpu6050+hmc5883"), "\(bad.stderr)")
    }

    @Test func theBNO055RecordsAGAndMRows() throws {
        let out = Binary.temporaryDirectory()
        let r = try Binary.run(["record", "--board", "simulator", "--imu", "bno055", "--fast", "--duration", "5",
                                "--when", "relative", "--sources", "AGM", "--out", out, "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let csv = try #require(Binary.csvFiles(in: out).first)
        let lines = try String(contentsOfFile: csv, encoding: .utf8).split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("A,") }.count == 500)
        // Its magnetometer runs at 30 Hz.
        #expect(abs(lines.filter { $0.hasPrefix("M,") }.count - 150) <= 3)
    }
}
