import Logging

/// The writer thread's half of the pipeline: encodes rows into large chunks, writes them to
/// the current file, rotates by size and/or time at row boundaries, fsyncs, and keeps the
/// metadata JSON beside each CSV up to date. Used from the writer thread only.
///
/// It coordinates parts with one job each: `TickUnits` (a batch into ticks), `TickEncoder`
/// (a tick's text, straight into the chunk), `EncodedRows` (the chunk's text and per-source counts),
/// `RotationClock` (when a file ends), `RecordingFileNamer` (names, provisional until GPS
/// time), `FileMetadataWriter` (the JSON beside the CSV) and `WriteFailures` (episodes,
/// first failure, halting). It alone writes the writer thread's counters (`RecorderCounters`).
public final class RotatingWriter {
    public struct Configuration: Sendable {
        public var rotation: RotationPolicy
        public var chunkBytes: Int
        public var softwareVersion: String
        /// Who makes the number text (the same bytes either way; benchmarks compare them).
        public var numberText: NumberText.Maker
        public init(rotation: RotationPolicy, chunkBytes: Int = 256 * 1024, softwareVersion: String,
                    numberText: NumberText.Maker = .ownFormatter) {
            self.rotation = rotation; self.chunkBytes = chunkBytes; self.softwareVersion = softwareVersion
            self.numberText = numberText
        }
    }

    private let directory: OutputDirectory
    private let configuration: Configuration
    private let counters: RecorderCounters
    private let nowNanos: @Sendable () -> Int64
    private let log: Logger
    private let namer: RecordingFileNamer
    private var rotation: RotationClock
    private var metadata: FileMetadataWriter
    private var failures: WriteFailures

    // The open file.
    private var file: OutputFile?
    /// True while the current file has a provisional name (see docs/GPS.md).
    private var provisionalFile = false
    private var meta: RecordingMetadata.FileSection?
    private var fileIndex = 0
    private var previousName: String?
    /// Bytes of the current file known to be on disk (a row boundary).
    private var fileBytes: Int64 = 0
    private var unsyncedBytes = false
    /// The current file's fsync failed: its metadata will say it did not end cleanly.
    private var syncFailed = false
    /// Rows lost while the current file was open, and whether any write to it failed: its
    /// metadata then does not claim a clean end.
    private var fileLostRows = 0
    private var fileHadWriteErrors = false
    /// After a failed open, no new attempt before this time (monotonic ns): a full card must
    /// not make the writer create a file per row.
    private var nextOpenAttempt: Int64 = .min
    /// The last file finalised as rotated (or at the file-size limit), while no file has been
    /// opened after it (the next one could not be created or its header written: a full
    /// card), and whether its fsync had failed. The recording's end is then written into it.
    private var lastRotated: (section: RecordingMetadata.FileSection, fsyncFailed: Bool)?

    // Text on its way to the file.
    /// Encoded ticks not yet written.
    private let chunk: EncodedRows
    /// Encodes one tick at a time (a unit that is never split across files).
    private let encoder: TickEncoder

    /// How often the open file's metadata is refreshed, so a power cut keeps recent counters.
    public var metadataRefreshNanos: Int64 {
        get { metadata.refreshNanos }
        set { metadata.refreshNanos = newValue }
    }
    /// Every file this writer created, in order (a file removed by someone else while it was
    /// being written is dropped from the list and named in `removedFiles`).
    public private(set) var files: [String] = []
    /// Files that were deleted (with their folder) while this writer wrote them.
    public private(set) var removedFiles: [String] = []
    /// The first write failure, for the end-of-recording message (nil: none).
    public var firstFailure: String? { failures.first }
    /// Set once a failure no later write can overcome happened (see the type's comment).
    public var halted: String? { failures.halted }
    /// Called (once) from the writer thread when the writer halts, with the end reason
    /// (`write-error` or `output-folder-removed`) and a message.
    public var onFatal: (@Sendable (_ reason: String, _ message: String) -> Void)?
    /// Called from the writer thread after each successful write with its size in bytes
    /// (the free-space guard counts bytes, not seconds, so `--fast` cannot outrun it).
    public var onWritten: (@Sendable (Int64) -> Void)?

