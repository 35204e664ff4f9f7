import Foundation
import MotionCore
import MotionSystem

/// How a copy to a stick or folder behaves.
public struct FolderOffloadOptions: Sendable {
    /// Remove a recording from the card after all its files were copied and read back equal.
    public var deleteAfterCopy = false
    /// Largest file the target's file system can hold (FAT32: 4 GiB − 1); nil: no limit.
    public var maxFileBytes: Int64?
    /// Space kept free on the target beyond the files (manifest, directory entries).
    public var targetReserveBytes: Int64 = 1 << 20

    public init() {}

    /// FAT32's limit on a file's size.
    public static let fatMaxFileBytes: Int64 = (1 << 32) - 1
}

/// Copies every finished recording that the target does not hold yet into a target folder,
/// oldest first, each file verified (see `VerifiedCopy`) and listed in the target's
/// manifest; optionally deletes what was verified. Never touches a recording being written.
public struct FolderOffload {
    public var source: String
    public var target: String
    public var options: FolderOffloadOptions
    /// Free bytes on the target (injected in tests; statvfs by default).
    public var availableBytes: @Sendable (String) -> Int64? = { SystemCalls.availableBytes($0) }
    /// The target's allocation unit (injected in tests; statvfs by default): each file takes
    /// its size rounded up to it. On an exFAT stick with 1 MiB clusters, recordings that "fit"
    /// by their bytes filled it, and the manifest then had no room.
    public var allocationBytes: @Sendable (String) -> Int64 = { SystemCalls.allocationBytes($0) }
    public var now: @Sendable () -> Date = { Date() }
    /// Asked to stop (a signal): the file being copied is removed, nothing more is started.
    public var stop: OffloadStop?

    public init(source: String, target: String, options: FolderOffloadOptions) {
        self.source = source
        self.target = target
        self.options = options
    }

