import Foundation
import MotionCore
import MotionSystem

/// How recordings go to a remote with rclone.
public struct RemoteUploadOptions: Sendable {
    /// An rclone remote and path, `NAME:path` (the user's rclone config defines NAME).
    public var remote: String
    /// rclone's config file; nil: rclone's default (~/.config/rclone/rclone.conf) or RCLONE_CONFIG_* variables.
    public var rcloneConfig: String?
    /// rclone's `--bwlimit`, e.g. `1M` (bytes per second) or `08:00,512k 19:00,off`.
    public var bandwidthLimit: String?
    /// Attempts per recording before giving up until the next run.
    public var attempts = 4
    /// Seconds before the second attempt; doubled for each further one.
    public var firstRetryDelay = 5.0
    /// Remove a recording from the card once rclone verified it on the remote.
    public var deleteAfterUpload = false
    /// Don't upload while the card has less than this free (the recorder's reserve).
    public var minFreeSpace: Int64 = 0

    public init(remote: String) { self.remote = remote }
}

/// What an upload did, part by part (the files of a rotated recording are sent one part at
/// a time), and in sentences that count the parts of one recording as one recording.
public struct RemoteUploadReport: Sendable {
    /// Parts (CSV names without `.csv`) sent and verified in this run.
    public var uploaded: [String] = []
    /// Parts every file of which an earlier run sent.
    public var alreadySent: [String] = []
    /// Parts removed from the card (every file) after rclone verified them.
    public var deleted: [String] = []
    public var inProgress: [String] = []
    /// CSVs a power cut left for recovery, sent after it; and those recovery cannot repair.
    public var awaitingRecovery: [String] = []
    public var unrecoverable: [String] = []
    public var failures: [String] = []
    /// Set when nothing was tried (card below its reserve, remote unreachable).
    public var skipped: String?
    /// Stopped on request (`OffloadStop`): why, and the parts not sent for it.
    public var stopped: (reason: String, notCopied: [String])?
    /// Bytes and files (CSVs and the files beside them) sent in this run.
    public var bytesSent: Int64 = 0
    public var filesSent = 0
    /// The finished parts in the recordings folder: which recording each belongs to.
    public var parts = PartIndex()

    public init() {}

    public var complete: Bool { failures.isEmpty && skipped == nil && stopped == nil && unrecoverable.isEmpty }

    public func lines() -> [String] {
        var out: [String] = []
        if let skipped { out.append(skipped) }
        out.append(parts.summary("Sent", done: uploaded, fileCount: filesSent, bytes: bytesSent,
                                 before: alreadySent, beforeText: "sent before"))
        if !deleted.isEmpty {
            out.append("Deleted from the card after rclone verified them: \(parts.filesOfRecordings(deleted)): \(deleted.joined(separator: ", ")).")
        }
        if !inProgress.isEmpty { out.append("Being recorded, sent next time: \(inProgress.joined(separator: ", ")).") }
        if !awaitingRecovery.isEmpty {
            out.append("Not finished (a power cut?), sent after the next start recovers them: \(awaitingRecovery.joined(separator: ", ")).")
        }
        if let line = RecordingInventory.unrecoverableSentence(unrecoverable, verb: "sent") { out.append(line) }
        for f in failures { out.append("Error: \(f)") }
        if let stopped { out.append(parts.stoppedSentence(stopped, verb: "send", past: "sent")) }
        return out
    }
}

/// Sends finished recordings to an rclone remote (`remote/HOSTNAME/`), one recording at a
/// time: `rclone copy` of its files, then `rclone check` of the same files (hashes where
/// both sides have one, sizes otherwise); a failure is retried with a doubling delay. What
/// was verified is listed in `.motionlog-sent.csv` in the recordings folder and copied to
/// the remote as `manifest.csv`, so nothing is sent twice.
public struct RemoteUpload {
    public var source: String
    public var host: String
    public var options: RemoteUploadOptions
    public var runner: any ProcessRunning
    public var sleep: @Sendable (Double) -> Void = { s in if s > 0 { SystemClocks.sleep(nanos: Int64(min(s, 3600) * 1e9)) } }
    public var availableBytes: @Sendable (String) -> Int64? = { SystemCalls.availableBytes($0) }
    public var now: @Sendable () -> Date = { Date() }
    /// Asked to stop (a signal): rclone is ended (`SystemProcessRunner(stop:)`), nothing
    /// more is sent, retried or deleted, and the report says what was left.
    public var stop: OffloadStop?

