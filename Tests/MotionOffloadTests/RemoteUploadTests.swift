import Foundation
import MotionCore
@testable import MotionOffload
import Synchronization
import Testing

/// Uploads with rclone: the retry and bookkeeping logic against a scripted rclone, then the
/// real rclone against its local backend and an S3 server on loopback.
@Suite("Upload to an rclone remote")
struct RemoteUploadTests {
    let t0 = 1_763_735_405.0

    /// rclone as a script: answers each call from a list, records the calls. `listremotes`
    /// (asked once per run) lists `remotes` and is neither answered from the list nor recorded.
    final class ScriptedRclone: ProcessRunning, Sendable {
        let answers: Mutex<[Int32]>
        let calls = Mutex<[[String]]>([])
        let remotes: String
        init(_ answers: [Int32], remotes: String = "nas:\nother:\n") { self.answers = Mutex(answers); self.remotes = remotes }
        func run(_ executable: String, _ arguments: [String], environment: [String: String]) -> ProcessResult {
            if arguments.first == "listremotes" { return ProcessResult(status: 0, output: remotes) }
            calls.withLock { $0.append([executable] + arguments) }
            let status = answers.withLock { $0.isEmpty ? 0 : $0.removeFirst() }
            return ProcessResult(status: status, output: status == 0 ? "" : "Failed to copy: connection refused\n")
        }
    }

    @Test func temporaryFileListsAreNeverShared() throws {
        // Two uploads at once (parallel tests did this) once shared /tmp/motionlog-files-PID.txt.
        let a = try #require(RemoteUpload.privateFile("files.txt", Array("a.csv\n".utf8)))
        let b = try #require(RemoteUpload.privateFile("files.txt", Array("b.csv\n".utf8)))
        #expect(a != b)
        #expect(try String(contentsOfFile: a, encoding: .utf8) == "a.csv\n")
        var st = stat()
        #expect(stat((a as NSString).deletingLastPathComponent, &st) == 0 && st.st_mode & 0o777 == 0o700)
        RemoteUpload.removePrivate(a)
        #expect(!FileManager.default.fileExists(atPath: (a as NSString).deletingLastPathComponent))
        #expect(try String(contentsOfFile: b, encoding: .utf8) == "b.csv\n")
        RemoteUpload.removePrivate(b)
    }

    @Test func aFailedTransferIsRetriedWithDoublingDelaysThenVerified() throws {
        let source = RecordingFolder()
        defer { source.remove() }
        try source.addFinished("20251121142005", start: t0, rows: 100)
        // copy fails twice, then copy and check succeed, then the manifest upload.
        let rclone = ScriptedRclone([5, 5, 0, 0, 0])
        var options = RemoteUploadOptions(remote: "nas:rides")
        options.firstRetryDelay = 2
        options.bandwidthLimit = "1M"
        var job = RemoteUpload(source: source.path, host: "pi", options: options, runner: rclone)
        let slept = Mutex<[Double]>([])
        job.sleep = { s in slept.withLock { $0.append(s) } }
        let report = try job.run()
        #expect(report.uploaded == ["20251121142005"] && report.complete)
        #expect(slept.withLock { $0 } == [2, 4])
        let calls = rclone.calls.withLock { $0 }
        #expect(calls.map { $0[1] } == ["copy", "copy", "copy", "check", "copyto"])
        #expect(calls[0].contains("nas:rides/pi") && calls[0].contains("--checksum") && calls[0].contains("--bwlimit"))
        #expect(calls[3].contains("--one-way"))
        #expect(calls[4].last == "nas:rides/pi/manifest.csv")
        // Sent once: a second run sends nothing.
        let again = try job.run()
        #expect(again.uploaded.isEmpty && again.alreadySent == ["20251121142005"])
    }