    /// Runs the offload; `progress` hears after every chunk and every part copied.
    public func run(progress: (OffloadProgress) -> Void = { _ in }) throws(OffloadError) -> FolderOffloadReport {
        let lock = try OffloadLock.acquire(source, stop: stop) {
            var waiting = OffloadProgress(state: .copying, target: target, pid: CurrentProcess.id, updated: now().timeIntervalSince1970)
            waiting.message = "Waiting for another offload of \(source) to finish…"
            progress(waiting)
        }
        defer { lock.release() }
        let inventory = try RecordingCatalog.inventory(folder: source)
        var report = FolderOffloadReport()
        report.parts = PartIndex(inventory.finished, recordingNow: inventory.inProgressRecordingIDs)
        report.inProgress = inventory.inProgress
        report.awaitingRecovery = inventory.awaitingRecovery
        report.unrecoverable = inventory.unrecoverable
        report.unreadableMetadata = inventory.unreadableMetadata
        try FolderOffload.makeFolder(target)
        try FolderOffload.checkIsACopy(target, source: source)
        try FolderOffload.checkWritable(target)
        var deleting = options.deleteAfterCopy
        if deleting, let refused = FolderOffload.deletionRefused(source) {
            report.failures.append(refused)
            deleting = false
        }
        var manifest = OffloadManifest(folder: target)
        try manifest.checkWritable()
        let directory = try SystemCalls.openDirectory(target)

        // What is missing on the target, and what is there already. A file that cannot be
        // read is that recording's failure, not the run's (one unreadable file stopped the
        // whole offload with "the target could not be used").
        var todo: [FinishedPart] = []
        var there: [FinishedPart] = []
        var ended = false
        for r in inventory.finished {
            do {
                switch try state(of: r, manifest: &manifest) {
                case .there: report.alreadyThere.append(r.base); there.append(r)
                case .conflict(let file): report.conflicts.append(file)
                case .missing: todo.append(r)
                }
            } catch {
                report.failures.append(onCard(error))
                if endsRun(error) { todo = []; there = []; ended = true; break }
            }
        }
        // Progress counts recordings (a rotated one's parts together) and the files to copy.
        var partsLeft: [String: Int] = [:]
        for r in todo { partsLeft[report.parts.recording(of: r.base), default: 0] += 1 }
        let missing = todo.map { r in r.files.filter { !isOnTarget($0, manifest: manifest) } }
        var status = OffloadProgress(state: .copying, target: target, recordingsTotal: partsLeft.count,
                                     bytesTotal: missing.joined().reduce(0) { $0 + $1.bytes }, pid: CurrentProcess.id,
                                     updated: now().timeIntervalSince1970)
        status.filesTotal = missing.joined().count
        progress(status)
        var lastReport = now()
        for (k, (r, files)) in zip(todo, missing).enumerated() {
            if let reason = stop?.reason {
                report.stopped = (reason, todo[k...].map(\.base))
                break
            }
            // Skipped parts stay in the totals (what this run set out to copy), not done.
            if let limit = options.maxFileBytes, let big = r.files.first(where: { $0.bytes > limit }) {
                report.tooLarge.append(big)
                continue
            }
            let free = availableBytes(target) ?? Int64.max
            let unit = max(1, allocationBytes(target))
            let needed = files.reduce(Int64(0)) { sum, f in sum + (f.bytes + unit - 1) / unit * unit }
            // Kept spare, beyond the reserve: the manifest and the folder take a unit each as they grow.
            let reserve = options.targetReserveBytes + (unit > 1 ? 2 * unit : 0)
            if needed + reserve > free {
                if report.freeWhenFull == nil { report.freeWhenFull = (free, reserve) }
                report.didNotFit.append((r.base, r.totalBytes))
                continue
            }
            // A part that fails counts as not copied: none of its bytes or files are done.
            let (bytesBefore, filesBefore) = (status.bytesDone, status.filesDone)
            do throws(OffloadError) {
                var copied: [CopiedFile] = []
                // Every file the target lacks, listed in the manifest or not: a file listed
                // but since removed from the stick was skipped, and --delete-after-copy then
                // removed the only copy.
                for f in files {
                    copied.append(try VerifiedCopy.copy(source: source + "/" + f.name, directory: directory,
                                                        name: f.name, stop: stop) { n in
                        status.bytesDone += n
                        let t = now()
                        if t.timeIntervalSince(lastReport) >= 0.5 {
                            lastReport = t
                            status.updated = t.timeIntervalSince1970
                            progress(status)
                        }
                    })
                    status.filesDone += 1
                }
                // Copies the manifest does not list are not copies (the report said the
                // manifest listed every verified file): the run ends here.
                do throws(OffloadError) { try manifest.append(copied, at: now()) } catch {
                    report.manifestIncomplete = true
                    // Unmounted under the run (`umount -l`): the path is gone, the open folder not.
                    guard FileSystem.exists(target) else {
                        throw OffloadError("write the manifest", path: target + "/" + OffloadManifest.fileName,
                                           reason: "the target folder is gone (the stick was unmounted or pulled out?); plug it in again and run the offload again: what was verified stays, the rest is copied").endingTheCopy
                    }
                    throw error.endingTheCopy
                }
                report.copied.append(r.base)
                report.filesCopied += copied.count
                report.bytesCopied += copied.reduce(0) { $0 + $1.bytes }
                let recording = report.parts.recording(of: r.base)
                partsLeft[recording, default: 1] -= 1
                if partsLeft[recording] == 0 { status.recordingsDone += 1 }
                // A failed deletion is no failed copy: the part stays counted as copied.
                if deleting {
                    do throws(OffloadError) { try delete(r, copiedNow: copied, report: &report) } catch {
                        report.failures.append(onCard(error))
                        ended = endsRun(error)
                    }
                }
            } catch {
                (status.bytesDone, status.filesDone) = (bytesBefore, filesBefore)
                // Files of the part verified before the stop stay (and are found next time).
                if error.isStop, let reason = stop?.reason {
                    report.stopped = (reason, todo[k...].map(\.base))
                    break
                }
                // The stick filled up mid-file (its free space was not what it said: another
                // writer, a fake-capacity stick): as a recording that does not fit, skipped and
                // listed with the room there was (its unfinished copy is gone); later, smaller
                // ones may still go. It ended the run as an error that named nothing left.
                if error.errno == .noSpace, !error.endsTheRun, !error.path.hasPrefix(source + "/") {
                    report.freeWhenFull = (availableBytes(target) ?? 0, reserve)
                    report.didNotFit.append((r.base, r.totalBytes))
                    status.updated = now().timeIntervalSince1970
                    progress(status)
                    continue
                }
                report.failures.append(onCard(error))
                if endsRun(error) { ended = true; break }
            }
            status.updated = now().timeIntervalSince1970
            progress(status)
            if ended { break }
        }
        // Recordings copied by an earlier run: with delete-after-copy they go too, each file
        // read again on both sides first (turned on later, the option never freed the card).
        if deleting && report.stopped == nil && !ended {
            for r in there {
                do { try delete(r, copiedNow: [], report: &report) } catch { report.failures.append(error) }
            }
        }
        // Recordings left behind are never "done". Left behind on purpose, with a sentence
        // saying what to do (no room, too large for FAT32, the name taken by other contents
        // on the target), the copy is incomplete: the stick may still be pulled out. A
        // failure is an error.
        status.state = !report.failures.isEmpty ? .error : (report.complete ? .done : .incomplete)
        status.message = report.lines().joined(separator: " ")
        status.updated = now().timeIntervalSince1970
        progress(status)
        return report
    }

