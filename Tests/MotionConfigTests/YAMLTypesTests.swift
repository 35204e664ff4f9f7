import Foundation
import MotionConfig
import MotionCore
import Testing

/// YAML null, types and duplicate keys, each reported with file, line and key (issue 10,
/// major 10): `board:` used to look for `.yaml`, `board: ~` for `~.yaml`, a quoted "50"
/// was read as a number, and a duplicated key lost its line.
@Suite("YAML null, types and duplicates")
struct YAMLTypesTests {
    func error(_ text: String) -> ConfigError? {
        do { _ = try RecorderSettings.parse(text: text, file: "c.yaml"); return nil } catch { return error }
    }

    @Test func aKeyWithoutAValueIsAnErrorAtItsLine() throws {
        for text in ["rate: 50\nboard:\n", "rate: 50\nboard: ~\n", "rate: 50\nboard: null\n", "rate: 50\nboard: NULL  # none\n"] {
            let e = error(text)
            #expect(e?.line == 2 && e?.key == "board" && e?.message.contains("no value") == true, "\(text): \(String(describing: e))")
        }
        #expect(error("rate:\n")?.key == "rate")
        #expect(error("daemon:\n  socket: ~\n").map { ($0.line, $0.key) } ?? (0, nil) == (2, "daemon.socket"))
        #expect(error("calibration:\n  gyro_bias: [1, ~, 3]\n").map { ($0.line, $0.key) } ?? (0, nil) == (2, "calibration.gyro_bias"))
        // Quoted, "~" and "" are text, not null.
        #expect((try? RecorderSettings.parse(text: "board: \"~\"\n", file: "c.yaml"))?.board == "~")
    }

    @Test func anEmptySectionHasNoKeys() throws {
        let s = try RecorderSettings.parse(text: "daemon:\n  # socket: /run/x.sock\nrate: 50\n", file: "c.yaml")
        #expect(s.daemon == DaemonSettings() && s.rate == 50)
    }

    @Test func aQuotedNumberIsTextNotANumber() {
        let e = error("# config\nrate: \"50\"\n")
        #expect(e?.file == "c.yaml" && e?.line == 2 && e?.key == "rate")
        #expect(e?.message.contains("found the text \"50\"") == true, "\(String(describing: e))")
        #expect(error("declination: '4.5'\n")?.key == "declination")
        #expect(error("daemon:\n  led_gps: \"true\"\n").map { ($0.line, $0.key) } ?? (0, nil) == (2, "daemon.led_gps"))
        #expect(error("calibration:\n  gyro_bias: [1, \"2\", 3]\n")?.message.contains("found the text \"2\"") == true)
        let board = "name: b\nimu:\n  model: mpu9250\n  bus: \"1\"\n"
        #expect(throws: ConfigError.self) { try BoardDefinition.parse(text: board, file: "b.yaml") }
        // Text values may be quoted or not.
        #expect((try? RecorderSettings.parse(text: "rotate_size: \"64M\"\nlabel: 'T'\n", file: "c.yaml"))?.rotateBytes == 64 << 20)
    }

    @Test func aDuplicateKeyIsReportedAtItsSecondLine() {
        let e = error("rate: 50\nout: /tmp/a\n\nrate: 100\n")
        #expect(e?.line == 4 && e?.key == "rate" && e?.message == "key given twice (first at line 1)", "\(String(describing: e))")
        let nested = error("daemon:\n  socket: /run/a.sock\n  long_press: 3s\n  socket: /run/b.sock\n")
        #expect(nested?.line == 4 && nested?.message == "key given twice (first at line 2)", "\(String(describing: nested))")
        #expect(nested?.description.hasPrefix("c.yaml:4: socket: key given twice") == true)
    }

    @Test func aBoardWithAnEmptyNameSaysWhere() {
        #expect(throws: ConfigError(file: "b.yaml", line: 2, key: "name", message: "no value: give one, or delete the line to use the default")) {
            try BoardDefinition.parse(text: "# board\nname:\nimu:\n  model: auto\n", file: "b.yaml")
        }
    }
}
