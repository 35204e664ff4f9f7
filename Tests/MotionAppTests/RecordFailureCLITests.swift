import Foundation
import Logging
@testable import MotionApp
@testable import MotionCore
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `record` and the daemon when the card fails them, as a user meets it: a folder that
/// cannot be written, a full card, no inodes, a folder deleted mid-recording, injected I/O
/// errors. Never "Recorded ..." with exit 0 when rows were lost; the message says what
/// really failed.
@Suite("record when writing fails", .serialized)
struct RecordFailureCLITests {
    typealias S = DaemonTestSupport

    static func config(_ text: String) -> String {
        let path = Binary.temporaryDirectory() + "/config.yaml"
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        return path
    }

    static func args(_ out: String, _ extra: [String], config: String = S.emptyConfig()) -> [String] {
        ["record", "--board", "simulator", "--boards-dir", S.repo + "/boards", "--out", out, "--config", config, "--quiet"] + extra
    }

    /// A tmpfs of `size` mounted for one test (root only; nil elsewhere, with the reason printed).
    final class SmallFileSystem {
        let path: String
        init?(options: String, why: String) {
            guard getuid() == 0 else { print("skipped (\(why)): mounting a small tmpfs needs root"); return nil }
            path = Binary.temporaryDirectory()
            let r = try? Binary.run(via: "/bin/mount", ["-t", "tmpfs", "-o", options, "tmpfs", path])
            guard r?.status == 0 else { print("skipped (\(why)): mount failed: \(r?.stderr ?? "")"); return nil }
        }
        deinit { _ = try? Binary.run(via: "/bin/umount", ["-l", path]) }
        var free: Int64 { (try? StatvfsFileSystemStats().space(at: path).availableBytes) ?? -1 }
    }

