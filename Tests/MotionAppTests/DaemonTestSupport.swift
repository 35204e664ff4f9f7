import Foundation
import Logging
@testable import MotionApp
import MotionCore
import Synchronization

/// Shared helpers of the daemon tests.
enum DaemonTestSupport {
    /// The repository root (tests read the repository's own boards/, udev/, systemd/).
    static var repo: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }

    /// An empty config file, so no /etc/motionlog/config.yaml on the test machine leaks in.
    static func emptyConfig() -> String {
        let path = Binary.temporaryDirectory() + "/config.yaml"
        _ = FileManager.default.createFile(atPath: path, contents: Data("# empty\n".utf8))
        return path
    }

    /// The simulator board's setup, as `motionlog daemon --board simulator --out DIR --rate R` resolves it.
    static func simulatorSetup(out: String, rate: Int = 50, extra: [String] = []) throws -> RecordingSetup {
        let options = try RecordingOptions.parse(["--board", "simulator", "--boards-dir", repo + "/boards", "--out", out,
                                                  "--rate", "\(rate)", "--fsync-interval", "0.2", "--config", emptyConfig()] + extra)
        return try RecordingSetup.resolve(options)
    }

    static func daemon(out: String, rate: Int = 50, freeSpace: FreeSpaceGuard? = nil, shutdown: ShutdownRunner = RecordingShutdown(),
                       shutdownCommand: String? = nil, launcher: RecordingLauncher? = nil, extra: [String] = []) throws -> Daemon {
        let log = Logger(label: "test")
        var settings = Daemon.Settings()
        settings.core.shutdownCommand = shutdownCommand
        let l = try launcher ?? SetupLauncher(setup: simulatorSetup(out: out, rate: rate, extra: extra), freeSpace: freeSpace, log: log)
        return Daemon(launcher: l, settings: settings, shutdown: shutdown, log: log)
    }

    /// Polls `condition` until it holds or `timeout` seconds pass (a bounded wait for a
    /// state, never a fixed sleep); returns whether it held.
    @discardableResult
    static func eventually(_ timeout: Double = 30, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try condition() { return true }
            usleep(10_000)
        }
        return try condition()
    }

    static func written(_ d: Daemon, _ source: String = "A") -> Int64 { d.status().rowsWritten[source] ?? 0 }

    static func metadata(_ csv: String) throws -> RecordingMetadata {
        try RecordingMetadata.decode(Array(try Data(contentsOf: URL(fileURLWithPath: String(csv.dropLast(4)) + ".json"))))
    }

    /// The label letters of one source's rows, with runs collapsed: e.g. "WTW".
    static func labelRuns(_ csv: String, source: String = "A") throws -> String {
        var runs = ""
        for line in try String(contentsOfFile: csv, encoding: .utf8).split(separator: "\n").dropFirst() {
            let fields = line.split(separator: ",", maxSplits: 2)
            guard fields.count > 2, fields[0] == source else { continue }
            let label = String(fields[1])
            if runs.last.map(String.init) != label { runs += label }
        }
        return runs
    }
}

/// A shutdown runner that records what it was asked to run, and what the recordings'
/// metadata said at that moment (they must already be closed).
final class RecordingShutdown: ShutdownRunner, Sendable {
    private let state = Mutex<[(command: String, closedCleanly: Bool)]>([])
    let folder: String?
    let failure: String?
    init(folder: String? = nil, failure: String? = nil) { self.folder = folder; self.failure = failure }
    func run(_ command: String) -> String? {
        var clean = true
        if let folder {
            for csv in Binary.csvFiles(in: folder) {
                clean = clean && ((try? DaemonTestSupport.metadata(csv).endedCleanly) ?? false)
            }
        }
        state.withLock { $0.append((command, clean)) }
        return failure
    }
    var calls: [(command: String, closedCleanly: Bool)] { state.withLock { $0 } }
}

extension Binary {
    /// Runs `executable` (the motionlog binary, or setpriv wrapping it) and captures its
    /// output; `input` is its standard input (none when nil), `directory` its working
    /// directory (this process's when nil).
    static func run(via executable: String, _ arguments: [String], input: String? = nil, in directory: String? = nil) throws -> Result {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        if let directory { p.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        let stdin = Pipe()
        if input != nil { p.standardInput = stdin }
        try p.run()
        if let input {
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try? stdin.fileHandleForWriting.close()
        }
        let outBox = DataBox(), errBox = DataBox()
        let group = DispatchGroup()
        for (pipe, box) in [(out, outBox), (err, errBox)] {
            group.enter()
            DispatchQueue.global().async {
                box.set(pipe.fileHandleForReading.readDataToEndOfFile())
                group.leave()
            }
        }
        group.wait()
        p.waitUntilExit()
        return Result(status: p.terminationStatus, stdout: String(decoding: outBox.get(), as: UTF8.self),
                      stderr: String(decoding: errBox.get(), as: UTF8.self))
    }
}