    public init(directory: OutputDirectory, description: RecordingDescription, configuration: Configuration,
                counters: RecorderCounters, whenOffset: Double, log: Logger,
                nowNanos: @escaping @Sendable () -> Int64 = { SystemClock.monotonicNanos() },
                timeBase: GPSTimeBase? = nil) {
        self.directory = directory; self.configuration = configuration
        self.counters = counters; self.log = log; self.nowNanos = nowNanos
        namer = RecordingFileNamer(timeBase: timeBase, whenOffset: whenOffset, whenMode: description.whenMode,
                                   nowNanos: nowNanos)
        rotation = RotationClock(policy: configuration.rotation)
        metadata = FileMetadataWriter(directory: directory, description: description,
                                      softwareVersion: configuration.softwareVersion, counters: counters, timeBase: timeBase)
        failures = WriteFailures(log: log)
        chunk = EncodedRows(capacity: configuration.chunkBytes + 16 * CSVFormat.maxRowBytes)
        encoder = TickEncoder(numberText: configuration.numberText)
    }

    /// Opens the recording's first file (named by the first tick's When) before the first
    /// tick, so a folder that cannot be written stops the recording before it starts. Its
    /// metadata is left to the writer thread (`writeMetadataIfDue`, as it starts), so the
    /// caller's first tick is not held up by it.
    public func open(firstWhen: Double) throws(OutputError) {
        try openFile(startingWhen: firstWhen, writeMetadataNow: false)
    }

    /// Writes the open file's metadata now if it is due: the first file's, which `open`
    /// leaves to the writer thread. Until it is written, a recording killed at once (a
    /// SIGKILL or power cut in its first fsync interval) is rebuilt by recovery from the CSV
    /// alone, without its board, clock or rate.
    public func writeMetadataIfDue() {
        guard file != nil, !syncFailed, metadata.isDue(now: nowNanos()) else { return }
        writeMetadata(endedCleanly: false, reason: FileEnding.recordingReason)
    }

    /// Encodes and writes a batch of rows (one drained buffer: whole ticks).
    public func write(_ rows: UnsafeBufferPointer<Row>) {
        TickUnits.forEach(in: rows) { writeUnit($0) }
    }

    /// One tick's rows: they go to one file; rotation happens before them if needed.
    private func writeUnit(_ rows: UnsafeBufferPointer<Row>) {
        guard let first = rows.first else { return }
        rotation.start(at: first.when)
        let tick = encoder.encode(rows, first: first, into: chunk.freeRoom(rows: rows.count))
        if provisionalFile, let timeBase = namer.timeBase, !timeBase.isProvisional { renameProvisionalFile(firstRow: first.when) }
        if file == nil {
            if failures.halted == nil && nowNanos() >= nextOpenAttempt {
                // Rows while no file could be opened are counted as lost at the next flush.
                flushChunk()
                rotation.advance(past: first.when, namer.epoch)
                openFile(startingWhen: first.when)
            }
        } else if rotation.isTimeBoundary(first.when, namer.epoch) {
            rotate(startingWhen: first.when)
        } else if rotation.wouldOverflow(fileBytes: fileBytes, adding: chunk.byteCount + tick.bytes.count), fileHasRows {
            // This tick would overflow the file: it starts the next one.
            rotate(startingWhen: first.when)
        }
        chunk.append(tick)
        if chunk.byteCount >= configuration.chunkBytes { flushChunk() }
    }

    private var fileHasRows: Bool {
        !chunk.isEmpty || (meta?.rows.values.reduce(0, +) ?? 0) > 0
    }

    /// Writes whatever is buffered in the chunk to the current file.
    public func flushChunk() {
        guard !chunk.isEmpty else { return }
        guard let file else {
            let reason = "no file is open there (the last one was given up after the error above); rows are lost until a new one can be made"
            loseChunk(OutputError(operation: "write", path: directory.path, errno: nil, reason: reason))
            return
        }
        let t0 = nowNanos()
        let result: OutputError?
        do { try file.write(UnsafeRawBufferPointer(chunk.bytes)); result = nil } catch { result = error }
        noteLatency(since: t0)
        if let error = result {
            // Never leave a partial row: keep the whole rows that reached the file (the
            // oldest: a full card keeps what fits) and cut the file back to the last of
            // them. If even that fails, give the file up (its metadata says so) and start a
            // new one later.
            var cutFailed = false
            if error.bytesWritten > 0 {
                let whole = chunk.wholeRows(within: error.bytesWritten)
                do {
                    try file.truncate(to: fileBytes + Int64(whole.bytes))
                    if whole.bytes > 0 {
                        noteWritten(bytes: whole.bytes, rowsBySource: whole.rowsBySource, lastWhen: whole.lastWhen)
                        chunk.removeFirst((whole.bytes, whole.rowsBySource))
                    }
                } catch { cutFailed = true }
            }
            // Only a file that holds rows makes way for a next one (a limit below one row
            // would otherwise start file after file).
            if error.errno == .fileTooLarge, !cutFailed, (meta?.rows.values.reduce(0, +) ?? 0) > 0 {
                continueInNextFile()
                return
            }
            loseChunk(error)
            if error.errno == .readOnlyFileSystem { halt(reason: "write-error", message: error.description) }
            if cutFailed { abandonFile() }
            return
        }
        failures.recovered(file: meta?.name ?? "")
        noteWritten(bytes: chunk.byteCount, rowsBySource: chunk.rowsBySource, lastWhen: chunk.lastWhen)
        chunk.removeAll()
    }