    public static let sentListName = ".motionlog-sent.csv"

    public init(source: String, host: String? = nil, options: RemoteUploadOptions, runner: any ProcessRunning = SystemProcessRunner()) {
        self.source = source
        self.host = host ?? LoggerName.current
        self.options = options
        self.runner = runner
    }

    var destination: String {
        let base = options.remote.hasSuffix(":") || options.remote.hasSuffix("/") ? options.remote : options.remote + "/"
        return base + host
    }

    public func run(log: (String) -> Void = { _ in }) throws(OffloadError) -> RemoteUploadReport {
        var report = RemoteUploadReport()
        if options.minFreeSpace > 0, let free = availableBytes(source), free < options.minFreeSpace {
            report.skipped = "Not uploading: the card has \(ByteText.describe(free)) free, below its reserve of \(ByteText.describe(options.minFreeSpace)) (min_free_space)."
            return report
        }
        let lock = try OffloadLock.acquire(source, stop: stop) { log("Waiting for another offload of \(source) to finish…") }
        defer { lock.release() }
        let inventory = try RecordingCatalog.inventory(folder: source)
        report.parts = PartIndex(inventory.finished, recordingNow: inventory.inProgressRecordingIDs)
        report.inProgress = inventory.inProgress
        report.awaitingRecovery = inventory.awaitingRecovery
        report.unrecoverable = inventory.unrecoverable
        var deleting = options.deleteAfterUpload
        if deleting, let refused = FolderOffload.deletionRefused(source) {
            report.failures.append(refused.description)
            deleting = false
        }
        var sent = SentList(path: source + "/" + Self.sentListName)
        var remoteChecked = false
        func sentBefore(_ p: FinishedPart) -> Bool {
            p.files.allSatisfy { sent.contains(remote: options.remote, file: $0.name, bytes: $0.bytes) }
        }
        // What is left from part k on: the parts not sent before.
        func left(_ k: Int) -> [String] { inventory.finished[k...].filter { !sentBefore($0) }.map(\.base) }
        for (k, r) in inventory.finished.enumerated() {
            if let reason = stop?.reason {
                report.stopped = (reason, left(k))
                return report
            }
            if sentBefore(r) {
                report.alreadySent.append(r.base)
                // Sent by an earlier run, before `delete_after_copy` was set: deleted too,
                // as from a stick, once rclone finds the remote's copy equal now.
                if deleting, !SystemCalls.isLockedByWriter(source + "/" + r.csvName) {
                    if !remoteChecked { try checkRemote(); remoteChecked = true }
                    let differs = verify(r)
                    if let reason = stop?.reason {
                        report.stopped = (reason, left(k))
                        return report
                    }
                    if let differs {
                        report.failures.append("kept \(r.base), sent before: the remote's copy could not be verified (rclone check: \(differs)); the next run tries again")
                    } else {
                        deleteLocal(r, into: &report)
                    }
                }
                continue
            }
            if !remoteChecked { try checkRemote(); remoteChecked = true }
            switch upload(r, log: log) {
            case .success:
                var copied: [CopiedFile] = []
                for f in r.files {
                    let digest = try VerifiedCopy.sha256(path: source + "/" + f.name)
                    copied.append(CopiedFile(name: f.name, bytes: digest.bytes, sha256: digest.hex))
                }
                try sent.append(remote: options.remote, copied, at: now())
                report.uploaded.append(r.base)
                report.bytesSent += r.totalBytes
                report.filesSent += r.files.count
                log("sent \(r.base): \(CountText.of(r.files.count, "file")), \(ByteText.describe(r.totalBytes)), to \(destination)")
                if deleting, !SystemCalls.isLockedByWriter(source + "/" + r.csvName) {
                    deleteLocal(r, into: &report)
                }
            case .failure(let message):
                report.failures.append(message)
                // The remote is unreachable for this run: the next run tries again.
                return finish(report, sent: sent, log: log)
            case .stopped(let reason):
                // The remote's manifest.csv catches up with the next run that sends.
                report.stopped = (reason, left(k))
                return report
            }
        }
        return finish(report, sent: sent, log: log)
    }

