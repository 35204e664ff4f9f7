import Foundation
import MotionConfig
import MotionCore
import Testing

@Suite("Board and config files")
struct ConfigTests {
    static var boardsDir: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("boards").path
    }

    @Test func everyBoardInTheRepositoryLoads() throws {
        let catalog = BoardCatalog(directory: Self.boardsDir)
        let (boards, errors) = catalog.all()
        #expect(errors.isEmpty, "\(errors)")
        let sim = try #require(boards.first { $0.name == "simulator" })
        #expect(sim.imu.model == "simulated")
        #expect(sim.gpsd == "localhost:2947")
    }

    @Test func unknownKeyIsReportedWithFileLineAndKey() {
        let text = """
            # a board
            name: myboard
            imu:
              model: mpu9250
              bus: 1
              adress: 0x68
            """
        #expect(throws: ConfigError(file: "b.yaml", line: 6, key: "imu.adress", message: "unknown key")) {
            try BoardDefinition.parse(text: text, file: "b.yaml")
        }
    }

    @Test func badValuesNameTheirLineAndKey() {
        func error(_ text: String) -> ConfigError? {
            do { _ = try RecorderSettings.parse(text: text, file: "c.yaml"); return nil } catch { return error }
        }
        #expect(error("rate: 100\nsources: AGX\n").map { ($0.line, $0.key) } ?? (0, nil) == (2, "sources"))
        #expect(error("rate: fast\n").map { ($0.line, $0.key) } ?? (0, nil) == (1, "rate"))
        #expect(error("rate: 0\n")?.message.contains("outside") == true)
        #expect(error("rotate_size: 12Q\n")?.key == "rotate_size")
        #expect(error("calibration:\n  gyro_bias: [1, 2]\n").map { ($0.line, $0.key) } ?? (0, nil) == (2, "calibration.gyro_bias"))
        #expect(error("when: later\n")?.message.contains("epoch or relative") == true)
        #expect(error("rate: [1\n")?.message.contains("not valid YAML") == true)
    }

    @Test func goodConfigParses() throws {
        let s = try RecorderSettings.parse(text: """
            board: simulator
            rate: 200
            sources: AGM
            label: T
            when: relative
            rotate_size: 64M
            rotate_time: 10m
            fsync_interval: 0.5
            declination: 4.5
            calibration:
              gyro_bias: [0.01, -0.02, 0.003]
              mag_soft_iron: [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
            """, file: "c.yaml")
        #expect(s.rate == 200 && s.sources == [.accelerometer, .gyroscope, .magnetometer])
        #expect(s.label == Label.turning && s.when == .relative)
        #expect(s.rotateBytes == 64 * 1024 * 1024 && s.rotateSeconds == 600 && s.fsyncInterval == 0.5)
        #expect(s.calibration?.gyroBias == [0.01, -0.02, 0.003])
        #expect(s.declinationDegrees == 4.5)
    }

    @Test func mountAndAddressValidation() {
        #expect(MountText.validate(["+x", "+y", "+z"]) == nil)
        #expect(MountText.validate(["-y", "+x", "+z"]) == nil)
        #expect(MountText.validate(["+x", "+x", "+z"]) != nil)
        #expect(MountText.validate(["+q", "+y", "+z"]) != nil)
        #expect(HostPort.split("localhost:2947")?.port == 2947)
        #expect(HostPort.split("localhost") == nil)
    }

    @Test func quantities() {
        #expect(QuantityText.bytes("64M") == 67_108_864)
        #expect(QuantityText.bytes("1.5K") == 1536)
        #expect(QuantityText.bytes("0") == nil)
        #expect(QuantityText.seconds("10m") == 600)
        #expect(QuantityText.seconds("2h") == 7200)
        #expect(QuantityText.seconds("90") == 90)
        #expect(QuantityText.seconds("x") == nil)
    }
}