    /// The file is as large as its file system allows (EFBIG: FAT32 stops at 4 GiB), cut
    /// back to its last whole row: the rest of the chunk starts the next file, as a
    /// rotation would, so a long recording on a FAT32 card loses nothing. A new file that
    /// cannot take even one row fails as any write does.
    private func continueInNextFile() {
        let full = meta?.name ?? "the file"
        guard let when = chunk.firstWhen else { return }   // every row fitted after all
        let ending = detachFile(reason: FileEnding.fileSizeLimitReason)
        openFile(startingWhen: when)
        if let ending { finalise(ending) }
        noteUnfollowed(ending)
        let size = ending?.section.map { " (\($0.bytes) bytes)" } ?? ""
        log.notice("\(full) reached the largest file its file system allows\(size); the recording goes on in \(meta?.name ?? "a new file")")
        flushChunk()
    }

    /// Counts the first `bytes` of the chunk as in the file: its size, the rows per source
    /// (`Source.order`) and the When range in the metadata.
    private func noteWritten(bytes: Int, rowsBySource: SIMD8<Int>, lastWhen: Double?) {
        onWritten?(Int64(bytes))
        fileBytes += Int64(bytes)
        unsyncedBytes = true
        if var m = meta {
            for (i, s) in Source.canonicalOrder.enumerated() where rowsBySource[i] > 0 {
                m.rows[String(s.letter), default: 0] += rowsBySource[i]
                counters.written.add(s, Int64(rowsBySource[i]))
            }
            if m.firstWhen == nil { m.firstWhen = chunk.firstWhen }
            if let last = lastWhen { m.lastWhen = max(m.lastWhen ?? last, last) }
            m.bytes = fileBytes
            meta = m
        }
    }

    private func loseChunk(_ error: OutputError) {
        let lost = chunk.rowCount
        _ = counters.rowsLostToWriteErrors.add(Int64(lost), ordering: .relaxed)
        noteFailure(error, metadata: ["rowsLost": "\(lost)"])
        fileLostRows += lost
        chunk.removeAll()
    }

    /// Counts a failure, remembers the first for the end-of-recording message, logs it once
    /// per episode; the current file's metadata will not claim a clean end.
    private func noteFailure(_ error: OutputError, metadata: Logger.Metadata? = nil) {
        _ = counters.writeErrors.add(1, ordering: .relaxed)
        failures.record(error.description, metadata: metadata)
        if file != nil { fileHadWriteErrors = true }
    }

    /// Stops all writing for good: no new file is opened, later rows are counted as lost,
    /// and the recording is asked to stop.
    private func halt(reason: String, message: String) {
        if failures.halt(reason: reason, message: message) { onFatal?(reason, message) }
    }

    /// Notices a folder or file removed under the writer (`rm -rf` of the output folder, a
    /// card unmounted and the mount point reused): writing on into an unlinked file would
    /// report rows that exist nowhere. Its rows are counted as lost and the writer halts.
    private func checkStillThere() {
        guard let current = file, failures.halted == nil else { return }
        let gone = current.isDeleted ? "\(directory.path)/\(meta?.name ?? "the file")" : nil
        guard let problem = gone.map({ "\($0) was deleted while it was being written" }) ?? directory.missingReason else { return }
        // The rows in it are gone with it: they were never really kept.
        if let m = meta {
            var lost = 0
            for s in Source.canonicalOrder {
                let n = m.rows[String(s.letter)] ?? 0
                counters.written.add(s, -Int64(n))
                lost += n
            }
            lost += chunk.rowCount
            _ = counters.rowsLostToWriteErrors.add(Int64(lost), ordering: .relaxed)
            files.removeAll { $0 == m.name }
            removedFiles.append(m.name)
        }
        _ = counters.writeErrors.add(1, ordering: .relaxed)
        chunk.removeAll()
        try? current.close()
        file = nil
        meta = nil
        counters.currentFile.withLock { $0 = nil }
        halt(reason: "output-folder-removed",
             message: problem + ": the rows written to it are gone; nothing more is written there (check whether the card was unmounted)")
    }

