import Foundation
@testable import MotionApp
import MotionCore
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The real binary, as on the bike: `motionlog daemon` driven through its socket by
/// `motionlog start|label|status|stop`, killed with SIGKILL and recovered, stopped by SIGTERM.
@Suite("motionlog daemon and recovery, as processes", .serialized)
struct DaemonCLITests {
    typealias S = DaemonTestSupport

    /// A running `motionlog daemon` on the simulator board.
    final class DaemonProcess {
        let process = Process()
        let out: String
        let socket: String
        let log: String

        init(out: String, rate: Int = 100, socket: String? = nil, extra: [String] = []) throws {
            self.out = out
            let dir = Binary.temporaryDirectory()
            self.socket = socket ?? dir + "/control.sock"
            log = dir + "/daemon.log"
            _ = FileManager.default.createFile(atPath: log, contents: nil)
            process.executableURL = URL(fileURLWithPath: Binary.path)
            process.arguments = ["daemon", "--board", "simulator", "--boards-dir", S.repo + "/boards", "--out", out,
                                 "--rate", "\(rate)", "--socket", self.socket, "--config", S.emptyConfig(), "--quiet"] + extra
            process.standardOutput = FileHandle.nullDevice
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
            try process.run()
        }

        /// Waits (bounded) until the daemon answers on its socket.
        func waitUntilReady() -> Bool {
            S.eventually { (try? Binary.run(["status", "--socket", socket]).status) == 0 }
        }

        func run(_ args: [String]) throws -> Binary.Result { try Binary.run(args + ["--socket", socket]) }

        /// `status --json`, parsed with JSONSerialization (independently of the daemon's types).
        func status() throws -> [String: Any] {
            let r = try run(["status", "--json"])
            guard r.status == 0, let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any] else {
                throw CommandFailure("status failed: \(r.stderr)", code: 1)
            }
            return object
        }

        func rows(_ source: String = "A") -> Int {
            ((try? status())?["rowsWritten"] as? [String: Any])?[source] as? Int ?? 0
        }

        func stderr() -> String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