    @Test func aRemoteThatStaysAwayIsReportedAndNothingIsDeleted() throws {
        let source = RecordingFolder()
        defer { source.remove() }
        try source.addFinished("20251121142005", start: t0, rows: 100)
        var options = RemoteUploadOptions(remote: "nas:rides")
        options.attempts = 3
        options.deleteAfterUpload = true
        var job = RemoteUpload(source: source.path, host: "pi", options: options, runner: ScriptedRclone([5, 5, 5]))
        job.sleep = { _ in }
        let report = try job.run()
        #expect(report.uploaded.isEmpty && !report.complete)
        #expect(report.failures.count == 1 && report.failures[0].contains("gave up after 3 attempts"))
        #expect(source.bytes("20251121142005.csv") != nil)
        #expect(!FileManager.default.fileExists(atPath: source.path + "/" + RemoteUpload.sentListName))
    }

    @Test func aFailedCheckIsNotCountedAsSent() throws {
        let source = RecordingFolder()
        defer { source.remove() }
        try source.addFinished("20251121142005", start: t0, rows: 100)
        var options = RemoteUploadOptions(remote: "nas:rides")
        options.attempts = 1
        options.deleteAfterUpload = true
        let job = RemoteUpload(source: source.path, host: "pi", options: options, runner: ScriptedRclone([0, 1]))
        let report = try job.run()
        #expect(report.uploaded.isEmpty && report.failures.first?.contains("rclone check") == true)
        #expect(source.bytes("20251121142005.csv") != nil)
    }

    @Test func nothingIsSentWhileTheCardIsBelowItsReserve() throws {
        let source = RecordingFolder()
        defer { source.remove() }
        try source.addFinished("20251121142005", start: t0, rows: 100)
        var options = RemoteUploadOptions(remote: "nas:rides")
        options.minFreeSpace = 100_000_000
        let rclone = ScriptedRclone([])
        var job = RemoteUpload(source: source.path, host: "pi", options: options, runner: rclone)
        job.availableBytes = { _ in 50_000_000 }
        let report = try job.run()
        #expect(report.skipped?.contains("below its reserve") == true)
        #expect(rclone.calls.withLock { $0 }.isEmpty)
    }

