import Foundation
import IMUDrivers
import LinuxHardware
@testable import MotionApp
import MotionConfig
import MotionCore
import Testing

/// The shipped board files and config, and how bad ones are reported.
@Suite("Board files and daemon config")
struct DaemonBoardFilesTests {
    typealias S = DaemonTestSupport
    var catalog: BoardCatalog { BoardCatalog(directory: S.repo + "/boards") }

    @Test func everyBoardFileLoads() throws {
        let (boards, errors) = catalog.all()
        #expect(errors.isEmpty, "\(errors)")
        let names = Set(boards.map(\.name))
        for expected in ["raspberry-pi-3b", "raspberry-pi-4b", "raspberry-pi-5", "raspberry-pi-zero-2w",
                         "raspberry-pi-sense-hat", "beaglebone-black", "jetson-nano", "simulator",
                         "gy-87", "gy-521-gy-271", "lsm6dsox-lis3mdl", "bno055-breakout"] {
            #expect(names.contains(expected), "missing board \(expected)")
        }
        for b in boards {
            #expect((b.file as NSString).lastPathComponent == b.name + ".yaml")
            guard b.name != "simulator" else { continue }
            #expect(b.imu.bus != nil && b.gpsd == GPSDAddress(host: "localhost", port: 2947) && b.output == "/var/lib/motionlog/recordings", "\(b.name)")
            let wiring = try #require(DaemonConfiguration.wiring(b), "\(b.name) has no buttons")
            #expect(wiring.button != nil && wiring.labelButton != nil && wiring.led != nil)
        }
    }

    @Test func boardsAreRecognisedFromTheDeviceTreeModel() {
        let models = [
            "Raspberry Pi 3 Model B Rev 1.2": "raspberry-pi-3b",
            "Raspberry Pi 3 Model B Plus Rev 1.3": "raspberry-pi-3b",
            "Raspberry Pi 4 Model B Rev 1.5": "raspberry-pi-4b",
            "Raspberry Pi 5 Model B Rev 1.0": "raspberry-pi-5",
            "Raspberry Pi Zero 2 W Rev 1.0": "raspberry-pi-zero-2w",
            "TI AM335x BeagleBone Black": "beaglebone-black",
            "NVIDIA Jetson Nano Developer Kit": "jetson-nano",
        ]
        for (model, board) in models {
            #expect(catalog.match(deviceTreeModel: model)?.name == board, "\(model)")
        }
        #expect(catalog.match(deviceTreeModel: "Raspberry Pi Model B Rev 2") == nil)
    }

    @Test func wiringFollowsTheBoardFacts() throws {
        let pi5 = try #require(DaemonConfiguration.wiring(try catalog.load("raspberry-pi-5")))
        #expect(pi5.chip == "pinctrl-rp1")   // gpiochip4 before Linux 6.6.45, gpiochip0 after
        #expect(pi5.button == .init(line: 17, bias: .pullUp, activeLow: true, debounceMilliseconds: 30))
        #expect(pi5.labelButton?.line == 22 && pi5.led == .init(line: 27, activeLow: false))
        let hat = try catalog.load("raspberry-pi-sense-hat")
        #expect(hat.imu.model == .chip(IMUSelection(.lsm9ds1)) && hat.imu.address == 0x6A && hat.imu.magAddress == 0x1C && hat.imu.bus == 1)
        #expect(hat.modelMatch.isEmpty)   // a HAT is chosen explicitly
        let bbb = try #require(DaemonConfiguration.wiring(try catalog.load("beaglebone-black")))
        #expect(try catalog.load("beaglebone-black").imu.bus == 2 && bbb.chip == "gpiochip1" && bbb.button?.bias == .disabled)
        let nano = try #require(DaemonConfiguration.wiring(try catalog.load("jetson-nano")))
        #expect(nano.chip == "tegra-gpio" && nano.button?.line == 194 && nano.led?.line == 232)
        for name in ["raspberry-pi-3b", "raspberry-pi-4b", "raspberry-pi-zero-2w"] {
            let w = try #require(DaemonConfiguration.wiring(try catalog.load(name)))
            #expect(w.chip == "gpiochip0" && w.button?.line == 17 && w.led?.line == 27 && w.labelButton?.line == 22)
        }
        #expect(DaemonConfiguration.wiring(try catalog.load("simulator")) == nil)
    }

