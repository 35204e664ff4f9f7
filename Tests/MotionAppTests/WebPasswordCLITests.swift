import Foundation
import MotionConfig
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `motionlog web-password`: the hash lands in the config, the rest of the file stays, and
/// a file holding a password hash is never readable by other users.
@Suite("motionlog web-password")
struct WebPasswordCLITests {
    @Test func aNewConfigHoldingTheHashIsNotWorldReadable() throws {
        let dir = Binary.temporaryDirectory()
        let path = dir + "/config.yaml"
        let r = try Binary.run(via: Binary.path, ["web-password", "--config", path], input: "correct horse battery\n")
        #expect(r.status == 0, "\(r.stderr)")
        var st = stat()
        #expect(stat(path, &st) == 0)
        #expect(st.st_mode & 0o007 == 0, "mode \(String(st.st_mode & 0o777, radix: 8))")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let settings = try RecorderSettings.parse(text: text, file: path)
        #expect(settings.web?.passwordHash?.hasPrefix("$2") == true)
    }

    @Test func anExistingConfigKeepsItsOtherLinesAndLosesOnlyTheOtherBits() throws {
        let dir = Binary.temporaryDirectory()
        let path = dir + "/config.yaml"
        try "# my logger\nrate: 50\n".write(toFile: path, atomically: false, encoding: .utf8)
        #expect(chmod(path, 0o664) == 0)
        let r = try Binary.run(via: Binary.path, ["web-password", "--config", path], input: "correct horse battery\n")
        #expect(r.status == 0, "\(r.stderr)")
        var st = stat()
        #expect(stat(path, &st) == 0 && st.st_mode & 0o777 == 0o660, "mode \(String(st.st_mode & 0o777, radix: 8))")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasPrefix("# my logger\nrate: 50\n"))
        #expect(text.contains("password_hash: \"$2"))
    }

    /// Only the hash's line of the `web:` section is written: its other keys and comments
    /// stay (max_connections was dropped without a word), and a second run replaces the hash.
    @Test func theWebSectionKeepsItsOtherKeys() throws {
        let dir = Binary.temporaryDirectory()
        let path = dir + "/config.yaml"
        let before = "out: rec\nweb:\n  listen: 127.0.0.1:8099\n  # at most ten phones\n  max_connections: 10\noffload:\n  attempts: 2\n"
        try before.write(toFile: path, atomically: false, encoding: .utf8)
        for round in 1...2 {
            let r = try Binary.run(via: Binary.path, ["web-password", "--config", path], input: "correct horse battery \(round)\n")
            #expect(r.status == 0, "\(r.stderr)")
        }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let settings = try RecorderSettings.parse(text: text, file: path)
        #expect(settings.web?.maxConnections == 10 && settings.web?.passwordHash?.hasPrefix("$2") == true, "\(text)")
        #expect(text.hasPrefix("out: rec\nweb:\n  listen: 127.0.0.1:8099\n  # at most ten phones\n  max_connections: 10\n  password_hash: \"$2"), "\(text)")
        #expect(text.hasSuffix("# motionlog web-password\noffload:\n  attempts: 2\n"), "\(text)")
        #expect(text.components(separatedBy: "password_hash").count == 2, "\(text)")
    }

    @Test func aShortPasswordWritesNothing() throws {
        let dir = Binary.temporaryDirectory()
        let path = dir + "/config.yaml"
        let r = try Binary.run(via: Binary.path, ["web-password", "--config", path], input: "short\n")
        #expect(r.status == 2)
        #expect(r.stderr.contains("at least 8"))
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