    @Test func aRemoteRcloneDoesNotDefineFailsAtOnceWithoutRetries() throws {
        let source = RecordingFolder()
        defer { source.remove() }
        try source.addFinished("20251121142005", start: t0, rows: 100)
        var options = RemoteUploadOptions(remote: "nope:rides")
        options.rcloneConfig = "/etc/motionlog/rclone.conf"
        let rclone = ScriptedRclone([1, 1, 1, 1])
        var job = RemoteUpload(source: source.path, host: "pi", options: options, runner: rclone)
        let slept = Mutex<[Double]>([])
        job.sleep = { s in slept.withLock { $0.append(s) } }
        #expect {
            _ = try job.run()
        } throws: { error in
            "\(error)".contains("no remote named \"nope\" in /etc/motionlog/rclone.conf (it defines nas: other:)")
        }
        #expect(rclone.calls.withLock { $0 }.isEmpty && slept.withLock { $0 }.isEmpty)
        // Without a config file rclone prints a log line among the remotes: it is no remote
        // ("it defines 2026/11/27 04:05:43 NOTICE: Config file …" before).
        let noConfig = ScriptedRclone([], remotes: "2026/11/27 04:05:43 NOTICE: Config file \"/root/.config/rclone/rclone.conf\" not found - using defaults\n")
        #expect {
            _ = try RemoteUpload(source: source.path, host: "pi", options: RemoteUploadOptions(remote: "lab:x"), runner: noConfig).run()
        } throws: { error in
            "\(error)".contains("no remote named \"lab\" in rclone's default config (it defines none)")
        }
    }

    @Test func theRemoteNameIsReadFromEachFormRcloneAccepts() {
        #expect(RemoteUpload.remoteName("nas:rides") == "nas")
        #expect(RemoteUpload.remoteName("nas:") == "nas")
        #expect(RemoteUpload.remoteName("s3,provider=Minio:bucket/x") == "s3")
        #expect(RemoteUpload.remoteName(":local:/srv/rides") == nil)
    }

    // MARK: The real rclone

    static var rcloneInstalled: Bool { SystemProcessRunner.find("rclone") != nil }

    /// Two finished recordings an hour apart, and an empty folder for rclone's local backend.
    func twoRecordingsAndAnEmptyRemote() throws -> (source: RecordingFolder, remote: RecordingFolder) {
        let source = RecordingFolder(), remote = RecordingFolder()
        try source.addFinished("20251121142005", start: t0, rows: 3000)
        try source.addFinished("20251121152005", start: t0 + 3600, rows: 3000)
        return (source, remote)
    }

    @Test(.enabled(if: rcloneInstalled, "rclone is not installed (make deps installs it)"))
    func theRealRcloneDeliversEveryFileToALocalRemoteWithMatchingChecksums() throws {
        let (source, remote) = try twoRecordingsAndAnEmptyRemote()
        defer { source.remove(); remote.remove() }
        var options = RemoteUploadOptions(remote: "home:" + remote.path)
        options.deleteAfterUpload = true
        let runner = EnvironmentRunner(["RCLONE_CONFIG_HOME_TYPE": "local", "RCLONE_CONFIG": "/dev/null"])
        let expected = try ["20251121142005.csv", "20251121142005.json", "20251121152005.csv", "20251121152005.json"]
            .map { ($0, try sha256sum(source.path + "/" + $0)) }
        let report = try RemoteUpload(source: source.path, host: "pi", options: options, runner: runner).run()
        #expect(report.uploaded == ["20251121142005", "20251121152005"] && report.complete)
        for (name, hash) in expected {
            #expect(try sha256sum(remote.path + "/pi/" + name) == hash)
        }
        let manifest = try String(contentsOfFile: remote.path + "/pi/manifest.csv", encoding: .utf8)
        #expect(expected.allSatisfy { manifest.contains("\($0.0),") && manifest.contains($0.1) })
        #expect(report.deleted == ["20251121142005", "20251121152005"])
        #expect(files(in: source.path) == [RemoteUpload.sentListName])
    }

    /// `delete_after_copy` turned on after recordings were sent deletes them too, as from a
    /// stick, once rclone finds the remote's copy equal; one whose remote copy changed is
    /// kept and said (they stayed on the card without a word).
    @Test(.enabled(if: rcloneInstalled, "rclone is not installed (make deps installs it)"))
    func recordingsSentBeforeDeleteWasSetAreDeletedOnceVerified() throws {
        let (source, remote) = try twoRecordingsAndAnEmptyRemote()
        defer { source.remove(); remote.remove() }
        var options = RemoteUploadOptions(remote: "home:" + remote.path)
        let runner = EnvironmentRunner(["RCLONE_CONFIG_HOME_TYPE": "local", "RCLONE_CONFIG": "/dev/null"])
        let first = try RemoteUpload(source: source.path, host: "pi", options: options, runner: runner).run()
        #expect(first.uploaded.count == 2 && first.deleted.isEmpty)
        // The second recording's remote copy is damaged meanwhile.
        try "damaged\n".write(toFile: remote.path + "/pi/20251121152005.csv", atomically: false, encoding: .utf8)
        options.deleteAfterUpload = true
        let second = try RemoteUpload(source: source.path, host: "pi", options: options, runner: runner).run()
        #expect(second.uploaded.isEmpty && second.alreadySent == ["20251121142005", "20251121152005"])
        #expect(second.deleted == ["20251121142005"], "\(second.failures)")
        #expect(!second.complete && second.failures.count == 1 && second.failures[0].hasPrefix("kept 20251121152005, sent before: the remote's copy could not be verified"),
                "\(second.failures)")
        #expect(files(in: source.path) == [RemoteUpload.sentListName, "20251121152005.csv", "20251121152005.json"])
    }
}

/// The system runner with extra environment variables (an rclone remote defined by them).
struct EnvironmentRunner: ProcessRunning {
    let extra: [String: String]
    init(_ extra: [String: String]) { self.extra = extra }
    func run(_ executable: String, _ arguments: [String], environment: [String: String]) -> ProcessResult {
        SystemProcessRunner().run(executable, arguments, environment: environment.merging(extra) { $1 })
    }
}
