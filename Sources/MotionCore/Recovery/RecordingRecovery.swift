import Foundation
import MotionSystem
import SystemPackage

/// Power-loss recovery of an output folder, run when `record` or `daemon` starts.
///
/// A recording that did not end cleanly (power cut, SIGKILL, crash) leaves a CSV whose
/// metadata says `endedCleanly: false` with end reason `recording`, or no metadata at all.
/// For each such file (named like the writer names them, `yyyyMMddHHmmss[-N].csv` or provisionally `unsynced-…csv`, and not
/// held open by a running recording — the writer holds an exclusive `flock` on its CSV):
/// the torn last line and any debris after the last complete row are cut, the rows per
/// source are counted with the shared format parser, and the metadata is completed (or
/// rebuilt) with `endedCleanly: false` and end reason `recovered`. Files already recovered
/// are left alone, so recovery is idempotent.
public enum RecordingRecovery {
    /// The end reason of a recovered file.
    public static let endReason = FileEnding.recoveredReason

    /// Recovers every unclean recording in `folder`. Never throws: problems are reported
    /// per file. A missing folder is simply nothing to recover.
    public static func recover(folder: String, softwareVersion: String) -> RecoveryReport {
        var report = RecoveryReport(folder: folder)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return report }
        for name in names.sorted() where isRecorderName(name) {
            let base = String(name.dropLast(4))
            if case .valid(let m) = loadMetadata(RecordingFiles.metadataPath(for: folder + "/" + base)), !needsRecovery(m) { continue }
            do {
                switch try recoverFile(folder: folder, name: name, softwareVersion: softwareVersion) {
                case .recovered(let done): report.recovered.append(done)
                case .inUse: report.inUse.append(name)
                case .finishedMeanwhile: break
                }
            } catch {
                report.failures.append(error)
            }
        }
        return report
    }

    /// A file whose writer did not finish it (`FileEnding.needsRecovery`): still
    /// `recording` (power cut, kill), given up after a failed cut-back (a torn row may
    /// remain), or whose fsync failed. A file the writer closed after write errors it
    /// handled is complete: it is left alone.
    static func needsRecovery(_ m: RecordingMetadata) -> Bool { m.ending.needsRecovery }

    /// Whether recovery can repair the CSV `name` in `folder` when it needs it: named as the
    /// writer names files, and beginning with the format's header or a piece of it (torn by
    /// a power cut). Any other file without an ending is never repaired, so what waits for
    /// recovery (offload) would wait for ever.
    public static func canRecover(folder: String, name: String) -> Bool {
        guard isRecorderName(name),
              let fd = try? FileSystem.open(folder + "/" + name, .readOnly, options: [.closeOnExec, .noFollow, .nonBlocking])
        else { return false }
        defer { try? fd.close() }
        var head = [UInt8](repeating: 0, count: CSVFormat.headerBytes.count)
        guard let n = try? head.withUnsafeMutableBytes({ (b) throws(Errno) -> Int in try fd.readSome(into: b, at: 0) }) else { return false }
        // As `RecoveryScan` reads a first line: the header, a piece of it, or NULs (a FAT
        // card's power cut before the first fsync), which recovery rewrites.
        let first = head.prefix(n)
        return CSVFormat.headerBytes.starts(with: first) || (n > 0 && first.allSatisfy { $0 == 0 })
    }

    /// A name the recorder gives its files: `isRecordingName`, or a provisional one. A
    /// provisional file a power cut interrupted was never recovered (and offload waited
    /// for it for ever).
    public static func isRecorderName(_ name: String) -> Bool {
        isRecordingName(name) || (name.hasPrefix(RecordingFiles.provisionalStem + "-") && name.hasSuffix(".csv") && !name.contains("/"))
    }

    /// `yyyyMMddHHmmss.csv` or `yyyyMMddHHmmss-N.csv`.
    public static func isRecordingName(_ name: String) -> Bool {
        guard name.hasSuffix(".csv") else { return false }
        let base = name.dropLast(4)
        let parts = base.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts[0].count == 14, parts[0].allSatisfy({ $0.isASCII && $0.isNumber }) else { return false }
        if parts.count == 2 { return !parts[1].isEmpty && parts[1].allSatisfy { $0.isASCII && $0.isNumber } }
        return true
    }

    enum LoadedMetadata {
        case missing
        case unreadable
        case valid(RecordingMetadata)
    }

    static func loadMetadata(_ path: String) -> LoadedMetadata {
        switch RecordingFiles.loadMetadata(at: path) {
        case nil: .missing
        case .unreadable?: .unreadable
        case .read(let m)?: .valid(m)
        }
    }

    /// What became of a file recovery looked at.
    enum FileOutcome {
        case recovered(RecoveredFile)
        /// A running recording holds it.
        case inUse
        /// Its writer finished it between the first look and the lock.
        case finishedMeanwhile
    }

    /// Repairs one file. Its metadata is read once the file is locked: read before, it could
    /// be the `recording` of a part its writer was just finishing, and a second `record`
    /// starting in the folder turned a live recording's part that had just been rotated into
    /// a "recovered" one (and the writer's own metadata write then failed).
    static func recoverFile(folder: String, name: String, softwareVersion: String) throws(RecoveryFailure) -> FileOutcome {
        let path = folder + "/" + name
        // Never through a symbolic link: one planted in a shared folder must not make a
        // root-run recovery cut or rewrite another file.
        let fd: FileDescriptor
        do {
            fd = try FileSystem.open(path, .readWrite, options: [.closeOnExec, .noFollow, .nonBlocking])
        } catch {
            throw RecoveryFailure(path: path, message: error == .tooManySymbolicLinkLevels ? "is a symbolic link, not a recording: left alone"
                                                                                           : "cannot open for repair: \(error)")
        }
        defer { try? fd.close() }
        guard (try? fd.status())?.kind == .regular else {
            throw RecoveryFailure(path: path, message: "is not a regular file: left alone")
        }
        do {
            if try !fd.tryLockExclusive() { return .inUse }
        } catch {
            throw RecoveryFailure(path: path, message: "cannot lock: \(error)")
        }
        var metadata = loadMetadata(RecordingFiles.metadataPath(for: path))
        if case .valid(let m) = metadata, !needsRecovery(m) { return .finishedMeanwhile }
        // Killed at a rotation between writing the new part's metadata and putting it in
        // place: the complete temporary file has what a rebuilt one cannot know (the
        // recording's id, index and board). It was deleted, and the part rebuilt as a
        // recording of its own.
        var fromTemporary = false
        if case .missing = metadata, let tmp = RecordingFiles.loadMetadata(at: RecordingFiles.metadataPath(for: path) + ".tmp"),
           case .read(let m) = tmp, m.file.name == name {
            metadata = .valid(m)
            fromTemporary = true
        }
        let knownRate: Int? = { if case .valid(let m) = metadata, m.recording.rateHz > 0 { return m.recording.rateHz } else { return nil } }()
        var scan = try RecoveryScan.scan(fd: fd, path: path, rateHz: knownRate)
        if knownRate == nil, let busiest = scan.mainSource {
            // No metadata: count the missing ticks at the rate the rows show.
            let rate = estimatedRate(scan, busiest)
            if rate > 0, (try? fd.rewind()) != nil { scan = try RecoveryScan.scan(fd: fd, path: path, rateHz: rate) }
        }
        var headerRewritten = false
        if !scan.headerValid {
            guard scan.headerTorn else {
                throw RecoveryFailure(path: path, message: "the first line is not the format's header; not a recording this program can repair, left unchanged")
            }
            try rewriteHeader(fd: fd, path: path)
            headerRewritten = true
            scan.fileBytes = 0
            scan.keepBytes = Int64(CSVFormat.headerBytes.count)
        } else if scan.bytesToCut > 0 {
            do { try fd.truncate(to: scan.keepBytes) } catch {
                throw RecoveryFailure(path: path, message: "cannot cut the torn end: \(error)")
            }
        }
        do { try fd.sync() } catch { throw RecoveryFailure(path: path, message: "cannot fsync: \(error)") }

        let rebuilt: Bool
        var doc: RecordingMetadata
        if case .valid(let old) = metadata {
            doc = old
            rebuilt = false
        } else {
            let unreadable = { if case .unreadable = metadata { return true } else { return false } }()
            doc = rebuiltMetadata(name: name, scan: scan, softwareVersion: softwareVersion, unreadable: unreadable)
            if unreadable { MetadataSalvage.read(RecordingFiles.metadataPath(for: path))?.apply(to: &doc) }
            rebuilt = true
        }
        complete(&doc, scan: scan, headerRewritten: headerRewritten)
        if fromTemporary { doc.recording.notes.append("its metadata came from \(String(name.dropLast(4))).json.tmp, written but not yet put in place when the recording ended") }
        let base = String(name.dropLast(4))
        let directory: DiskDirectory
        do { directory = try DiskDirectory(path: folder) } catch {
            throw RecoveryFailure(path: path, message: "repaired, but the metadata could not be written: \(error)")
        }
        // Metadata that exists but cannot be read is kept beside, never written over: it may
        // hold what the rebuilt one cannot know (board, calibration, the recording's id).
        var keptAs: String?
        if case .unreadable = metadata {
            let json = RecordingFiles.metadataPath(for: base)
            do {
                let kept = try directory.rename(json, toBase: json, ext: ".unreadable") + ".unreadable"
                keptAs = kept
                doc.recording.notes.append("the metadata it had could not be read and is kept as \(kept)")
            } catch {
                throw RecoveryFailure(path: path, message: "repaired, but the unreadable metadata could not be kept aside, so it was left as it is: \(error)")
            }
        }
        do {
            try directory.replace(name: RecordingFiles.metadataPath(for: base), contents: doc.encoded())
        } catch {
            throw RecoveryFailure(path: path, message: "repaired, but the metadata could not be written: \(error)")
        }
        try? FileSystem.remove(folder + "/" + base + ".json.tmp")
        return .recovered(RecoveredFile(name: name, bytesCut: headerRewritten ? 0 : scan.bytesToCut, rows: doc.file.rows,
                                        metadataRebuilt: rebuilt, headerRewritten: headerRewritten, unreadableMetadataKeptAs: keptAs))
    }

    private static func rewriteHeader(fd: FileDescriptor, path: String) throws(RecoveryFailure) {
        do { try fd.truncate(to: 0) } catch { throw RecoveryFailure(path: path, message: "cannot reset the torn file: \(error)") }
        do {
            try CSVFormat.headerBytes.withBytes { (raw) throws(Errno) in try fd.writeAll(raw, at: 0) }
        } catch {
            throw RecoveryFailure(path: path, message: "cannot write the header: \(error)")
        }
    }

    /// Fills the file section from the scan and marks the end as recovered.
    static func complete(_ doc: inout RecordingMetadata, scan: RecoveryScan, headerRewritten: Bool) {
        var rows: [String: Int] = [:]
        for (s, n) in scan.rows { rows[String(s.letter)] = n }
        doc.file.rows = rows
        doc.file.firstWhen = scan.firstWhen
        doc.file.lastWhen = scan.lastWhen
        doc.file.bytes = scan.keepBytes
        doc.file.ticksWithoutRows = scan.ticksWithoutRows
        // The counters were last written up to seconds before the end: at least the ticks
        // the file itself lacks were missed (or dropped, or lost to write errors).
        if let absent = scan.ticksWithoutRows { doc.counters.missedTicks = max(doc.counters.missedTicks, absent) }
        doc.endedCleanly = false
        doc.endReason = endReason
        let epochOffset = doc.recording.whenMode == .relative ? doc.recording.startEpoch : 0
        doc.ended = scan.lastWhen.map { TimeText.isoUTC(epochSeconds: $0 + epochOffset) }
        var note = "recovered after an unclean end (power cut or crash): "
        if headerRewritten {
            note += "the file had no complete header and was reset to the header alone"
        } else if scan.bytesToCut > 0 {
            note += "\(scan.bytesToCut) bytes after the last complete row were cut"
        } else {
            note += "the file ended on a complete row"
        }
        note += "; rows counted from the file; `ended` is the time of the last row"
        if let absent = scan.ticksWithoutRows {
            note += "; \(absent) ticks between the first and the last row have no row (file.ticksWithoutRows, recounted from the rows: missed, dropped or lost to write errors — after an unclean end the cause cannot be told apart), and missedTicks is at least that"
        }
        note += "; the other counters are as of the last metadata update, and rows sampled after the last row in the file are counted nowhere"
        doc.recording.notes.append(note)
    }

    /// Metadata for a CSV whose JSON never reached the disk (or was damaged).
    static func rebuiltMetadata(name: String, scan: RecoveryScan, softwareVersion: String, unreadable: Bool) -> RecordingMetadata {
        let whenMode: WhenMode = (scan.firstWhen ?? 0) > 1e8 ? .epoch : .relative
        let nameEpoch = FileNameTime.epoch(fileBase: String(name.prefix(14)))
        let startEpoch = whenMode == .epoch ? (scan.firstWhen ?? nameEpoch ?? 0) : (nameEpoch ?? 0)
        let sources = Source.canonicalOrder.filter { (scan.rows[$0] ?? 0) > 0 }
        let busiest = sources.max { (scan.rows[$0] ?? 0) < (scan.rows[$1] ?? 0) }
        let label = scan.firstLabel.map { String(UnicodeScalar($0)) } ?? String(UnicodeScalar(Label.defaultLetter))
        let description = RecordingDescription(
            id: UUID().uuidString, board: "unknown", boardDescription: nil, sensor: SensorInfo(model: "unknown"),
            gps: nil, deviceMotion: nil, rateHz: busiest.map { estimatedRate(scan, $0) } ?? 0,
            sources: String(sources.map(\.letter)), label: label, whenMode: whenMode, startEpoch: startEpoch,
            started: TimeText.isoUTC(epochSeconds: startEpoch), clock: "unknown", rotateBytes: nil, rotateSeconds: nil,
            fsyncIntervalSeconds: 0, bufferRows: 0,
            notes: [(unreadable ? "metadata could not be read (how the file ended is not known)" : "metadata was missing after an unclean end") + " and was rebuilt from the CSV: board, sensor and settings are unknown, rateHz is estimated from the rows, file index and previous file are unknown"])
        var section = RecordingMetadata.FileSection(name: name, index: 1, previous: nil)
        section.startLocal = nameEpoch.map { TimeText.isoLocal(epochSeconds: $0) }
        return RecordingMetadata(software: .init(version: softwareVersion), recording: description, file: section,
                                 counters: CounterSnapshot(), endedCleanly: false, endReason: endReason, ended: nil)
    }

    /// Rows per second of one source over the file (MotionCollector records every source at one rate).
    static func estimatedRate(_ scan: RecoveryScan, _ source: Source) -> Int {
        // One period is the shortest step between rows (gaps only lengthen steps).
        if let step = scan.shortestInterval[source], step > 0 {
            let rate = (1 / step).rounded()
            if rate.isFinite && rate >= 1 && rate <= 1_000_000 { return Int(rate) }
        }
        guard let n = scan.rows[source], n > 1, let first = scan.firstWhen, let last = scan.lastWhen, last > first else { return 0 }
        let rate = (Double(n - 1) / (last - first)).rounded()
        // A nonsensical span (e.g. rows microseconds apart) must not trap: no estimate then.
        return rate.isFinite && rate <= 1_000_000 ? Int(rate) : 0
    }
}