    /// fsyncs the current file if anything was written since the last sync.
    public func sync() {
        checkStillThere()
        guard unsyncedBytes, let file else { return }
        let t0 = nowNanos()
        do {
            try file.sync()
            _ = counters.fsyncs.add(1, ordering: .relaxed)
            unsyncedBytes = false
        } catch {
            // The kernel may have dropped the unsynced pages: the file cannot be trusted to be
            // complete, so its metadata will not claim a clean end.
            syncFailed = true
            noteFailure(error)
            if error.errno == .readOnlyFileSystem { halt(reason: "write-error", message: error.description) }
        }
        noteLatency(since: t0)
        if !syncFailed && metadata.isDue(now: nowNanos()) {
            writeMetadata(endedCleanly: false, reason: FileEnding.recordingReason)
        }
    }

    /// Publishes the most rows the producer's buffer held (called by the writer thread).
    public func notePeakBufferRows(_ rows: Int) {
        if rows > counters.peakBufferRows.load(ordering: .relaxed) { counters.peakBufferRows.store(rows, ordering: .relaxed) }
    }

    /// Gives up a file that can no longer be cut back to a row boundary.
    private func abandonFile() {
        guard let current = file else { return }
        // The metadata before the close, as in `finalise`: closing drops the lock recovery waits on.
        writeMetadata(endedCleanly: false, reason: FileEnding.abandonedReason)
        try? current.close()
        previousName = meta?.name
        file = nil
        meta = nil
        nextOpenAttempt = nowNanos() + 1_000_000_000
    }

    private func noteLatency(since t0: Int64) {
        counters.raiseMax(counters.worstWriteLatencyNanos, nowNanos() - t0)
    }

    /// Ends the current file and starts the next one, in an order that never leaves every
    /// part on disk looking finished (docs/FORMAT.md, "Rotation"): the old file is flushed
    /// and fsynced, the new CSV and its metadata (`recording`, next index, `previous` naming
    /// the old file) are created, and only then is the old file's metadata finalised as
    /// `rotated`. A power cut in between leaves two parts saying `recording`: recovery
    /// completes both (the old one has every row up to its fsync).
    private func rotate(startingWhen when: Double) {
        flushChunk()
        let ending = detachFile(reason: FileEnding.rotatedReason)
        rotation.advance(past: when, namer.epoch)
        openFile(startingWhen: when)
        if let ending { finalise(ending) }
        noteUnfollowed(ending)
    }

    /// After a part ended for the next one: if none could be opened, the part is the
    /// recording's last until one is (`lastRotated`).
    private func noteUnfollowed(_ ending: FileEndingToWrite?) {
        guard file == nil, let ending, let section = ending.section else { lastRotated = nil; return }
        lastRotated = (section, ending.reason.hasSuffix(FileEnding.fsyncFailedSuffix))
    }

    private func openFile(startingWhen when: Double) {
        do { try openFile(startingWhen: when, writeMetadataNow: true) } catch {
            file = nil
            meta = nil
            nextOpenAttempt = nowNanos() + 1_000_000_000
            noteFailure(error)
            if error.errno == .readOnlyFileSystem { halt(reason: "write-error", message: error.description) }
        }
    }

    private func openFile(startingWhen when: Double, writeMetadataNow: Bool) throws(OutputError) {
        provisionalFile = namer.isProvisional
        let (name, newFile) = try directory.createExclusive(base: namer.base(startingAt: when), ext: ".csv")
        let header = CSVFormat.headerBytes
        let failure: OutputError? = header.withUnsafeBytes { (b: UnsafeRawBufferPointer) -> OutputError? in
            do { try newFile.write(b); return nil } catch { return error as? OutputError ?? OutputError(operation: "write", path: name, errno: nil) }
        }
        if let failure {
            // No header, no file: remove it rather than leave a CSV that is not one.
            try? newFile.close()
            try? directory.remove(name: name + ".csv")
            throw failure
        }
        syncFailed = false
        fileLostRows = 0
        fileHadWriteErrors = false
        fileIndex += 1
        file = newFile
        lastRotated = nil   // a part follows it now (only now: a header that fails is no part)
        fileBytes = Int64(header.count)
        unsyncedBytes = true
        var section = RecordingMetadata.FileSection(name: name + ".csv", index: fileIndex, previous: previousName)
        section.startLocal = TimeText.isoLocal(epochSeconds: namer.epoch(when: when))
        meta = section
        files.append(name + ".csv")
        counters.currentFile.withLock { $0 = directory.path + "/" + name + ".csv" }
        if writeMetadataNow { writeMetadata(endedCleanly: false, reason: FileEnding.recordingReason) } else { metadata.makeDue() }
    }

