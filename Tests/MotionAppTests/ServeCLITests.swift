import Foundation
@testable import MotionApp
import MotionConfig
import Testing

/// `motionlog serve --max-connections N`: the cap on open connections from the command
/// line, over the config's `web.max_connections` (the config was the only way to set it),
/// refused outside 1–4096 as the config key is.
@Suite("motionlog serve")
struct ServeCLITests {
    @Test func maxConnectionsOverridesTheConfig() throws {
        let settings = try RecorderSettings.parse(text: "web:\n  max_connections: 200\n", file: "config.yaml")
        #expect(try ServeCommand.parse(["--max-connections", "5"]).connectionLimit(settings) == 5)
        #expect(try ServeCommand.parse([]).connectionLimit(settings) == 200)
        #expect(try ServeCommand.parse([]).connectionLimit(RecorderSettings()) == nil)   // the server's 64
        #expect(try ServeCommand.parse(["--max-connections", "4096"]).maxConnections == 4096)
    }

    @Test func maxConnectionsOutOfRangeIsAUsageError() throws {
        // A folder that is not there: were the option let through, serve would stop at it, not serve.
        let missing = Binary.temporaryDirectory() + "/missing"
        for n in ["0", "4097", "-3"] {
            let r = try Binary.run(["serve", "--out", missing, "--max-connections=\(n)"])
            #expect(r.status != 0, "--max-connections \(n) started")
            #expect(r.stderr.contains("--max-connections \(n): give a number of connections from 1 to 4096"), "\(r.stderr)")
        }
        let help = try Binary.run(["serve", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("--max-connections <N>") && help.stdout.contains("web.max_connections"), "\(help.stdout)")
    }
}