    enum TargetState { case missing, there, conflict(String) }

    /// Whether nothing more can be done after `e`: a stop, or the target full, read-only or
    /// gone. An input/output error reading a file of the card is that recording's alone (a
    /// bad sector ended every run there, blamed on the stick).
    private func endsRun(_ e: OffloadError) -> Bool {
        e.isStop || e.endsTheRun || (e.endsTheCopy && !e.path.hasPrefix(source + "/"))
    }

    /// `e` as it reads where it happened on the card (its reason for the stick's errors
    /// would say "was the stick pulled out?").
    private func onCard(_ e: OffloadError) -> OffloadError {
        guard e.path.hasPrefix(source + "/"), let errno = e.errno, OffloadError.targetGone.contains(errno) else { return e }
        var c = e
        c.reason = "\(errno) reading the card (it may be failing): this recording is not copied, the others are; copy what you can, and check the card (`motionlog check`)"
        return c
    }

    /// Whether `f` is on the target as the manifest lists it: listed with its size, and a
    /// file of that size there (the cheap check of every run; contents are compared when
    /// the file is copied, adopted or about to be deleted from the card).
    private func isOnTarget(_ f: (name: String, bytes: Int64), manifest: OffloadManifest) -> Bool {
        guard let entry = manifest.entries[f.name], entry.bytes == f.bytes else { return false }
        return RecordingCatalog.fileSize(target + "/" + f.name) == f.bytes
    }

    /// A recording is on the target when every file is in the manifest with its size and the
    /// file is there; a file present but not listed (manifest lost) is hashed and compared.
    private func state(of r: FinishedPart, manifest: inout OffloadManifest) throws(OffloadError) -> TargetState {
        var missing = false
        var adopted: [CopiedFile] = []
        for f in r.files {
            if isOnTarget(f, manifest: manifest) { continue }
            let onTarget = RecordingCatalog.fileSize(target + "/" + f.name)
            guard onTarget != nil else { missing = true; continue }
            let mine = try VerifiedCopy.sha256(path: source + "/" + f.name)
            let theirs = try VerifiedCopy.sha256(path: target + "/" + f.name)
            guard mine == theirs else { return .conflict(f.name) }
            adopted.append(CopiedFile(name: f.name, bytes: mine.bytes, sha256: mine.hex))
        }
        if !adopted.isEmpty { try manifest.append(adopted, at: now()) }
        return missing ? .missing : .there
    }

