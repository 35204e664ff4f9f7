import Foundation
import Logging
@testable import MotionApp
import MotionConfig
import MotionCore
import MotionWeb
import Testing

/// `motionlog serve` as a user meets it: `--max-connections N` (the cap on open connections
/// from the command line, over the config's `web.max_connections`, refused outside 1–4096 as
/// the config key is), and refusals to start that say what is wrong and what to do, without
/// the internals of the network library.
@Suite("motionlog serve")
struct ServeCLITests {
    @Test func maxConnectionsOverridesTheConfig() throws {
        let settings = try RecorderSettings.parse(text: "web:\n  max_connections: 200\n", file: "config.yaml")
        #expect(try ServeCommand.parse(["--max-connections", "5"]).connections.limit(settings) == 5)
        #expect(try ServeCommand.parse([]).connections.limit(settings) == 200)
        #expect(try ServeCommand.parse([]).connections.limit(RecorderSettings()) == nil)   // the server's 64
        #expect(try ServeCommand.parse(["--max-connections", "4096"]).connections.maxConnections == 4096)
        // The daemon's --web page takes the same option, the same way.
        #expect(try DaemonCommand.parse(["--max-connections", "7"]).webConnections.limit(settings) == 7)
        #expect(try DaemonCommand.parse([]).webConnections.limit(settings) == 200)
        #expect(throws: (any Error).self) { try DaemonCommand.parse(["--max-connections", "0"]) }
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

    @Test func aFolderThatDoesNotExistIsCalledSo() throws {
        let missing = Binary.temporaryDirectory() + "/nonexist"
        let r = try Binary.run(["serve", "--out", missing, "--config", DaemonTestSupport.emptyConfig(), "--listen", "127.0.0.1:1"])
        #expect(r.status == 2 && r.stdout.isEmpty)
        #expect(r.stderr.contains("\(missing) does not exist") && r.stderr.contains("--out DIR"), "\(r.stderr)")
        #expect(!r.stderr.contains("not a folder of recordings"), "\(r.stderr)")
    }

    /// A daemon that is not there, asked through `serve --socket` by the page's Start
    /// button: the 503 says so in words (it read `CommandFailure(message: "…", code: 1)`).
    @Test func aMissingDaemonIsSaidInWordsOnThePage() throws {
        let socket = Binary.temporaryDirectory() + "/none.sock"
        let live = SocketLiveControl(socket: socket)
        let request = Array(#"{"command":"start","protocolVersion":1}"#.utf8)
        #expect { _ = try live.exchange(request) } throws: { error in
            "\(error)".hasPrefix("no motionlog daemon is running") && !"\(error)".contains("CommandFailure")
        }
        #expect("\(CommandFailure("it went wrong", code: 1))" == "it went wrong")
    }

    /// The port held by a server of this process: "already in use", what to do, and neither
    /// NIO's "bind(descriptor:ptr:bytes:)" nor an errno number nor an unmatched ")".
    @Test func aPortInUseIsSaidInWords() async throws {
        let folder = Binary.temporaryDirectory()
        let holder = try await WebServer(configuration: WebConfiguration(folder: folder, listen: ListenAddress(host: "127.0.0.1", port: 0)),
                                         log: Logger(label: "test")).start()
        defer { holder.stop() }
        let address = "127.0.0.1:\(holder.port)"
        let r = try Binary.run(["serve", "--out", folder, "--config", DaemonTestSupport.emptyConfig(), "--listen", address])
        #expect(r.status == 2 && r.stdout.isEmpty, "\(r.stdout)")
        #expect(r.stderr.contains("cannot listen on \(address): the port is already in use — stop the other server or choose another port with --listen HOST:PORT"),
                "\(r.stderr)")
        #expect(!r.stderr.contains("bind(") && !r.stderr.contains("errno") && !r.stderr.contains(")"), "\(r.stderr)")
    }
}