    private func finish(_ report: RemoteUploadReport, sent: SentList, log: (String) -> Void) -> RemoteUploadReport {
        guard !report.uploaded.isEmpty else { return report }
        var report = report
        // The remote's manifest: what this logger sent there, written by rclone like the rest.
        guard let tmp = Self.privateFile("manifest.csv", Array(sent.manifest(for: options.remote).utf8)) else {
            report.failures.append("cannot write a temporary manifest in \(FileManager.default.temporaryDirectory.path)")
            return report
        }
        defer { Self.removePrivate(tmp) }
        let r = rclone(["copyto", tmp, destination + "/manifest.csv"])
        if r.status != 0 { report.failures.append("the recordings arrived, but the manifest did not: \(Self.lastLine(r.output))") }
        return report
    }

    /// Removes the recording's files from the card (after rclone verified them).
    private func deleteLocal(_ r: FinishedPart, into report: inout RemoteUploadReport) {
        var removed = true
        if let cache = r.cache { try? FileSystem.removeIfPresent(source + "/" + cache) }
        for f in r.files {
            do { try FileSystem.removeIfPresent(source + "/" + f.name) } catch {
                removed = false
                report.failures.append("cannot delete \(source)/\(f.name) after upload: \(OffloadError.explain(error))")
            }
        }
        if removed { report.deleted.append(r.base) }
    }

    /// `rclone check --one-way` of the recording's files against the remote: nil when the
    /// remote holds them equal, else rclone's last line (the check after every copy, and
    /// of what an earlier run sent before deleting it).
    private func verify(_ r: FinishedPart) -> String? {
        guard let list = Self.privateFile("files.txt", Array(r.files.map { $0.name + "\n" }.joined().utf8)) else {
            return "cannot write a temporary file list in \(FileManager.default.temporaryDirectory.path)"
        }
        defer { Self.removePrivate(list) }
        let check = rclone(["check", source, destination, "--files-from-raw", list, "--one-way"])
        return check.status == 0 ? nil : Self.lastLine(check.output)
    }

    enum Outcome { case success, failure(String), stopped(String) }

    /// Fails at once, without retries, when rclone is missing or does not define the
    /// remote: a mistake in the setup, not a network that may come back.
    func checkRemote() throws(OffloadError) {
        guard let name = Self.remoteName(options.remote) else { return }
        let r = rclone(["listremotes"])
        if r.status == 127 { throw OffloadError("run", path: "rclone", reason: Self.lastLine(r.output)) }
        guard r.status == 0 else { return }   // the copy says what is wrong
        // Remote names only (`name:`): rclone also prints log lines here, such as
        // "… NOTICE: Config file "…" not found - using defaults".
        let defined = r.output.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.hasSuffix(":") && !$0.contains(" ") }
        guard !defined.contains(name + ":") else { return }
        let config = options.rcloneConfig.map { "in \($0)" } ?? "in rclone's default config"
        let known = defined.isEmpty ? "it defines none" : "it defines \(defined.joined(separator: " "))"
        throw OffloadError("upload to", path: options.remote,
                           reason: "rclone has no remote named \"\(name)\" \(config) (\(known)) — define it with "
                               + "`rclone config\(options.rcloneConfig.map { " --config \($0)" } ?? "")` or correct offload.remote "
                               + "(docs/OFFLOAD.md)")
    }

    /// The rclone remote's name in `NAME:path` or `NAME,option=value:path`; nil for an
    /// on-the-fly backend (`:local:path`), which needs no definition.
    static func remoteName(_ remote: String) -> String? {
        guard !remote.hasPrefix(":"), let colon = remote.firstIndex(of: ":") else { return nil }
        let head = remote[..<colon]
        return String(head.prefix { $0 != "," })
    }

    /// Writes `name` into a new folder only this process can read (mkdtemp: a fresh random
    /// name, mode 0700), so two uploads never share a file and no one else can plant or
    /// read one. Returns the file's path; `removePrivate` removes both.
    static func privateFile(_ name: String, _ contents: [UInt8]) -> String? {
        guard let folder = try? FileSystem.makeTemporaryDirectory(prefix: FileManager.default.temporaryDirectory.path + "/motionlog-")
        else { return nil }
        let path = folder + "/" + name
        guard let fd = try? FileSystem.open(path, .writeOnly, options: [.create, .exclusiveCreate, .noFollow, .closeOnExec],
                                            permissions: [.ownerReadWrite]) else {
            try? FileSystem.removeDirectory(folder)
            return nil
        }
        let written = (try? fd.writeAll(contents)) != nil
        try? fd.close()
        guard written else { removePrivate(path); return nil }
        return path
    }

    static func removePrivate(_ path: String) {
        try? FileSystem.remove(path)
        try? FileSystem.removeDirectory((path as NSString).deletingLastPathComponent)
    }

    private func upload(_ r: FinishedPart, log: (String) -> Void) -> Outcome {
        guard let list = Self.privateFile("files.txt", Array(r.files.map { $0.name + "\n" }.joined().utf8)) else {
            return .failure("cannot write a temporary file list in \(FileManager.default.temporaryDirectory.path)")
        }
        defer { Self.removePrivate(list) }
        var delay = options.firstRetryDelay
        var last = ""
        for attempt in 1...max(1, options.attempts) {
            var copy = ["copy", source, destination, "--files-from-raw", list, "--checksum", "--no-traverse",
                        "--retries", "1", "--low-level-retries", "3"]
            if let bw = options.bandwidthLimit { copy += ["--bwlimit", bw] }
            let c = rclone(copy)
            if c.status == 0 {
                let differs = verify(r)
                if let reason = stop?.reason { return .stopped(reason) }
                guard let differs else { return .success }
                last = "rclone check found differences for \(r.base): \(differs)"
            } else {
                if let reason = stop?.reason { return .stopped(reason) }
                last = "rclone copy of \(r.base) to \(destination) failed (exit \(c.status)): \(Self.lastLine(c.output))"
            }
            if attempt < options.attempts {
                log("\(last); trying again in \(Int(delay)) s (attempt \(attempt + 1) of \(options.attempts))")
                if let reason = wait(delay) { return .stopped(reason) }
                delay *= 2
            }
        }
        return .failure(last + " — gave up after \(options.attempts) attempts; the next run tries again")
    }

    /// Sleeps `seconds` before a retry, a second at a time while a stop can cut it short:
    /// the stop's reason, or nil once the time is up.
    private func wait(_ seconds: Double) -> String? {
        guard let stop else { sleep(seconds); return nil }
        var left = seconds
        while left > 0 {
            if let reason = stop.reason { return reason }
            sleep(min(left, 1))
            left -= 1
        }
        return stop.reason
    }

    private func rclone(_ arguments: [String]) -> ProcessResult {
        var args = arguments
        if let config = options.rcloneConfig { args += ["--config", config] }
        return runner.run("rclone", args, environment: [:])
    }

    static func lastLine(_ text: String) -> String {
        text.split(separator: "\n").last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }.map(String.init) ?? "no output"
    }
}