    /// A folder `locked` the recording user may not write (created here), and `record
    /// --out out` run as that user: as user nobody when the tests run as root (root may
    /// write anywhere), against a root-owned 0755 folder; else a 0555 folder.
    static func recordAsUserWhoCannotWrite(locked: String, out: String) throws -> Binary.Result {
        try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: true)
        if getuid() == 0 {
            #expect(chmod(locked, 0o755) == 0)
            // The built-in simulator board: user nobody may not reach the checkout's boards/.
            return try Binary.run(via: "/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", Binary.path]
                                  + Self.args(out, ["--duration", "4"]).filter { $0 != "--boards-dir" && $0 != S.repo + "/boards" })
        }
        #expect(chmod(locked, 0o555) == 0)
        return try Binary.run(Self.args(out, ["--duration", "4"]))
    }

    @Test func aFolderTheUserCannotWriteFailsAtStartWithAClearMessage() throws {
        let out = Binary.temporaryDirectory() + "/locked"
        let result = try Self.recordAsUserWhoCannotWrite(locked: out, out: out)
        #expect(result.status != 0)
        #expect(!result.stdout.contains("Recorded"), "\(result.stdout)")
        #expect(result.stderr.contains("Permission denied") && result.stderr.contains(out), "\(result.stderr)")
        #expect(result.stderr.contains("--out"), "says what to do: \(result.stderr)")
        #expect(Binary.csvFiles(in: out).isEmpty)
    }

    /// A config file the user may not read is said to be unreadable, with what to do; it
    /// was "config file not found" for a file that was there.
    @Test func aConfigTheUserCannotReadIsNotCalledMissing() throws {
        let dir = Binary.temporaryDirectory()
        let config = dir + "/private.yaml"
        try "rate: 50\n".write(toFile: config, atomically: false, encoding: .utf8)
        #expect(chmod(config, 0o600) == 0 && chmod(dir, 0o755) == 0)
        let args = ["record", "--board", "simulator", "--fast", "--duration", "1", "--out", dir + "/out", "--config", config]
        let r = getuid() == 0
            ? try Binary.run(via: "/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", Binary.path] + args)
            : try { #expect(chmod(config, 0o000) == 0); return try Binary.run(args) }()
        #expect(r.status == 2, "\(r.status) \(r.stderr)")
        #expect(r.stderr.contains(config) && r.stderr.contains("cannot be read by this user") && !r.stderr.contains("not found"), "\(r.stderr)")
        // Inside a folder the user may not enter: not "not found" either.
        guard getuid() == 0 else { return }
        #expect(chmod(config, 0o644) == 0 && chmod(dir, 0o700) == 0)
        let hidden = try Binary.run(via: "/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", Binary.path] + args)
        #expect(hidden.status == 2 && hidden.stderr.contains("cannot be reached by this user") && !hidden.stderr.contains("not found"), "\(hidden.stderr)")
    }

    /// A file size limit (`ulimit -f`, the kernel's EFBIG path a FAT32 card takes at 4 GiB):
    /// SIGXFSZ killed the recorder there (exit 153, a torn file, no metadata); now the file
    /// ends at its last whole row and the recording goes on in the next one.
    @Test func aFileSizeLimitStartsTheNextFileInsteadOfKillingTheRecording() throws {
        let out = Binary.temporaryDirectory() + "/limited"
        let record = Self.args(out, ["--rate", "1000", "--fast", "--duration", "20"])
        // SIGXFSZ at its default (the test runner may ignore it, and a shell cannot undo that).
        let result = try Binary.run(via: "/bin/sh", ["-c", "ulimit -f 4000 && exec /usr/bin/env --default-signal=XFSZ \"$0\" \"$@\"",
                                                     Binary.path] + record)
        #expect(result.status == 0, "\(result.status) \(result.stderr)")
        let files = Binary.csvFiles(in: out)
        #expect(files.count >= 2, "\(files)")
        var rows: [String: Int] = [:]
        for (i, csv) in files.enumerated() {
            let meta = try RecordingMetadata.decode(Array(FileManager.default.contents(atPath: String(csv.dropLast(4)) + ".json") ?? Data()))
            #expect(meta.endedCleanly)
            #expect(meta.endReason == (i + 1 < files.count ? FileEnding.fileSizeLimitReason : "duration"))
            let text = try String(contentsOfFile: csv, encoding: .utf8)
            #expect(meta.file.bytes == Int64(text.utf8.count) && text.hasSuffix("\n"))
            #expect(meta.file.rows.values.reduce(0, +) == text.split(separator: "\n").count - 1, "rows in \(csv) (after its header)")
            rows.merge(meta.file.rows, uniquingKeysWith: +)
        }
        // Every IMU row of 20 s at 1 kHz (the simulated GPS gives 19 to 21 fixes).
        #expect(["A", "G", "M", "D"].allSatisfy { rows[$0] == 20_000 }, "\(rows)")
        #expect(result.stdout.contains("lost to write errors 0"), "\(result.stdout)")
    }

    /// A folder that cannot be written and one that cannot be created are the same setup
    /// problem: the same exit status, 1 (docs/ARCHITECTURE.md; it was 1 and 2).
    @Test func aFolderThatCannotBeCreatedExitsAsOneThatCannotBeWritten() throws {
        let locked = Binary.temporaryDirectory() + "/locked"
        let written = try Self.recordAsUserWhoCannotWrite(locked: locked, out: locked)
        let created = try Self.recordAsUserWhoCannotWrite(locked: locked, out: locked + "/sub")
        #expect(written.stderr.contains("Permission denied") && created.stderr.contains("cannot create folder \(locked)/sub"),
                "\(written.stderr)\n\(created.stderr)")
        #expect(written.status == 1 && created.status == 1, "\(written.status) \(created.status)")
        #expect(!FileManager.default.fileExists(atPath: locked + "/sub"))
    }

    @Test func aVirtualFileSystemIsNotCalledAFullCard() throws {
        let r = try Binary.run(Self.args("/sys/kernel", ["--fast", "--duration", "1"]))
        #expect(r.status != 0)
        #expect(!r.stderr.contains("card is full") && !r.stderr.contains("free on"), "\(r.stderr)")
        #expect(r.stderr.contains("/sys/kernel"), "\(r.stderr)")
    }

    @Test func aFullCardEndsWithAnErrorAndHonestMetadata() throws {
        guard let fs = SmallFileSystem(options: "size=20m", why: "full card") else { return }
        let r = try Binary.run(Self.args(fs.path, ["--fast", "--duration", "120", "--rate", "1000"],
                                         config: Self.config("min_free_space: 0\n")))
        #expect(r.status == 1, "\(r.stdout)\n\(r.stderr)")
        #expect(r.stderr.contains("rows were lost to write errors"), "\(r.stderr)")
        #expect(r.stdout.contains("WITH WRITE ERRORS"), "\(r.stdout)")
        let csv = try #require(Binary.csvFiles(in: fs.path).first)
        let meta = try S.metadata(csv)
        #expect(!meta.endedCleanly, "a file that lost rows must not claim a clean end")
        // The final metadata reached the full card (rewritten in place) with the real count.
        #expect(meta.endReason == "duration, write-errors", "\(meta.endReason)")
        #expect(meta.counters.rowsLostToWriteErrors > 0)
        #expect(try Binary.run(["check", csv]).status == 0)
    }

    @Test func fastRecordingStopsBeforeTheReserveAndSaysSoTruthfully() throws {
        guard let fs = SmallFileSystem(options: "size=48m", why: "--fast and the reserve") else { return }
        let reserve: Int64 = 16 << 20
        let r = try Binary.run(Self.args(fs.path, ["--fast", "--duration", "36000", "--rate", "1000"],
                                         config: Self.config("min_free_space: 16M\n")))
        #expect(r.status == 1)
        #expect(r.stderr.contains("to keep the 16.0 MB reserve"), "\(r.stderr)")
        #expect(!r.stderr.contains("lost to write errors"), "\(r.stderr)")
        #expect(fs.free >= reserve, "free \(fs.free) of a \(reserve)-byte reserve")
        let csv = try #require(Binary.csvFiles(in: fs.path).first)
        let meta = try S.metadata(csv)
        #expect(meta.endedCleanly && meta.endReason == "low-disk-space")
        #expect(meta.counters.rowsLostToWriteErrors == 0)
    }

    /// `record` has no `--min-free-space` (only the daemon has): its refusal says how to
    /// lower the reserve with what `record` does read, the config file it was given (it
    /// said "pass a config file with --config" to someone who had).
    @Test func aRefusalForLowSpaceSaysHowRecordLowersTheReserve() throws {
        let out = Binary.temporaryDirectory()
        let config = Self.config("min_free_space: 1000000G\n")
        let r = try Binary.run(Self.args(out, ["--fast", "--duration", "1"], config: config))
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("not starting: only") && r.stderr.contains(out), "\(r.stderr)")
        #expect(r.stderr.contains("lower min_free_space in \(config)"), "\(r.stderr)")
        #expect(!r.stderr.contains("--min-free-space"), "record has no such option: \(r.stderr)")
        #expect(Binary.csvFiles(in: out).isEmpty)
    }

    @Test func runningOutOfInodesStopsCleanly() throws {
        guard let fs = SmallFileSystem(options: "size=64m,nr_inodes=300", why: "inodes") else { return }
        let r = try Binary.run(Self.args(fs.path, ["--fast", "--duration", "3600", "--rotate-size", "64K", "--buffer-rows", "1024"],
                                         config: Self.config("min_free_space: 1M\n")))
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("inodes"), "\(r.stderr)")
        #expect(!r.stderr.contains("lost to write errors"), "\(r.stderr)")
        for csv in Binary.csvFiles(in: fs.path) { #expect(try S.metadata(csv).endedCleanly) }
    }

    @Test func theOutputFolderDeletedMidRecordingStopsTheRecordingWithAnError() throws {
        let parent = Binary.temporaryDirectory()
        let out = parent + "/rec"
        let stdout = parent + "/stdout", stderr = parent + "/stderr"
        let child = try ShellChild([Binary.path] + Self.args(out, ["--duration", "600", "--fsync-interval", "0.2"]),
                                   stdout: stdout, stderr: stderr)
        #expect(RecordSignalTests.waitForRows(out))
        try FileManager.default.removeItem(atPath: out)
        child.wait()
        #expect(child.exitCode == 1, "\(child.outcome)")
        let text = try String(contentsOfFile: stdout, encoding: .utf8)
        let errors = try String(contentsOfFile: stderr, encoding: .utf8)
        #expect(text.contains("deleted while recording"), "\(text)")
        #expect(errors.contains("deleted") || errors.contains("is gone"), "\(errors)")
        #expect(!FileManager.default.fileExists(atPath: out), "the folder must not be created again")
    }

    @Test func aSplitTickNeverHappensWhenRotatingBySize() throws {
        let out = Binary.temporaryDirectory()
        let r = try Binary.run(Self.args(out, ["--fast", "--duration", "20", "--rotate-size", "16K", "--sources", "AGMD"]))
        #expect(r.status == 0, "\(r.stderr)")
        let files = Binary.csvFiles(in: out)
        #expect(files.count > 10)
        for f in files {
            let lines = try String(contentsOfFile: f, encoding: .utf8).split(separator: "\n").dropFirst()
            #expect(lines.first?.hasPrefix("A,") == true, "\(f) starts inside a tick")
            #expect(lines.last?.hasPrefix("D,") == true, "\(f) ends inside a tick")
        }
    }

    /// Every write from the 4th on fails with EIO (strace fault injection), and separately
    /// every fsync from the 2nd on: exit non-zero, no stray `.json.tmp`, and no metadata claims
    /// a clean end. (How many fsyncs a `--fast` run makes depends on how long it takes on the
    /// wall clock: on a fast machine 30 s at 1 kHz make three, the data at the stop and two
    /// metadata writes, so "from the 4th" injected nothing there. The 2nd is a metadata write
    /// whatever the speed.)
    @Test(arguments: ["write", "fsync"])
    func injectedIOErrorsEndWithAnError(call: String) throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/strace") else {
            print("skipped: strace is not installed (apt-get install strace)")
            return
        }
        let out = Binary.temporaryDirectory()
        let r = try Binary.run(via: "/usr/bin/strace", ["-f", "-qq", "-o", "/dev/null", "-e", "inject=\(call):error=EIO:when=\(call == "fsync" ? 2 : 4)+",
                                                        Binary.path] + Self.args(out, ["--fast", "--duration", "30", "--rate", "1000"]))
        if r.stderr.contains("PTRACE") || r.stderr.contains("Operation not permitted") && r.status != 0 && Binary.csvFiles(in: out).isEmpty {
            print("skipped: strace cannot trace here: \(r.stderr)")
            return
        }
        #expect(r.status != 0, "\(r.stdout)")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []
        #expect(!names.contains { $0.hasSuffix(".tmp") }, "\(names)")
        for csv in Binary.csvFiles(in: out) {
            if let meta = try? S.metadata(csv) { #expect(!meta.endedCleanly, "\(csv): \(meta.endReason)") }
        }
        // The next start recovers what needs it, and claims no clean end either.
        let report = RecordingRecovery.recover(folder: out, softwareVersion: "t")
        #expect(report.failures.isEmpty, "\(report.failures)")
        for csv in Binary.csvFiles(in: out) {
            let meta = try S.metadata(csv)
            #expect(!meta.endedCleanly)
            #expect(try Binary.run(["check", csv]).status == 0)
        }
    }

    @Test func theDaemonReportsAStartThatCannotWriteAndShowsTheError() throws {
        let d = try S.daemon(out: "/sys/kernel")
        let step = d.handle(.start)
        #expect(!step.accepted)
        #expect(step.message?.contains("/sys/kernel") == true, "\(step.message ?? "")")
        #expect(d.phase == .error)
        #expect(d.status().state == "error")
        #expect(d.ledPattern == .error)
        let reply = d.answer(ControlRequest(command: .start))
        #expect(!reply.ok && reply.status?.state == "error")
    }

    /// A file deleted while recording is not "every write failed": its writes succeeded and
    /// the rows went with the file (a tester removed the folder 3 s into a 6 s recording).
    @Test func theHeadlineSaysWhetherWritesFailedOrTheFilesWereDeleted() {
        var c = CounterSnapshot()
        c.rowsLostToWriteErrors = 1211
        c.writeErrors = 2
        var s = RecordingSummary(directory: "/d", files: [], rowsWritten: [:], counters: c, ticks: 302, startEpoch: 0,
                                 endReason: "output-folder-removed", removedFiles: ["a.csv"])
        let deleted = RecordCommand.describe(s, configuration: RecorderConfiguration(boardName: "t", softwareVersion: "t"))
        #expect(deleted.hasPrefix("NOTHING WAS KEPT: the recording's files were deleted while recording"), "\(deleted)")
        #expect(deleted.contains("/d/a.csv (deleted while recording"))
        s.removedFiles = []
        #expect(RecordCommand.describe(s, configuration: RecorderConfiguration(boardName: "t", softwareVersion: "t")).hasPrefix("NOTHING WAS RECORDED: every write failed"))
    }

    @Test func aHighMissRateIsWarnedAbout() {
        var c = CounterSnapshot()
        c.missedTicks = 1100
        let s = RecordingSummary(directory: "/d", files: ["a.csv"], rowsWritten: [:], counters: c, ticks: 8900, startEpoch: 0,
                                 endReason: "stopped")
        let warning = RecordGuards.missedTicksWarning(s, rateHz: 10_000)
        #expect(warning?.contains("11.0 %") == true && warning?.contains("10000 Hz") == true && warning?.contains("--rate") == true)
        c.missedTicks = 5
        let fine = RecordingSummary(directory: "/d", files: [], rowsWritten: [:], counters: c, ticks: 8900, startEpoch: 0, endReason: "stopped")
        #expect(RecordGuards.missedTicksWarning(fine, rateHz: 100) == nil)
        // A 20-second SIGSTOP at 1 kHz: three late wake-ups, 20 013 ticks missed. A lower rate
        // does not help with that.
        c.missedTicks = 20_013
        c.overruns = 3
        let paused = RecordingSummary(directory: "/d", files: [], rowsWritten: [:], counters: c, ticks: 5_942, startEpoch: 0, endReason: "stopped")
        let text = RecordGuards.missedTicksWarning(paused, rateHz: 1000)
        #expect(text?.contains("paused 3 times") == true && text?.contains("--rate") == false, "\(String(describing: text))")
    }
}
