import Foundation
@testable import MotionApp
import MotionConfig
import Testing

/// Where board files come from (issue 10, major 10): the simulator board is built in, the
/// boards folder is searched beside the executable and in the install prefix, and a folder
/// named on the command line must exist.
@Suite("Boards search path and the built-in simulator")
struct BoardSearchTests {
    typealias S = DaemonTestSupport

    /// Runs `executable` in `directory` with exactly `environment`.
    func run(_ executable: String, _ arguments: [String], in directory: String, environment: [String: String] = [:]) throws -> Binary.Result {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        p.currentDirectoryURL = URL(fileURLWithPath: directory)
        p.environment = environment
        let out = Binary.temporaryDirectory() + "/out", err = Binary.temporaryDirectory() + "/err"
        _ = FileManager.default.createFile(atPath: out, contents: nil)
        _ = FileManager.default.createFile(atPath: err, contents: nil)
        p.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
        p.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: err))
        try p.run()
        p.waitUntilExit()
        return Binary.Result(status: p.terminationStatus, stdout: try String(contentsOfFile: out, encoding: .utf8),
                             stderr: try String(contentsOfFile: err, encoding: .utf8))
    }

    @Test func theBuiltInSimulatorBoardIsTheShippedFile() throws {
        let shipped = try String(contentsOfFile: S.repo + "/boards/simulator.yaml", encoding: .utf8)
        #expect(BuiltInBoards.texts["simulator"] == shipped)
        let noFolder = BoardCatalog(directory: nil)
        let sim = try noFolder.load("simulator")
        #expect(sim.imu.model == .simulated && sim.file == "<built-in>/simulator.yaml")
        #expect(noFolder.all().boards.map(\.name) == ["simulator"])
        #expect(throws: ConfigError.self) { try noFolder.load("raspberry-pi-4b") }
    }

    @Test func theSearchPathGoesBesideTheBinaryThenThePrefixThenTheCheckout() throws {
        let path = BoardCatalog.searchPath(executablePath: "/opt/ml/bin/motionlog", environment: ["MOTIONLOG_BOARDS": "/srv/boards"])
        #expect(path == ["/srv/boards", "/opt/ml/bin/boards", "/opt/ml/share/motionlog/boards", "/usr/local/share/motionlog/boards",
                         "/usr/share/motionlog/boards", "/opt/boards", "/boards"])
        // An installed layout: <prefix>/bin/motionlog and <prefix>/share/motionlog/boards.
        let prefix = Binary.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: prefix + "/share/motionlog/boards", withIntermediateDirectories: true)
        try "name: mine\nimu:\n  model: auto\n".write(toFile: prefix + "/share/motionlog/boards/mine.yaml", atomically: true, encoding: .utf8)
        let installed = try BoardCatalog.locate(explicit: nil, executablePath: prefix + "/bin/motionlog", environment: [:])
        #expect(installed.directory == prefix + "/share/motionlog/boards")
        #expect(try installed.load("mine").name == "mine")
        #expect(try installed.load("simulator").file == "<built-in>/simulator.yaml")
        // A folder beside the binary comes first.
        try FileManager.default.createDirectory(atPath: prefix + "/bin/boards", withIntermediateDirectories: true)
        #expect(try BoardCatalog.locate(explicit: nil, executablePath: prefix + "/bin/motionlog", environment: [:]).directory == prefix + "/bin/boards")
        // A named folder or MOTIONLOG_BOARDS must exist.
        #expect(throws: ConfigError.self) { try BoardCatalog.locate(explicit: "/nonexistent", executablePath: prefix + "/bin/motionlog") }
        #expect(throws: ConfigError.self) {
            try BoardCatalog.locate(explicit: nil, executablePath: prefix + "/bin/motionlog", environment: ["MOTIONLOG_BOARDS": "/nonexistent"])
        }
    }

    @Test func boardsWithAMissingFolderIsAnError() throws {
        let r = try Binary.run(["boards", "--boards-dir", "/nonexistent"])
        #expect(r.status == 2 && r.stderr.contains("--boards-dir /nonexistent: no such boards folder"), "\(r.stderr)")
        let rec = try Binary.run(["record", "--board", "simulator", "--boards-dir", "/nonexistent", "--duration", "1", "--fast"])
        #expect(rec.status == 2 && rec.stderr.contains("--boards-dir /nonexistent: no such boards folder"))
        // Named by the config: which file and line named it.
        let config = Binary.temporaryDirectory() + "/config.yaml"
        try "rate: 50\nboards_dir: /nonexistent\n".write(toFile: config, atomically: false, encoding: .utf8)
        let fromConfig = try Binary.run(["record", "--board", "simulator", "--config", config, "--duration", "1", "--fast"])
        #expect(fromConfig.status == 2 && fromConfig.stderr.contains("\(config):2: boards_dir /nonexistent: no such boards folder"), "\(fromConfig.stderr)")
    }

    /// The binary copied somewhere else, run from a folder with no boards/ and no
    /// MOTIONLOG_BOARDS, as a user who downloaded it would.
    @Test func recordBoardSimulatorWorksFromAnywhere() throws {
        let bin = Binary.temporaryDirectory() + "/motionlog"
        try Binary.copy(to: bin)
        let home = Binary.temporaryDirectory()
        let r = try run(bin, ["record", "--board", "simulator", "--fast", "--duration", "2", "--out", home + "/rec", "--quiet",
                              "--config", S.emptyConfig()], in: home)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(Binary.csvFiles(in: home + "/rec").count == 1)
        let boards = try run(bin, ["boards"], in: home)
        #expect(boards.status == 0 && boards.stdout.contains("simulator"), "\(boards.stdout)")
        let installed = ["/usr/local/share/motionlog/boards", "/usr/share/motionlog/boards"].contains { FileManager.default.fileExists(atPath: $0) }
        if !installed { #expect(boards.stdout.contains("No boards folder found") && boards.stdout.contains("(built in)")) }
        try? FileManager.default.removeItem(atPath: bin)
    }
}