    /// Deletes a verified recording from the card: sidecars first, the CSV last, then flushes
    /// the folder. Each file must have been copied and read back equal in this run, or be on
    /// the target now with the same SHA-256 as on the card (read again here: the manifest
    /// only says what was there once). A recording that started being written meanwhile is
    /// never touched.
    private func delete(_ r: FinishedPart, copiedNow: [CopiedFile], report: inout FolderOffloadReport) throws(OffloadError) {
        for f in r.files {
            let (mine, theirs) = (try? FileSystem.status(source + "/" + f.name), try? FileSystem.status(target + "/" + f.name))
            if let mine, let theirs, mine.device == theirs.device && mine.inode == theirs.inode {
                throw OffloadError("delete", path: source + "/" + f.name, reason: "the copy on the target is this same file (a link); kept")
            }
        }
        for f in r.files where !copiedNow.contains(where: { $0.name == f.name && $0.bytes == f.bytes }) {
            let mine = try VerifiedCopy.sha256(path: source + "/" + f.name)
            guard RecordingCatalog.fileSize(target + "/" + f.name) == f.bytes,
                  let theirs = try? VerifiedCopy.sha256(path: target + "/" + f.name), theirs == mine else {
                throw OffloadError("delete", path: source + "/" + f.name, reason: "not on the target with the same contents; kept — the file there differs from this one (changed on either side since it was copied): move the target's copy aside and run the offload again to copy this one")
            }
        }
        if SystemCalls.isLockedByWriter(source + "/" + r.csvName) { return }
        if let cache = r.cache { try SystemCalls.delete(source + "/" + cache) }
        for f in r.files { try SystemCalls.delete(source + "/" + f.name) }
        try SystemCalls.fsync(SystemCalls.openDirectory(source))
        report.deleted.append(r.base)
    }

    /// A target the copies cannot be written into is refused before anything is tried (each
    /// file failed alone, exit 1, and the report pointed at a manifest that was never
    /// written): a file is created there exclusively and removed.
    static func checkWritable(_ path: String) throws(OffloadError) {
        let probe = path + "/.motionlog-write-test-\(CurrentProcess.id)"
        do {
            let fd = try SystemCalls.open(probe, .writeOnly, options: [.create, .exclusiveCreate],
                                          permissions: [.ownerReadWrite], operation: "write in")
            try? fd.close()
            try SystemCalls.delete(probe)
        } catch {
            var e = error
            e.path = path
            e.operation = "write in the folder"
            throw e
        }
    }

    /// Why nothing can be deleted from the recordings folder `source` (nil: it can): said
    /// once, before anything is copied, rather than once for every recording after its copy
    /// (a user who may read the card's recordings but not change them, a read-only card).
    static func deletionRefused(_ source: String) -> OffloadError? {
        guard let why = FileSystem.cannotWriteFolder(source) else { return nil }
        return OffloadError("delete the recordings from", path: source,
                            reason: OffloadError.explain(why) + ": they are copied but stay on the card; to delete them "
                                + "after the copy, run the offload as the user who owns this folder (as the daemon and the "
                                + "udev rule do)")
    }

    /// The target folder must hold copies: not be a link (a stick's host folder linked to
    /// the recordings folder made every recording "already there", and --delete-after-copy
    /// then deleted them all), and not be the recordings folder itself.
    static func checkIsACopy(_ target: String, source: String) throws(OffloadError) {
        if let link = try? FileSystem.status(target, followLinks: false), link.kind == .symbolicLink {
            throw OffloadError("copy into", path: target, reason: "it is a link, not a folder: copies go only into a real folder on the target (remove the link, or give the folder it leads to)")
        }
        if let t = try? FileSystem.status(target), let s = try? FileSystem.status(source), t.device == s.device && t.inode == s.inode {
            throw OffloadError("copy into", path: target, reason: "it is the recordings folder itself: copy to another stick or disk")
        }
    }

    static func makeFolder(_ path: String) throws(OffloadError) {
        do { try FileSystem.makeDirectories(path) } catch {
            throw OffloadError("create the folder", path: path, reason: "\(error.errno) — is the target writable?")
        }
    }
}

extension FolderOffload {
    /// True when `path` is on a FAT file system (files of at most 4 GiB − 1).
    public static func isFAT(_ path: String) -> Bool {
        FileSystem.typeMagic(at: path) == 0x4d44
    }
}
