import Logging

/// The writer thread's half of the pipeline: encodes rows into large chunks, writes them to
/// the current file, rotates by size and/or time at row boundaries, fsyncs, and keeps the
/// metadata JSON beside each CSV up to date. Used from the writer thread only.
///
/// Failures never stop the recording: a failed write is cut back to the last complete row
/// (`ftruncate`), its rows are counted as lost, the error is logged once per episode, and
/// writing resumes with the next rows.
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
    /// The last When's text: the rows of one tick share it, so it is formatted once.
    private var whenText = WhenText()
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
    /// Every file this writer created, in order.
    public private(set) var files: [String] = []

    public init(directory: OutputDirectory, description: RecordingDescription, configuration: Configuration,
                counters: RecorderCounters, whenOffset: Double, log: Logger,
                nowNanos: @escaping @Sendable () -> Int64 = { SystemClock.monotonicNanos() },
                timeBase: GPSTimeBase? = nil) {
        self.timeBase = timeBase
        self.directory = directory; self.description = description; self.configuration = configuration
        self.counters = counters; self.whenOffset = whenOffset; self.log = log; self.nowNanos = nowNanos
        chunk.reserveCapacity(configuration.chunkBytes + CSVFormat.maxRowBytes)
    }

    /// Encodes and writes a batch of rows (one drained buffer).
    public func write(_ rows: UnsafeBufferPointer<Row>) {
        if provisionalFile, let timeBase, !timeBase.isProvisional { renameProvisionalFile(timeBase) }
        for row in rows {
            if recordingFirstWhen == nil {
                recordingFirstWhen = row.when
                if let s = configuration.rotation.maxSeconds { nextTimeBoundary = row.when + s }
            }
            if file == nil {
                if nowNanos() >= nextOpenAttempt {
                    // Rows while no file could be opened are counted as lost at the next flush.
                    flushChunk()
                    advanceTimeBoundary(past: row.when)
                    openFile(startingWith: row)
                }
            } else if let boundary = nextTimeBoundary, row.when >= boundary - 1e-6 {
                rotate(startingWith: row)
            }
            let start = chunk.count
            if configuration.numberText == .ownFormatter {
                RowEncoder.append(row, to: &chunk, when: &whenText)
            } else {
                RowEncoder.appendWithDescriptions(row, to: &chunk)
            }
            if let limit = configuration.rotation.maxBytes,
               fileBytes + Int64(chunk.count) > limit, file != nil, fileHasRows(orChunkBefore: start) {
                // This row would overflow the file: everything before it goes to the current
                // file, the row itself starts the next one.
                let tail = Array(chunk[start...])
                chunk.removeSubrange(start...)
                rotate(startingWith: row)
                chunk.append(contentsOf: tail)
            }
            chunkRows[row.source.order] += 1
            if chunkFirstWhen == nil { chunkFirstWhen = row.when }
            chunkLastWhen = max(chunkLastWhen ?? row.when, row.when)
            if chunk.count >= configuration.chunkBytes { flushChunk() }
        }
    }

    private func fileHasRows(orChunkBefore start: Int) -> Bool {
        start > 0 || (meta?.rows.values.reduce(0, +) ?? 0) > 0
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
            if cutFailed { abandonFile() }
            return
        }
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
        if !inErrorEpisode {
            log.error("\(error)", metadata: ["rowsLost": "\(lost)"])
            inErrorEpisode = true
        }
        resetChunk()
    }

    private func resetChunk() {
        chunk.removeAll(keepingCapacity: true)
        for i in chunkRows.indices { chunkRows[i] = 0 }
        chunkFirstWhen = nil
        chunkLastWhen = nil
    }

    /// fsyncs the current file if anything was written since the last sync.
    public func sync() {
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
            if !inErrorEpisode { log.error("\(error)"); inErrorEpisode = true }
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

    private func rotate(startingWith row: Row) {
        flushChunk()
        closeFile(reason: "rotated")
        // Arithmetic, not a loop: When may have stepped forward by years (GPS time).
        advanceTimeBoundary(past: row.when)
        openFile(startingWith: row)
    }

    private func openFile(startingWith row: Row) {
        // Rows sampled before GPS time was applied name the file by their true time.
        let epoch = timeBase?.namingEpoch(when: row.when, whenOffset: whenOffset, whenMode: description.whenMode)
            ?? row.when + whenOffset
        provisionalFile = timeBase?.isProvisional == true
        let base = provisionalFile ? provisionalBase() : TimeText.fileBase(epochSeconds: epoch)
        do {
            let (name, newFile) = try directory.createExclusive(base: base, ext: ".csv")
            let header = CSVFormat.headerBytes
            do {
                try header.withUnsafeBytes { (b: UnsafeRawBufferPointer) throws -> Void in try newFile.write(b) }
            } catch {
                // No header, no file: remove it rather than leave a CSV that is not one.
                try? newFile.close()
                try? directory.remove(name: name + ".csv")
                throw error
            }
            syncFailed = false
            fileIndex += 1
            file = newFile
            fileBytes = Int64(header.count)
            unsyncedBytes = true
            var section = RecordingMetadata.FileSection(name: name + ".csv", index: fileIndex, previous: previousName)
            section.startLocal = TimeText.isoLocal(epochSeconds: epoch)
            meta = section
            files.append(name + ".csv")
            counters.currentFile.withLock { $0 = directory.path + "/" + name + ".csv" }
            writeMetadata(endedCleanly: false, reason: "recording")
        } catch {
            file = nil
            meta = nil
            nextOpenAttempt = nowNanos() + 1_000_000_000
            _ = counters.writeErrors.add(1, ordering: .relaxed)
            if !inErrorEpisode { log.error("\(error)"); inErrorEpisode = true }
        }
    }

    /// `<prefix>-<seconds since boot>`: never a date from an unsynchronised clock.
    private func provisionalBase() -> String {
        let uptime = String(max(0, nowNanos()) / 1_000_000_000)
        return (timeBase?.provisionalPrefix ?? "unsynced") + "-" + String(repeating: "0", count: max(0, 7 - uptime.count)) + uptime
    }

    /// GPS time is known now: gives the current file (CSV and metadata) the name of its
    /// first sample's true local time. On failure the provisional name stays (logged).
    private func renameProvisionalFile(_ timeBase: GPSTimeBase) {
        guard var m = meta, let firstWhen = m.firstWhen ?? chunkFirstWhen else { return }
        provisionalFile = false
        // Its rows were written before the correction: add it to get true UTC.
        let epoch = firstWhen + whenOffset + timeBase.correctionSeconds
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
        writeMetadata(endedCleanly: !syncFailed, reason: syncFailed ? "\(reason), fsync-failed" : reason)
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
            log.error("\(error)")
        }
    }

    /// Writes everything still buffered, fsyncs, closes the file and finalises its metadata.
    public func finish(reason: String) {
        flushChunk()
        closeFile(reason: reason)
    }
}
