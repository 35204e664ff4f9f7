import IMUDrivers
import Foundation
@testable import MotionConfig
import MotionCore
import Testing
#if canImport(Glibc)
import Glibc
#endif

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
        #expect(sim.imu.model == .simulated)
        #expect(sim.gpsd == GPSDAddress(host: "localhost", port: 2947))
    }

    /// A folder given as the config file is named as a folder, not "not found".
    @Test func aFolderGivenAsTheConfigIsNamedAsSuch() {
        let folder = NSTemporaryDirectory()
        #expect {
            _ = try ConfigLoader.load(explicit: folder)
        } throws: { error in
            "\(error)".contains("is a folder, not a config file") && !"\(error)".contains("not found")
        }
        #expect { _ = try ConfigLoader.load(explicit: folder + "/no-such-config.yaml") } throws: { "\($0)".contains("config file not found") }
    }

    /// A config that is there but cannot be read as a file (here a FIFO, which would block
    /// the read) says so; it was "config file not found".
    @Test func aConfigThatIsNoRegularFileIsNotCalledMissing() throws {
        let fifo = NSTemporaryDirectory() + "/config-fifo-\(UUID().uuidString).yaml"
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        #expect { _ = try ConfigLoader.load(explicit: fifo) } throws: { error in
            "\(error)".contains("not a regular file") && !"\(error)".contains("not found")
        }
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
        #expect(throws: ConfigError(file: "b.yaml", line: 6, key: "imu.adress", message: "unknown key: did you mean address?")) {
            try BoardDefinition.parse(text: text, file: "b.yaml")
        }
    }

    /// A typo names the key it is closest to (letters swapped, one dropped); a key like
    /// none names the keys the section knows.
    @Test func anUnknownKeySaysWhatItMayHaveMeant() {
        func message(_ text: String) -> String? {
            do { _ = try RecorderSettings.parse(text: text, file: "c.yaml"); return nil } catch { return (error as? ConfigError)?.message }
        }
        #expect(message("rtae: 50\n") == "unknown key: did you mean rate?")
        #expect(message("daemon:\n  sockt: /tmp/x\n") == "unknown key: did you mean socket?")
        let far = message("colour: blue\n") ?? ""
        #expect(far.hasPrefix("unknown key: the keys here are ") && far.contains("rate") && far.contains("out"), "\(far)")
        #expect(KeySuggestion.distance(Array("rtae"), Array("rate")) == 1)
        #expect(KeySuggestion.closest(to: "bus", among: ["out", "rate"]) == nil)
    }

    @Test func badValuesNameTheirLineAndKey() {
        func error(_ text: String) -> ConfigError? {
            do { _ = try RecorderSettings.parse(text: text, file: "c.yaml"); return nil } catch { return error }
        }
        #expect(error("rate: 100\nsources: AGX\n").map { ($0.line, $0.key) } ?? (0, nil) == (2, "sources"))
        #expect(error("rate: fast\n").map { ($0.line, $0.key) } ?? (0, nil) == (1, "rate"))
        #expect(error("rate: 0\n")?.message.contains("outside") == true)
        #expect(error("rotate_size: 12Q\n")?.key == "rotate_size")
        // As --rotate-size: at least 4K (a forgotten M began a new file about 100 times a second).
        for small in ["64", "100", "1K", "4095"] {
            #expect(error("rotate_size: \(small)\n")?.message.contains("at least 4K") == true, "\(small)")
        }
        #expect((try? RecorderSettings.parse(text: "rotate_size: 4K\n", file: "c.yaml"))?.rotateBytes == 4096)
        #expect(error("calibration:\n  gyro_bias: [1, 2]\n").map { ($0.line, $0.key) } ?? (0, nil) == (2, "calibration.gyro_bias"))
        // A calibration no sensor needs (a gyro bias of 1e300 turned every fused D row NaN).
        #expect(error("calibration:\n  gyro_bias: [1e300, 0, 0]\n")?.message.contains("outside -10.0...10.0") == true)
        #expect(error("calibration:\n  accel_scale: [1, 0, 1]\n")?.key == "calibration.accel_scale")
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

    /// Mounts and gpsd addresses are parsed into their types when the file is read, by the
    /// same code the recorder uses, so a value accepted here is never refused at sensor start.
    @Test("a bad mount or gpsd address names its line and key", arguments: [
        ("imu:\n  model: mpu9250\n  mount: [\"+x\", \"+y\", \"-z\"]", 4, "imu.mount", "mirror image"),
        ("imu:\n  model: mpu9250\n  mount: [\"+x\", \"+x\", \"+z\"]", 4, "imu.mount", "exactly once"),
        ("imu:\n  model: mpu9250\n  mount: [\"+q\", \"+y\", \"+z\"]", 4, "imu.mount", "\"+q\""),
        ("imu:\n  model: mpu9250\ngps:\n  gpsd: \"host:0\"", 5, "gps.gpsd", "host:port"),
        ("imu:\n  model: mpu9250\ngpio:\n  button:\n    line: 17\n    bias: pullup", 7, "gpio.button.bias", "pull-up"),
    ])
    func rejectedValues(text: String, line: Int, key: String, mentions: String) {
        do {
            _ = try BoardDefinition.parse(text: "name: b\n" + text + "\n", file: "b.yaml")
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.line == line && error.key == key && error.message.contains(mentions), "\(error)")
        }
    }

    @Test func mountsAndAddressesBecomeTypes() throws {
        let b = try BoardDefinition.parse(text: """
            name: b
            imu:
              model: mpu9250
              mount: ["-y", "+x", "+z"]
            gps:
              gpsd: localhost
            gpio:
              button:
                line: 17
                bias: pull-down
            """, file: "b.yaml")
        #expect(b.imu.model == .chip(IMUSelection(.mpu9250)))
        #expect(b.imu.mount == (try MountOrientation(["-y", "+x", "+z"])))
        #expect(b.gpsd == GPSDAddress(host: "localhost", port: 2947))
        #expect(b.gpio?.button?.bias == .pullDown && b.gpio?.button?.activeLow == false)
        let s = try RecorderSettings.parse(text: "gpsd: \"[::1]:2948\"\nweb:\n  listen: \"[::]:8081\"\n", file: "c.yaml")
        #expect(s.gpsd == GPSDAddress(host: "::1", port: 2948))
        #expect(s.web?.listen == ListenAddress(host: "::", port: 8081))
        #expect(throws: ConfigError.self) { try RecorderSettings.parse(text: "web:\n  listen: \"a:b:8080\"\n", file: "c.yaml") }
        #expect(throws: ConfigError.self) { try RecorderSettings.parse(text: "web:\n  listen: \"host:0\"\n", file: "c.yaml") }
        #expect(try RecorderSettings.parse(text: "web:\n  max_connections: 16\n", file: "c.yaml").web?.maxConnections == 16)
        #expect(throws: ConfigError.self) { try RecorderSettings.parse(text: "web:\n  max_connections: 0\n", file: "c.yaml") }
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