        func signal(_ sig: Int32) {
            kill(process.processIdentifier, sig)
            process.waitUntilExit()
        }
    }

    @Test func theDaemonIsDrivenThroughItsSocket() throws {
        let out = Binary.temporaryDirectory()
        let daemon = try DaemonProcess(out: out)
        #expect(daemon.waitUntilReady(), "\(daemon.stderr())")
        #expect(try daemon.status()["state"] as? String == "idle")

        let start = try daemon.run(["start"])
        #expect(start.status == 0 && start.stdout.contains("recording started"), "\(start.stderr)")
        #expect(try daemon.run(["start"]).stdout.contains("already recording"))
        #expect(S.eventually { daemon.rows() >= 100 })
        #expect(try daemon.run(["label", "T"]).status == 0)
        let mark = daemon.rows()
        #expect(S.eventually { daemon.rows() >= mark + 100 })

        let status = try daemon.status()
        #expect(status["state"] as? String == "recording" && status["label"] as? String == "T")
        #expect((status["currentFile"] as? String)?.hasPrefix(out) == true)
        #expect(status["rateHz"] as? Int == 100 && (status["elapsedSeconds"] as? Double ?? 0) > 1)
        #expect((status["rowsPerSecond"] as? [String: Any])?["A"] != nil)
        #expect((status["gps"] as? [String: Any])?["fix"] as? String == "3D fix")
        #expect((status["freeSpace"] as? [String: Any])?["minimumBytes"] as? Int == 100 << 20)
        // Where it really stops: the reserve plus the headroom for buffered rows.
        #expect(((status["freeSpace"] as? [String: Any])?["stopsBelowBytes"] as? Int ?? 0) > 100 << 20)
        #expect(status["droppedRows"] as? Int == 0)
        let human = try daemon.run(["status"])
        #expect(human.stdout.contains("motionlog daemon: recording") && human.stdout.contains("rows/s"))
        // The simulator board has no buttons: the status says so rather than an error.
        #expect(status["gpio"] as? String == "no buttons or LED in the board file")
        #expect(human.stdout.contains("gpio      no buttons or LED in the board file"), "\(human.stdout)")

        let stop = try daemon.run(["stop"])
        #expect(stop.status == 0 && stop.stdout.contains("recording stopped"))
        let files = Binary.csvFiles(in: out)
        #expect(files.count == 1 && stop.stdout.contains(files[0]))
        #expect(try Binary.run(["check", files[0]]).status == 0)
        #expect(try S.labelRuns(files[0]) == "WT")

        daemon.signal(SIGTERM)
        #expect(daemon.process.terminationStatus == 0)
        #expect(!FileManager.default.fileExists(atPath: daemon.socket))
    }

    /// A recording that ends by itself (`--duration`) is logged with its files, as one a
    /// stop ended: the journal had "recording started" and never an end.
    @Test func aRecordingThatReachesItsDurationIsLoggedWithItsFiles() throws {
        let out = Binary.temporaryDirectory()
        let daemon = try DaemonProcess(out: out, extra: ["--duration", "1s"])
        #expect(daemon.waitUntilReady(), "\(daemon.stderr())")
        #expect(try daemon.run(["start"]).status == 0)
        #expect(S.eventually { (try? daemon.status())?["state"] as? String == "idle" })
        let files = Binary.csvFiles(in: out)
        #expect(files.count == 1)
        #expect(S.eventually { daemon.stderr().contains("recording stopped: it reached its duration") }, "\(daemon.stderr())")
        #expect(files.allSatisfy { daemon.stderr().contains($0) }, "\(daemon.stderr())")
        daemon.signal(SIGTERM)
        #expect(daemon.process.terminationStatus == 0)
    }

    /// `--no-gpio`: the status says the buttons are not used, not that they failed.
    @Test func withoutGPIOTheStatusSaysSo() throws {
        let daemon = try DaemonProcess(out: Binary.temporaryDirectory(), extra: ["--no-gpio"])
        #expect(daemon.waitUntilReady(), "\(daemon.stderr())")
        #expect(try daemon.status()["gpio"] as? String == "not used (--no-gpio)")
        #expect(try daemon.run(["status"]).stdout.contains("gpio      not used (--no-gpio)"))
        daemon.signal(SIGTERM)
        #expect(daemon.process.terminationStatus == 0)
    }

    /// The daemon's low-space refusal names its own option, `--min-free-space`; `record`'s
    /// names the config file (`RecordFailureCLITests`).
    @Test func aLowSpaceRefusalNamesTheDaemonsOption() throws {
        let out = Binary.temporaryDirectory()
        let daemon = try DaemonProcess(out: out, extra: ["--min-free-space", "1000000G"])
        #expect(daemon.waitUntilReady(), "\(daemon.stderr())")
        let start = try daemon.run(["start"])
        #expect(start.status != 0)
        #expect(start.stderr.contains("lower the reserve with --min-free-space"), "\(start.stderr)")
        daemon.signal(SIGTERM)
        #expect(Binary.csvFiles(in: out).isEmpty)
    }

    @Test func sigtermWhileRecordingClosesTheFilesAndExitsZero() throws {
        let out = Binary.temporaryDirectory()
        let daemon = try DaemonProcess(out: out)
        #expect(daemon.waitUntilReady(), "\(daemon.stderr())")
        #expect(try daemon.run(["start"]).status == 0)
        #expect(S.eventually { daemon.rows() >= 50 })
        daemon.signal(SIGTERM)
        #expect(daemon.process.terminationStatus == 0)
        let csv = try #require(Binary.csvFiles(in: out).first)
        let meta = try S.metadata(csv)
        #expect(meta.endedCleanly && meta.endReason == "stopped")
        #expect(try Binary.run(["check", csv]).status == 0)
    }

    /// SIGKILL a real-time `record` (100 Hz, fsync every 0.5 s), then start again: the killed
    /// file is recovered, every file passes `check`, and per IMU source the rows lost — those
    /// the recording produced between the last row in the file and the kill — are at most
    /// fsync interval × rate = 50. (A killed process loses only what was not yet handed to
    /// write(2): at most one writer cycle, half the fsync interval, plus a write.)
    @Test func sigkilledRecordingIsRecoveredWithinTheFsyncBound() throws {
        let out = Binary.temporaryDirectory()
        let rate = 100.0, fsync = 0.5
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Binary.path)
        p.arguments = ["record", "--board", "simulator", "--boards-dir", S.repo + "/boards", "--rate", "100",
                       "--fsync-interval", "0.5", "--sources", "AGML", "--out", out, "--config", S.emptyConfig(), "--quiet"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        // About two seconds of rows on disk (~16 kB/s), then kill without warning.
        #expect(S.eventually {
            guard let f = Binary.csvFiles(in: out).first,
                  let size = try? FileManager.default.attributesOfItem(atPath: f)[.size] as? Int else { return false }
            return size > 32_000
        })
        kill(p.processIdentifier, SIGKILL)
        let killedAt = Date().timeIntervalSince1970
        p.waitUntilExit()
        #expect(p.terminationReason == .uncaughtSignal)
        let killed = try #require(Binary.csvFiles(in: out).first)
        #expect(try S.metadata(killed).endedCleanly == false)

        // A new recording recovers the folder before it starts.
        let again = try Binary.run(["record", "--board", "simulator", "--boards-dir", S.repo + "/boards", "--fast",
                                    "--duration", "1", "--out", out, "--config", S.emptyConfig(), "--quiet"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("recovered an unfinished recording: \((killed as NSString).lastPathComponent)"))
        let files = Binary.csvFiles(in: out)
        #expect(files.count == 2)
        for f in files {
            let check = try Binary.run(["check", f])
            #expect(check.status == 0 && !check.stdout.contains("warning"), "\(check.stdout)")
        }
        let meta = try S.metadata(killed)
        #expect(!meta.endedCleanly && meta.endReason == "recovered")

        let report = try RecordingCheck.check(path: killed)
        for source in [Source.accelerometer, .gyroscope, .magnetometer] {
            let s = try #require(report.sources[source])
            #expect(meta.file.rows[String(source.letter)] == s.rows)
            // At most one row per tick (nothing invented). Gaps inside the file would be
            // overruns of a loaded machine (counted, never filled in); what the kill lost is
            // the tail after the last row that reached the disk.
            #expect(s.rows <= Int(((s.lastWhen - s.firstWhen) * rate).rounded()) + 1)
            let lost = Int(((killedAt - s.lastWhen) * rate).rounded(.down))
            #expect(lost >= 0 && Double(lost) <= fsync * rate, "\(source): \(lost) rows lost")
        }
    }

    @Test func aSigkilledDaemonIsRecoveredByTheNextOne() throws {
        let out = Binary.temporaryDirectory()
        let first = try DaemonProcess(out: out)
        #expect(first.waitUntilReady(), "\(first.stderr())")
        #expect(try first.run(["start"]).status == 0)
        #expect(S.eventually { first.rows() >= 100 })
        first.signal(SIGKILL)
        let killed = try #require(Binary.csvFiles(in: out).first)
        #expect(FileManager.default.fileExists(atPath: first.socket))   // left behind, stale

        // The same socket path: the stale file is replaced, the folder recovered.
        let second = try DaemonProcess(out: out, socket: first.socket)
        #expect(second.waitUntilReady(), "\(second.stderr())")
        #expect(second.stderr().contains("removed a stale control socket"))
        #expect(second.stderr().contains("recovered an unfinished recording"))
        #expect(try second.run(["start"]).status == 0)
        #expect(S.eventually { second.rows() >= 20 })
        #expect(try second.run(["stop"]).status == 0)
        second.signal(SIGTERM)
        #expect(second.process.terminationStatus == 0)

        let files = Binary.csvFiles(in: out)
        #expect(files.count == 2)
        for f in files { #expect(try Binary.run(["check", f]).status == 0) }
        #expect(try S.metadata(killed).endReason == "recovered")
    }

    @Test func usageAndConnectionErrorsAreClear() throws {
        let none = try Binary.run(["status", "--socket", Binary.temporaryDirectory() + "/none.sock"])
        #expect(none.status == 1 && none.stderr.contains("no motionlog daemon is running"))
        let fast = try Binary.run(["daemon", "--board", "simulator", "--fast", "--duration", "1"])
        #expect(fast.status == 2 && fast.stderr.contains("Unknown option '--fast'"))
        // The daemon's help lists only what it accepts.
        let help = try Binary.run(["daemon", "--help"])
        #expect(!help.stdout.contains("--fast") && !help.stdout.contains("Ctrl-C") && !help.stdout.contains("--quiet"))
        #expect(help.stdout.contains("Stop each recording after this long"))
        let press = try Binary.run(["daemon", "--board", "simulator", "--long-press", "100s", "--config", S.emptyConfig()])
        #expect(press.status == 2 && press.stderr.contains("--long-press \"100s\""))
        let label = try Binary.run(["label", "w", "--socket", "/tmp/x.sock"])
        #expect(label.status == 2 && label.stderr.contains("one uppercase letter"))
        let busy = Binary.temporaryDirectory() + "/taken"
        try "x".write(toFile: busy, atomically: false, encoding: .utf8)
        let taken = try Binary.run(["daemon", "--board", "simulator", "--boards-dir", S.repo + "/boards", "--socket", busy,
                                    "--out", Binary.temporaryDirectory(), "--config", S.emptyConfig()])
        #expect(taken.status == 2 && taken.stderr.contains("exists and is not a socket"))
    }
}