/// `.motionlog-sent.csv` in the recordings folder: `remote,file,size_bytes,sha256,sent_at`,
/// one line per file rclone verified on a remote.
struct SentList {
    let path: String
    private(set) var lines: [(remote: String, file: String, bytes: Int64, sha: String, at: String)] = []

    init(path: String) {
        self.path = path
        guard let data = FileManager.default.contents(atPath: path) else { return }
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            // The remote may contain commas: the last four fields are fixed.
            let f = line.split(separator: ",", omittingEmptySubsequences: false)
            guard f.count >= 5, let bytes = Int64(f[f.count - 3]) else { continue }
            lines.append((f[0..<(f.count - 4)].joined(separator: ","), String(f[f.count - 4]), bytes,
                          String(f[f.count - 2]), String(f[f.count - 1])))
        }
    }

    func contains(remote: String, file: String, bytes: Int64) -> Bool {
        lines.contains { $0.remote == remote && $0.file == file && $0.bytes == bytes }
    }

    mutating func append(remote: String, _ files: [CopiedFile], at date: Date) throws(OffloadError) {
        let stamp = OffloadManifest.timestamp(date)
        var text = FileManager.default.fileExists(atPath: path) ? "" : "remote,file,size_bytes,sha256,sent_at\n"
        for f in files {
            text += "\(remote),\(f.name),\(f.bytes),\(f.sha256),\(stamp)\n"
            lines.append((remote, f.name, f.bytes, f.sha256, stamp))
        }
        let fd = try SystemCalls.open(path, .writeOnly, options: [.create, .append],
                                      permissions: [.ownerReadWrite, .groupRead], operation: "record what was sent in")
        defer { try? fd.close() }
        let bytes = Array(text.utf8)
        try SystemCalls.writeAll(fd, bytes, path: path)
        try SystemCalls.fsync(fd, path: path)
    }

    /// The remote's manifest: `file,size_bytes,sha256,copied_at`, as on a stick.
    func manifest(for remote: String) -> String {
        OffloadManifest.header + "\n" + lines.filter { $0.remote == remote }.map { "\($0.file),\($0.bytes),\($0.sha),\($0.at)\n" }.joined()
    }
}
