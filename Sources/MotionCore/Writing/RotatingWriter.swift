import Logging

/// The writer thread's half of the pipeline: encodes rows into large chunks, writes them to
/// the current file, rotates by size and/or time at row boundaries, fsyncs, and keeps the
/// metadata JSON beside each CSV up to date. Used from the writer thread only.
///
/// A failed write is cut back to the last complete row (`ftruncate`), its rows are counted
/// as lost, the error is logged once per episode, and writing resumes with the next rows.
/// Failures that no later write can overcome — a read-only file system, the output folder
/// or the open file removed — halt the writer: `onFatal` asks the recording to stop, and
/// every later row is counted as lost. Rotation happens between ticks, never inside one:
/// a tick's rows (A, G, M, D and the L rows polled with them) always share a file.
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
    private let description: RecordingDescription
    private let counters: RecorderCounters
    private let whenOffset: Double
    private let nowNanos: @Sendable () -> Int64
    private let log: Logger
    /// GPS time: names files provisionally until it is known (nil: the system clock names them).
    private let timeBase: GPSTimeBase?

    private var file: OutputFile?
    /// True while the current file has a provisional name (see docs/GPS.md).
    private var provisionalFile = false
    private var meta: RecordingMetadata.FileSection?
    private var fileIndex = 0
    private var previousName: String?
    /// Bytes of the current file known to be on disk (a row boundary).
    private var fileBytes: Int64 = 0
    private var chunk: [UInt8] = []
    /// Rows per source in `chunk`, not yet written.
    private var chunkRows = [Int](repeating: 0, count: 5)
    private var chunkFirstWhen: Double?
    private var chunkLastWhen: Double?
    private var unsyncedBytes = false
    private var nextTimeBoundary: Double?
    private var recordingFirstWhen: Double?
    private var inErrorEpisode = false
    /// After a failed open, no new attempt before this time (monotonic ns): a full card must
    /// not make the writer create a file per row.
    private var nextOpenAttempt: Int64 = .min
    /// The current file's fsync failed: its metadata will say it did not end cleanly.
    private var syncFailed = false
    private var lastMetadataWrite: Int64 = 0
    /// How often the open file's metadata is refreshed, so a power cut keeps recent counters.
    public var metadataRefreshNanos: Int64 = 5_000_000_000
    /// Every file this writer created, in order (a file removed by someone else while it was
    /// being written is dropped from the list and named in `removedFiles`).
    public private(set) var files: [String] = []
    /// Files that were deleted (with their folder) while this writer wrote them.
    public private(set) var removedFiles: [String] = []
    /// The first write failure, for the end-of-recording message (nil: none).
    public private(set) var firstFailure: String?
    /// Set once a failure no later write can overcome happened (see the type's comment).
    public private(set) var halted: String?
    /// Called (once) from the writer thread when the writer halts, with the end reason
    /// (`write-error` or `output-folder-removed`) and a message.
    public var onFatal: (@Sendable (_ reason: String, _ message: String) -> Void)?
    /// Called from the writer thread after each successful write with its size in bytes
    /// (the free-space guard counts bytes, not seconds, so `--fast` cannot outrun it).
    public var onWritten: (@Sendable (Int64) -> Void)?
    /// Rows lost while the current file was open, and whether any write to it failed: its
    /// metadata then does not claim a clean end.
    private var fileLostRows = 0
    private var fileHadWriteErrors = false
    /// The text of the tick being encoded (a unit that is never split across files), and
    /// the last When's text (the rows of one tick share it, so it is formatted once).
    private let unit = UnitBytes()
    /// One row's text from `Double.description` (the reference maker, for benchmarks).
    private var descriptionText: [UInt8] = []

    public init(directory: OutputDirectory, description: RecordingDescription, configuration: Configuration,
                counters: RecorderCounters, whenOffset: Double, log: Logger,
                nowNanos: @escaping @Sendable () -> Int64 = { SystemClock.monotonicNanos() },
                timeBase: GPSTimeBase? = nil) {
        self.timeBase = timeBase
        self.directory = directory; self.description = description; self.configuration = configuration
        self.counters = counters; self.whenOffset = whenOffset; self.log = log; self.nowNanos = nowNanos
        chunk.reserveCapacity(configuration.chunkBytes + CSVFormat.maxRowBytes)
    }

    /// Opens the recording's first file (named by the first tick's When) before the first
    /// tick, so a folder that cannot be written stops the recording before it starts. The
    /// metadata follows at the first sync (the caller's first tick is not held up by it).
    public func open(firstWhen: Double) throws(OutputError) {
        try openFile(startingWhen: firstWhen, writeMetadataNow: false)
    }

    /// Encodes and writes a batch of rows (one drained buffer: whole ticks).
    public func write(_ rows: UnsafeBufferPointer<Row>) {
        var start = 0
        var imuWhen: Double?
        var hasLocation = false
        for (i, row) in rows.enumerated() {
            let isLocation = row.source == .location
            // A tick starts with its first IMU row; the L rows polled in that tick follow it.
            let startsUnit = i > start && (isLocation ? imuWhen == nil : hasLocation || imuWhen != row.when)
            if startsUnit {
                writeUnit(UnsafeBufferPointer(rebasing: rows[start..<i]))
                start = i
                imuWhen = nil
                hasLocation = false
            }
            if isLocation { hasLocation = true } else { imuWhen = row.when }
        }
        if start < rows.count { writeUnit(UnsafeBufferPointer(rebasing: rows[start...])) }
    }

    /// One tick's rows: they go to one file; rotation happens before them if needed.
    private func writeUnit(_ rows: UnsafeBufferPointer<Row>) {
        guard let first = rows.first else { return }
        if recordingFirstWhen == nil {
            recordingFirstWhen = first.when
            if let s = configuration.rotation.maxSeconds { nextTimeBoundary = first.when + s }
        }
        // Encoded into the unit's raw memory with local counters: the writer's stored
        // properties are read and written once per tick, not once per row.
        unit.reserve(rows: rows.count)
        let out = unit.base
        var unitCount = 0
        var unitRows = SIMD8<Int>()
        let unitFirstWhen = first.when
        var unitLastWhen = first.when
        if configuration.numberText == .ownFormatter {
            let when = unit.when
            for row in rows {
                unitCount &+= RowEncoder.encode(row, into: out + unitCount, when: &when.pointee)
                unitRows[row.source.order] &+= 1
                unitLastWhen = max(unitLastWhen, row.when)
            }
        } else {
            for row in rows {
                descriptionText.removeAll(keepingCapacity: true)
                RowEncoder.appendWithDescriptions(row, to: &descriptionText)
                descriptionText.withUnsafeBufferPointer { text in
                    if let b = text.baseAddress { (out + unitCount).update(from: b, count: text.count) }
                }
                unitCount &+= descriptionText.count
                unitRows[row.source.order] &+= 1
                unitLastWhen = max(unitLastWhen, row.when)
            }
        }
        if provisionalFile, let timeBase, !timeBase.isProvisional { renameProvisionalFile(timeBase, firstRow: first.when) }
        if file == nil {
            if halted == nil && nowNanos() >= nextOpenAttempt {
                // Rows while no file could be opened are counted as lost at the next flush.
                flushChunk()
                advanceTimeBoundary(past: first.when)
                openFile(startingWhen: first.when)
            }
        } else if let boundary = nextTimeBoundary, first.when >= boundary - 1e-6 {
            rotate(startingWhen: first.when)
        } else if let limit = configuration.rotation.maxBytes,
                  fileBytes + Int64(chunk.count + unitCount) > limit, fileHasRows {
            // This tick would overflow the file: it starts the next one.
            rotate(startingWhen: first.when)
        }
        chunk.append(contentsOf: UnsafeBufferPointer(start: out, count: unitCount))
        chunkRows.withUnsafeMutableBufferPointer { counts in
            for i in counts.indices { counts[i] &+= unitRows[i] }
        }
        if chunkFirstWhen == nil { chunkFirstWhen = unitFirstWhen }
        chunkLastWhen = max(chunkLastWhen ?? unitLastWhen, unitLastWhen)
        if chunk.count >= configuration.chunkBytes { flushChunk() }
    }

    private var fileHasRows: Bool {
        !chunk.isEmpty || (meta?.rows.values.reduce(0, +) ?? 0) > 0
    }

    /// Writes whatever is buffered in the chunk to the current file.
    public func flushChunk() {
        guard !chunk.isEmpty else { return }
        guard let file else { loseChunk(OutputError(operation: "write", path: directory.path, errno: nil)); return }
        let t0 = nowNanos()
        let result: OutputError? = chunk.withUnsafeBytes { bytes in
            do { try file.write(bytes); return nil } catch { return error as? OutputError }
        }
        noteLatency(since: t0)
        if let error = result {
            // Never leave a partial row: cut the file back to the last complete one. If even
            // that fails, give the file up (its metadata says so) and start a new one later.
            var cutFailed = false
            if error.bytesWritten > 0 {
                do { try file.truncate(to: fileBytes) } catch { cutFailed = true }
            }
            loseChunk(error)
            if error.errno == .readOnlyFileSystem { halt(reason: "write-error", message: error.description) }
            if cutFailed { abandonFile() }
            return
        }
        onWritten?(Int64(chunk.count))
        if inErrorEpisode {
            log.notice("writing works again", metadata: ["file": "\(meta?.name ?? "")"])
            inErrorEpisode = false
        }
        fileBytes += Int64(chunk.count)
        unsyncedBytes = true
        if var m = meta {
            for (i, s) in Source.canonicalOrder.enumerated() where chunkRows[i] > 0 {
                m.rows[String(s.letter), default: 0] += chunkRows[i]
                counters.written.add(s, Int64(chunkRows[i]))
            }
            if m.firstWhen == nil { m.firstWhen = chunkFirstWhen }
            if let last = chunkLastWhen { m.lastWhen = max(m.lastWhen ?? last, last) }
            m.bytes = fileBytes
            meta = m
        }
        resetChunk()
    }

    private func loseChunk(_ error: OutputError) {
        let lost = chunkRows.reduce(0, +)
        _ = counters.rowsLostToWriteErrors.add(Int64(lost), ordering: .relaxed)
        _ = counters.writeErrors.add(1, ordering: .relaxed)
        noteFailure(error.description)
        fileLostRows += lost
        if !inErrorEpisode {
            log.error("\(error)", metadata: ["rowsLost": "\(lost)"])
            inErrorEpisode = true
        }
        resetChunk()
    }

    /// Remembers the first failure for the end-of-recording message; the current file's
    /// metadata will not claim a clean end.
    private func noteFailure(_ message: String) {
        if firstFailure == nil { firstFailure = message }
        if file != nil { fileHadWriteErrors = true }
    }

    /// Stops all writing for good: no new file is opened, later rows are counted as lost,
    /// and the recording is asked to stop.
    private func halt(reason: String, message: String) {
        guard halted == nil else { return }
        halted = reason
        if firstFailure == nil { firstFailure = message }
        log.error("\(message): stopping the recording")
        onFatal?(reason, message)
    }

    /// Notices a folder or file removed under the writer (`rm -rf` of the output folder, a
    /// card unmounted and the mount point reused): writing on into an unlinked file would
    /// report rows that exist nowhere. Its rows are counted as lost and the writer halts.
    private func checkStillThere() {
        guard let current = file, halted == nil else { return }
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
            lost += chunkRows.reduce(0, +)
            _ = counters.rowsLostToWriteErrors.add(Int64(lost), ordering: .relaxed)
            files.removeAll { $0 == m.name }
            removedFiles.append(m.name)
        }
        _ = counters.writeErrors.add(1, ordering: .relaxed)
        resetChunk()
        try? current.close()
        file = nil
        meta = nil
        counters.currentFile.withLock { $0 = nil }
        halt(reason: "output-folder-removed",
             message: problem + ": the rows written to it are gone; nothing more is written there (check whether the card was unmounted)")
    }

    private func resetChunk() {
        chunk.removeAll(keepingCapacity: true)
        for i in chunkRows.indices { chunkRows[i] = 0 }
        chunkFirstWhen = nil
        chunkLastWhen = nil
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
            _ = counters.writeErrors.add(1, ordering: .relaxed)
            noteFailure(error.description)
            if !inErrorEpisode { log.error("\(error)"); inErrorEpisode = true }
            if error.errno == .readOnlyFileSystem { halt(reason: "write-error", message: error.description) }
        }
        noteLatency(since: t0)
        if !syncFailed && nowNanos() - lastMetadataWrite >= metadataRefreshNanos {
            writeMetadata(endedCleanly: false, reason: "recording")
        }
    }

    /// Publishes the most rows the producer's buffer held (called by the writer thread).
    public func notePeakBufferRows(_ rows: Int) {
        if rows > counters.peakBufferRows.load(ordering: .relaxed) { counters.peakBufferRows.store(rows, ordering: .relaxed) }
    }

    /// Gives up a file that can no longer be cut back to a row boundary.
    private func abandonFile() {
        guard let current = file else { return }
        try? current.close()
        writeMetadata(endedCleanly: false, reason: "write-error")
        previousName = meta?.name
        file = nil
        meta = nil
        nextOpenAttempt = nowNanos() + 1_000_000_000
    }

    /// Moves the next time-rotation boundary past `when`: boundaries are first + n·interval.
    private func advanceTimeBoundary(past when: Double) {
        guard let s = configuration.rotation.maxSeconds, let first = recordingFirstWhen, var b = nextTimeBoundary,
              when >= b - 1e-6 else { return }
        let n = ((when - first + 1e-6) / s).rounded(.down) + 1
        b = first + n * s
        if when >= b - 1e-6 { b += s }
        nextTimeBoundary = b
    }

    private func noteLatency(since t0: Int64) {
        counters.raiseMax(counters.worstWriteLatencyNanos, nowNanos() - t0)
    }

    private func rotate(startingWhen when: Double) {
        flushChunk()
        closeFile(reason: "rotated")
        // Arithmetic, not a loop: When may have stepped forward by years (GPS time).
        advanceTimeBoundary(past: when)
        openFile(startingWhen: when)
    }

    private func openFile(startingWhen when: Double) {
        do { try openFile(startingWhen: when, writeMetadataNow: true) } catch {
            file = nil
            meta = nil
            nextOpenAttempt = nowNanos() + 1_000_000_000
            _ = counters.writeErrors.add(1, ordering: .relaxed)
            if firstFailure == nil { firstFailure = error.description }
            if !inErrorEpisode { log.error("\(error)"); inErrorEpisode = true }
            if error.errno == .readOnlyFileSystem { halt(reason: "write-error", message: error.description) }
        }
    }

    private func openFile(startingWhen when: Double, writeMetadataNow: Bool) throws(OutputError) {
        // Rows sampled before GPS time was applied name the file by their true time.
        let epoch = timeBase?.namingEpoch(when: when, whenOffset: whenOffset, whenMode: description.whenMode)
            ?? when + whenOffset
        provisionalFile = timeBase?.isProvisional == true
        let base = provisionalFile ? provisionalBase() : TimeText.fileBase(epochSeconds: epoch)
        let (name, newFile) = try directory.createExclusive(base: base, ext: ".csv")
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
        fileBytes = Int64(header.count)
        unsyncedBytes = true
        var section = RecordingMetadata.FileSection(name: name + ".csv", index: fileIndex, previous: previousName)
        section.startLocal = TimeText.isoLocal(epochSeconds: epoch)
        meta = section
        files.append(name + ".csv")
        counters.currentFile.withLock { $0 = directory.path + "/" + name + ".csv" }
        if writeMetadataNow { writeMetadata(endedCleanly: false, reason: "recording") } else { lastMetadataWrite = .min / 2 }
    }

    /// `<prefix>-<seconds since boot>`: never a date from an unsynchronised clock.
    private func provisionalBase() -> String {
        let uptime = String(max(0, nowNanos()) / 1_000_000_000)
        return (timeBase?.provisionalPrefix ?? "unsynced") + "-" + String(repeating: "0", count: max(0, 7 - uptime.count)) + uptime
    }

    /// GPS time is known now: gives the current file (CSV and metadata) the name of its
    /// first sample's true local time. On failure the provisional name stays (logged).
    private func renameProvisionalFile(_ timeBase: GPSTimeBase, firstRow: Double? = nil) {
        guard var m = meta, let firstWhen = m.firstWhen ?? chunkFirstWhen ?? firstRow else { return }
        provisionalFile = false
        // Rows written before the correction lack it: the time base knows which did.
        let epoch = timeBase.namingEpoch(when: firstWhen, whenOffset: whenOffset, whenMode: description.whenMode)
        let oldName = m.name
        do {
            let newBase = try directory.rename(oldName, toBase: TimeText.fileBase(epochSeconds: epoch), ext: ".csv")
            m.name = newBase + ".csv"
            m.renamedFrom = oldName
            m.startLocal = TimeText.isoLocal(epochSeconds: epoch)
            meta = m
            if let i = files.lastIndex(of: oldName) { files[i] = m.name }
            counters.currentFile.withLock { $0 = directory.path + "/" + m.name }
            writeMetadata(endedCleanly: false, reason: "recording")
            try? directory.remove(name: String(oldName.dropLast(4)) + ".json")
            log.notice("GPS time is known: \(oldName) renamed to \(m.name)")
        } catch {
            log.warning("GPS time is known but \(oldName) could not be renamed: \(error); it keeps its provisional name")
        }
    }

    private func closeFile(reason: String) {
        guard let current = file else { return }
        sync()
        do { try current.close() } catch {
            _ = counters.writeErrors.add(1, ordering: .relaxed)
            log.error("\(error)")
        }
        // A file that lost rows or whose fsync failed did not end cleanly, whatever ended it.
        var why = reason
        if fileHadWriteErrors || fileLostRows > 0 { why += ", write-errors" }
        if syncFailed { why += ", fsync-failed" }
        writeMetadata(endedCleanly: why == reason, reason: why)
        previousName = meta?.name
        file = nil
        meta = nil
    }

    private func writeMetadata(endedCleanly: Bool, reason: String) {
        guard let section = meta else { return }
        var snapshot = counters.snapshot()
        snapshot.time = timeBase?.snapshot
        let doc = RecordingMetadata(
            software: .init(version: configuration.softwareVersion), recording: description, file: section,
            counters: snapshot, endedCleanly: endedCleanly, endReason: reason,
            ended: endedCleanly ? TimeText.isoUTC(epochSeconds: Double(SystemClock.realtimeNanos()) / 1e9) : nil)
        let jsonName = String(section.name.dropLast(4)) + ".json"
        lastMetadataWrite = nowNanos()
        do { try directory.replace(name: jsonName, contents: doc.encoded()) } catch {
            _ = counters.writeErrors.add(1, ordering: .relaxed)
            noteFailure(error.description)
            if !inErrorEpisode { log.error("\(error)"); inErrorEpisode = true }
        }
    }

    /// Writes everything still buffered, fsyncs, closes the file and finalises its metadata.
    public func finish(reason: String) {
        if provisionalFile, let timeBase, !timeBase.isProvisional { renameProvisionalFile(timeBase) }
        flushChunk()
        closeFile(reason: reason)
    }
}