    /// GPS time is known now: gives the current file (CSV and metadata) the name of its
    /// first sample's true local time. On failure the provisional name stays (logged).
    private func renameProvisionalFile(firstRow: Double? = nil) {
        guard var m = meta, let firstWhen = m.firstWhen ?? chunk.firstWhen ?? firstRow else { return }
        provisionalFile = false
        let epoch = namer.epoch(when: firstWhen)
        let oldName = m.name
        do {
            let newBase = try directory.rename(oldName, toBase: TimeText.fileBase(epochSeconds: epoch), ext: ".csv")
            m.name = newBase + ".csv"
            m.renamedFrom = oldName
            m.startLocal = TimeText.isoLocal(epochSeconds: epoch)
            meta = m
            if let i = files.lastIndex(of: oldName) { files[i] = m.name }
            counters.currentFile.withLock { $0 = directory.path + "/" + m.name }
            writeMetadata(endedCleanly: false, reason: FileEnding.recordingReason)
            try? directory.remove(name: RecordingFiles.metadataPath(for: oldName))
            log.notice("GPS time is known: \(oldName) renamed to \(m.name)")
        } catch {
            log.warning("GPS time is known but \(oldName) could not be renamed: \(error); it keeps its provisional name")
        }
    }

    private func closeFile(reason: String) {
        if let ending = detachFile(reason: reason) { finalise(ending) }
    }

    /// A file taken out of the writer but not yet closed, with how its metadata will end.
    private struct FileEndingToWrite {
        var file: OutputFile
        var section: RecordingMetadata.FileSection?
        var endedCleanly: Bool
        var reason: String
    }

    /// fsyncs the current file and takes it out of the writer (the next file opened names
    /// it as `previous`); nil when no file is open. Its metadata still says `recording`
    /// until `finalise`.
    private func detachFile(reason: String) -> FileEndingToWrite? {
        guard let current = file else { return nil }
        sync()
        // A file that lost rows or whose fsync failed did not end cleanly, whatever ended it.
        var why = reason
        if fileHadWriteErrors || fileLostRows > 0 { why += FileEnding.writeErrorsSuffix }
        if syncFailed { why += FileEnding.fsyncFailedSuffix }
        let ending = FileEndingToWrite(file: current, section: meta, endedCleanly: why == reason, reason: why)
        previousName = meta?.name
        file = nil
        meta = nil
        return ending
    }

    /// Writes a detached file's final metadata, then closes it. A failure counts as a write
    /// error of the recording; it does not mark the file open now (if any) as unclean. The
    /// metadata goes first because closing drops the file's lock: a recovery (a second
    /// `record` or the daemon starting in the folder) that came in between found a file
    /// unlocked whose metadata still said `recording`, and marked it recovered.
    private func finalise(_ ending: FileEndingToWrite) {
        if let section = ending.section,
           let error = metadata.write(section, endedCleanly: ending.endedCleanly, reason: ending.reason, now: nowNanos()) {
            _ = counters.writeErrors.add(1, ordering: .relaxed)
            failures.record(error.description, metadata: nil)
        }
        do { try ending.file.close() } catch {
            _ = counters.writeErrors.add(1, ordering: .relaxed)
            log.error("\(error)")
        }
    }

    private func writeMetadata(endedCleanly: Bool, reason: String) {
        guard let section = meta else { return }
        if let error = metadata.write(section, endedCleanly: endedCleanly, reason: reason, now: nowNanos()) {
            noteFailure(error)
        }
    }

    /// Writes everything still buffered, fsyncs, closes the file and finalises its metadata.
    public func finish(reason: String) {
        if provisionalFile, let timeBase = namer.timeBase, !timeBase.isProvisional { renameProvisionalFile() }
        flushChunk()
        closeFile(reason: reason)
        // The recording ended while no file could be opened after a rotation: the last file's
        // metadata said `rotated` (a part that does not exist would follow) with the counters
        // of that moment, and the rows lost since were written nowhere on disk.
        if let last = lastRotated {
            lastRotated = nil
            // As the part itself ended: a failed fsync stays said (recovery checks such a part).
            let why = reason + FileEnding.writeErrorsSuffix + (last.fsyncFailed ? FileEnding.fsyncFailedSuffix : "")
            if let error = metadata.write(last.section, endedCleanly: false, reason: why, now: nowNanos()) {
                noteFailure(error)
            }
        }
    }
}