    func badBoard(_ gpio: String) throws -> String {
        let path = Binary.temporaryDirectory() + "/bad.yaml"
        try """
        name: bad
        imu:
          model: mpu9250
          bus: 1
        gpio:
        \(gpio)
        """.write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    @Test func badBoardFilesNameFileLineAndKey() throws {
        let cases: [(String, String)] = [
            ("  button: {line: 17, bias: pull-sideways}", ":6: gpio.button.bias: \"pull-sideways\" is not one of pull-up, pull-down, none"),
            ("  led: {active_low: true}", ":6: gpio.led.line: missing"),
            ("  buton: {line: 17}", ":6: gpio.buton: unknown key"),
            ("  button: {line: 4096}", ":6: gpio.button.line: 4096 is outside 0...1023"),
            ("  button: {line: 17, debounce_ms: soon}", ":6: gpio.button.debounce_ms: expected a whole number"),
        ]
        for (gpio, expected) in cases {
            let path = try badBoard(gpio)
            #expect {
                _ = try BoardCatalog.load(path: path)
            } throws: { error in
                "\(error)".hasPrefix(path) && "\(error)".contains(expected)
            }
        }
        // As the user sees it.
        let path = try badBoard("  button: {line: 17, bias: pull-sideways}")
        let r = try Binary.run(["daemon", "--board", path, "--config", S.emptyConfig(), "--socket", Binary.temporaryDirectory() + "/c.sock"])
        #expect(r.status == 2 && r.stderr.contains("bad.yaml:6: gpio.button.bias"))
    }

    @Test func theDaemonSectionOfTheConfigIsCheckedLikeTheRest() throws {
        let good = try RecorderSettings.parse(text: """
            min_free_space: 250M
            daemon:
              socket: /run/motionlog/control.sock
              socket_group: motionlog
              long_press: 2.5s
              shutdown_command: systemctl poweroff
              led_gps: false
            """, file: "c.yaml")
        #expect(good.minFreeSpace == 250 << 20)
        #expect(good.daemon?.socket == "/run/motionlog/control.sock" && good.daemon?.socketGroup == "motionlog")
        #expect(good.daemon?.longPressSeconds == 2.5 && good.daemon?.shutdownCommand == "systemctl poweroff" && good.daemon?.ledShowsGPS == false)
        let bad: [(String, String)] = [
            ("daemon:\n  long_press: 100s", "c.yaml:2: daemon.long_press: \"100s\" is not a duration from 0.5s to 30s"),
            ("daemon:\n  sokcet: /run/x.sock", "c.yaml:2: daemon.sokcet: unknown key"),
            ("daemon:\n  socket: relative.sock", "c.yaml:2: daemon.socket: \"relative.sock\" is not an absolute path"),
            ("min_free_space: lots", "c.yaml:1: min_free_space: \"lots\" is not a size"),
            ("daemon:\n  led_gps: sometimes", "c.yaml:2: daemon.led_gps: expected true or false"),
        ]
        for (text, expected) in bad {
            #expect {
                _ = try RecorderSettings.parse(text: text, file: "c.yaml")
            } throws: { error in
                "\(error)".hasPrefix(expected)
            }
        }
        #expect(try RecorderSettings.parse(text: "min_free_space: 0", file: "c.yaml").minFreeSpace == 0)
    }

    @Test func theShippedConfigParsesAndMatchesTheService() throws {
        let path = S.repo + "/config/config.yaml"
        let settings = try RecorderSettings.parse(text: try String(contentsOfFile: path, encoding: .utf8), file: path)
        #expect(settings.out == "/var/lib/motionlog/recordings")
        #expect(settings.minFreeSpace == FreeSpaceGuard.defaultMinimumFreeBytes)
        #expect(settings.daemon?.socket == ControlClient.defaultSocket && settings.daemon?.longPressSeconds == 3)
        #expect(settings.daemon?.shutdownCommand == nil)
    }
}
