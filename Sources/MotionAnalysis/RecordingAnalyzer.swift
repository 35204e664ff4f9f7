import Foundation
import MotionCore

/// A summary and the filtered fixes (time order) behind its track and timeline.
public struct AnalysisResult: Sendable {
    public var summary: AnalysisSummary
    public var fixes: [Fix]
    /// How many pieces the track was analysed in (`TrackTimeline`).
    var trackPieces = 0
    /// The files that gave rows within `options.from..<to` (all with rows, without them):
    /// `--day` reads the file before the day too, in case it runs into it.
    public var filesWithRows: [String] = []
}

/// Reads one recording, or several consecutive ones (rotated files, a folder, a day), in a
/// single streaming pass and computes its `AnalysisSummary`: track, timeline, movement
/// per interval and health.
///
/// Memory: the reader holds one 1 MiB buffer; IMU rows are reduced on the fly to one
/// 50 Hz bin and one 5 s feature window at a time; GPS fixes are analysed a piece of the
/// track at a time (`TrackTimeline`: cut at stops and long losses), so of the fixes only
/// the longest piece's are held (64 bytes each, and about as much again in per-fix numbers
/// while it is analysed; docs/ANALYSIS.md has measurements). What grows with the recorded
/// time is small: the timeline's entries, one number per movement interval and epoch, and
/// of the IMU windows (5 s each) one run per change of kind (`IMUKindRun`), except those
/// the pieces still to analyse look at.
public struct RecordingAnalyzer: RowSink {
    /// Bumped whenever the analysis changes what it computes (cached summaries go stale).
    public static let version = 33
    /// A When below this (the year 2001) in a file without metadata is taken for relative.
    public static let relativeLooking = 1e9

    let options: AnalysisOptions
    var stats = [SourceStats](repeating: SourceStats(), count: 5)
    var windows = IMUWindowBuilder()
    var movement: MovementAccumulator
    var filter: FixFilter
    var track: TrackTimeline
    var noPosition = 0
    /// Where another recording begins (the When of its first L row) and the pause it must
    /// follow to count as one (0 with metadata); set on the first L row after `nextRecording`.
    var recordingBreaks: [RecordingBreak] = []
    var nextRecording: Double?
    /// The file being read has relative When: its start and tick rate, to put fixes back on
    /// the ticks they were rounded from (`RelativeWhen.placedOnTicks`).
    var relativeTicks: (start: Double, rateHz: Int)?
    /// A part of the recording is missing before the next file (its index skips): the first
    /// fix after it is taken as `jumped`.
    var holeBefore = false
    /// Whether the files read are more than one recording (the logger was off between them).
    var severalRecordings = false
    /// Fixes whose Doppler speed was above `maxSpeedMps` (not used; positions give the speed).
    var impossibleSpeeds = 0
    var threeD = 0
    var ephs = LogHistogram()
    var magnetic = MagneticFieldStats()
    var accelLimit = Double.infinity
    /// Only the GPS fixes are wanted (`forEachFix`): the other rows are read (and checked)
    /// but neither converted nor analysed.
    var fixesOnly = false
    var gyroLimit = Double.infinity
    var accelClipped = 0
    var gyroClipped = 0
    /// IMU rows with a value no sensor gives (`SensorValue.isImpossible`), left out.
    var impossibleRows = 0
    var outside = 0
    /// The When the recorder wrote into the file being read (everything without metadata):
    /// a row outside was changed after recording and is left out but counted.
    var written = WrittenWhen.everything
    /// Rows left out that way, per file name, and per source (still rows of the file for
    /// `CutShortFile`).
    var outsideRows = [Int](repeating: 0, count: 5)
    var outsideWritten: [(file: String, rows: Int, first: Double, last: Double)] = []
    /// The clock steps of the recordings read (one per recording, in time order) with the
    /// rows each placed, and the index of the step of the file being read.
    var placedSteps: [(step: ClockStep, rows: Int)] = []
    var currentStep: Int?

    /// `keepFixes`: hold every filtered fix for `AnalysisResult.fixes`; `heldFixLimit`: the
    /// most fixes the track may hold at once.
    init(options: AnalysisOptions, keepFixes: Bool = true, heldFixLimit: Int? = nil) {
        self.options = options
        movement = MovementAccumulator(interval: options.movementIntervalS, epoch: options.epochS)
        filter = FixFilter(maxSpeed: options.maxSpeedMps)
        track = TrackTimeline(options: options, keepAll: keepFixes, heldLimit: heldFixLimit)
    }

    public mutating func row(_ source: Source, when stamped: Double, values v: UnsafeBufferPointer<Double>) {
        if !written.admits(source, stamped) {
            outsideWritten[outsideWritten.count - 1].rows += 1
            outsideRows[source.order] += 1
            return
        }
        if fixesOnly && source != .location { return }
        var when = stamped
        if let k = currentStep, placedSteps[k].step.isBefore(source, when) {
            when += placedSteps[k].step.seconds
            placedSteps[k].rows += 1
        }
        // A fix of a relative-When file goes back on the tick it was rounded from
        // (docs/FORMAT.md), for the health's gaps as for the track.
        if let r = relativeTicks, source == .location { when = RelativeWhen.placedOnTicks(when, start: r.start, rateHz: r.rateHz) }
        if let from = options.from, when < from { outside += 1; return }
        if let to = options.to, when >= to { outside += 1; return }
        stats[source.order].add(when)
        if source != .location {
            let k = Self.firstIMUValueRead(source)
            if SensorValue.isImpossible(v[k], v[k + 1], v[k + 2]) { impossibleRows += 1; return }
        }
        switch source {
        case .accelerometer:
            if abs(v[0]) >= accelLimit || abs(v[1]) >= accelLimit || abs(v[2]) >= accelLimit { accelClipped += 1 }
            if let bin = windows.add(when: when, x: v[0], y: v[1], z: v[2]) {
                movement.addABin(time: bin.time, x: bin.x, y: bin.y, z: bin.z, repeats: bin.repeats)
            }
        case .gyroscope:
            if abs(v[0]) >= gyroLimit || abs(v[1]) >= gyroLimit || abs(v[2]) >= gyroLimit { gyroClipped += 1 }
        case .magnetometer:
            magnetic.add(v[0], v[1], v[2])
        case .deviceMotion:
            movement.addD(when: when, ux: v[3], uy: v[4], uz: v[5])
        case .location:
            location(when, v)
        }
    }

    /// Rows read per source (`Source.order`), those left out for their When included.
    var rowsRead: [Int] { zip(stats, outsideRows).map { $0.count + $1 } }

    /// The When range the recorder wrote into the next file (`WrittenWhen`), `offset` being
    /// added to its When as it is read.
    mutating func setWritten(_ meta: RecordingMetadata?, offset: Double, name: String) {
        written = .everything
        guard let range = WrittenWhen(meta)?.shifted(by: offset) else { return }
        written = range
        outsideWritten.append((name, 0, range.first, range.last))
    }

    /// Of D rows only the user acceleration (values 3–5) is used; the scanner need not
    /// convert the rest (nor anything but `L` rows when only the fixes are wanted).
    public func valuesRead(_ source: Source) -> UInt32 {
        if fixesOnly && source != .location { return 0 }
        return source == .location ? .max : 0b111 << Self.firstIMUValueRead(source)
    }

    /// Of an IMU row the analysis reads three values from this one on: a D row's user
    /// acceleration (3–5), the x, y and z of the others. Static, so that `row` asks it
    /// without calling a method of `self` (which copied the whole analyzer, most of a
    /// kilobyte, for every row).
    @inline(__always)
    static func firstIMUValueRead(_ source: Source) -> Int { source == .deviceMotion ? 3 : 0 }

    private mutating func location(_ when: Double, _ v: UnsafeBufferPointer<Double>) {
        if let bin = windows.settle(at: when) { movement.addABin(time: bin.time, x: bin.x, y: bin.y, z: bin.z, repeats: bin.repeats) }
        if let longerThan = nextRecording {
            recordingBreaks.append(RecordingBreak(time: when, longerThan: longerThan))
            nextRecording = nil
        }
        let lat = v[0], lon = v[1]
        guard lat.isFinite, lon.isFinite, abs(lat) <= 90, abs(lon) <= 180, !(lat == 0 && lon == 0) else {
            noPosition += 1; return
        }
        let mode = v[8] == 3 ? 3 : 2
        if mode == 3 { threeD += 1 }
        ephs.add(v[6])
        if v[6].isFinite && v[6] > options.maxEphM { filter.reject(); return }
        // A Doppler speed no vehicle reaches (a receiver glitch, a damaged row) is not used:
        // the speed then comes from the positions, as where gpsd has none.
        var speed = v[3]
        if speed.isFinite && abs(speed) > options.maxSpeedMps { impossibleSpeeds += 1; speed = .nan }
        var fix = Fix(time: when, lat: lat, lon: lon, alt: v[2], speed: speed, eph: v[6], mode: mode)
        // After missing parts the way is unknown, as after a jump: no distance, stop or move
        // across them, a gap in the timeline.
        if holeBefore { fix.jumped = true; holeBefore = false }
        filter.add(fix)
        takeFixes()
    }

    /// Hands the fixes the filter made final to the track.
    private mutating func takeFixes() {
        guard !filter.ready.isEmpty else { return }
        for f in filter.ready {
            track.add(f, imu: windows.index, imuPending: windows.pendingStart, breaks: recordingBreaks)
        }
        filter.ready.removeAll(keepingCapacity: true)
        // The pieces still to analyse look at the windows from their first fix on.
        windows.wholeFrom = track.heldFrom.map { $0 - TrackTimeline.marginSeconds } ?? .infinity
    }

    /// Analyses `csvPaths` (in time order) in one pass.
    /// `heldFixLimit`: the most GPS fixes to hold at once (the web page inside the daemon,
    /// `AnalysisMemory.heldFixLimit`); a longer stretch without a stop throws
    /// `AnalysisMemory.TooLong`.
    /// `progress`: told each file's path, the bytes of the files before it and the bytes of
    /// it read so far (on the caller's thread: a progress meter).
    public static func summarize(_ csvPaths: [String], options: AnalysisOptions = AnalysisOptions(),
                                 heldFixLimit: Int? = nil, progress: FilesProgress? = nil) throws -> AnalysisSummary {
        try summarizing(csvPaths, options: options, heldFixLimit: heldFixLimit, progress: progress).summary
    }

    /// `summarize`, with which files gave rows (`AnalysisResult.filesWithRows`); no fixes kept.
    public static func summarizing(_ csvPaths: [String], options: AnalysisOptions = AnalysisOptions(),
                                   heldFixLimit: Int? = nil, progress: FilesProgress? = nil) throws -> AnalysisResult {
        try analyze(csvPaths, options: options, keepFixes: false, heldFixLimit: heldFixLimit, eachFix: nil, progress: progress)
    }

    /// Told the path of the file being read, the bytes of the files read before it and the
    /// bytes of it read so far.
    public typealias FilesProgress = (_ path: String, _ bytesBefore: Int64, _ bytes: Int64) -> Void

    /// The sentence for a file read although it breaks the format (CRLF line ends, no header
    /// line, a header spelled otherwise, a header line inside it), from the scan counts
    /// before and after it; nil for a file in the format. `check` says the same, with the
    /// lines.
    static func offFormat(_ name: String, before: ScanCounts, after: ScanCounts) -> String? {
        var what: [String] = []
        let crlf = after.crlfLines - before.crlfLines
        if crlf > 0 { what.append("\(crlf) line\(crlf == 1 ? "" : "s") end\(crlf == 1 ? "s" : "") in CR LF") }
        if after.headers == before.headers && after.rows > before.rows { what.append("it has no header line") }
        if after.otherHeaders > before.otherHeaders { what.append("its header is spelled otherwise than the format's") }
        let moreHeaders = after.headers - before.headers - 1
        if moreHeaders > 0 { what.append("\(moreHeaders) more header line\(moreHeaders == 1 ? "" : "s") inside it (files joined together?)") }
        guard !what.isEmpty else { return nil }
        return "\(name) breaks the format but was read: " + what.joined(separator: ", ")
            + " (edited or converted after recording?); `motionlog check` says where."
    }

    /// The summary and the filtered GPS track it was computed from (for exports that draw
    /// it; `keepFixes` false: no fixes, and only a piece of the track held at a time).
    public static func analyze(_ csvPaths: [String], options: AnalysisOptions = AnalysisOptions(),
                               keepFixes: Bool = true, heldFixLimit: Int? = nil) throws -> AnalysisResult {
        try analyze(csvPaths, options: options, keepFixes: keepFixes, heldFixLimit: heldFixLimit, eachFix: nil, progress: nil)
    }

    /// Reads the recordings again for their filtered fixes alone, handing each to `body` in
    /// time order (the same fixes `analyze` uses; `export --format timeline` writes the
    /// moves' track points from them without holding them all).
    public static func forEachFix(_ csvPaths: [String], options: AnalysisOptions = AnalysisOptions(),
                                  progress: FilesProgress? = nil, _ body: @escaping (Fix) -> Void) throws {
        _ = try analyze(csvPaths, options: options, keepFixes: false, heldFixLimit: nil, eachFix: body, progress: progress)
    }

    private static func analyze(_ csvPaths: [String], options: AnalysisOptions, keepFixes: Bool, heldFixLimit: Int?,
                                eachFix: ((Fix) -> Void)?, progress: FilesProgress?) throws -> AnalysisResult {
        let stamps = try RecordingInputs.stamps(csvPaths)
        var analyzer = RecordingAnalyzer(options: options, keepFixes: keepFixes, heldFixLimit: heldFixLimit)
        analyzer.track.eachFix = eachFix
        analyzer.fixesOnly = eachFix != nil
        var summary = AnalysisSummary(analysisVersion: version, files: stamps)
        var counts = ScanCounts()
        var metadata: [(String, RecordingMetadata)] = []
        var fileFindings: [String] = []
        var filesWithRows: [String] = []
        let loaded = csvPaths.map { RecordingFiles.loadMetadata(besides: $0) }
        let metas = loaded.map { loaded -> RecordingMetadata? in if case .read(let m)? = loaded { m } else { nil } }
        let steps = ClockStep.assign(metas)
        analyzer.placedSteps = steps.steps.map { ($0, 0) }
        for (k, (path, meta)) in zip(csvPaths, metas).enumerated() {
            analyzer.currentStep = steps.perFile[k]
            // Another recording (not the next part of a rotated one): the time before it is
            // not a gap of the sources. Without metadata to say so, a pause longer than the
            // timeline's gap limit is taken for one.
            if k > 0, metas[k - 1]?.recording.id != meta?.recording.id || meta == nil {
                let longerThan = meta != nil && metas[k - 1] != nil ? 0 : options.gapSeconds
                for i in analyzer.stats.indices { analyzer.stats[i].startRecording(longerThan: longerThan) }
                analyzer.movement.startRecording()
                analyzer.windows.startRecording()
                analyzer.nextRecording = longerThan
                analyzer.severalRecordings = true
            } else if k > 0, let meta, let before = metas[k - 1], meta.file.index > before.file.index + 1 {
                // Parts of this recording between the two files are missing (deleted, not
                // copied): nothing is known of that time. Across it no stop, no move: a gap
                // (a car's part deleted was a five-minute "stop" where it drove 7.7 km).
                analyzer.holeBefore = true
                // Just after the last row read: the accelerometer's timeline does not span it.
                if let last = analyzer.stats.compactMap(\.last).max() {
                    // The first row after the hole, as the new file's metadata gives it (When
                    // as written: epoch, no clock step; otherwise not known here).
                    let first = meta.recording.whenMode == .epoch && analyzer.currentStep == nil ? meta.file.firstWhen : nil
                    analyzer.recordingBreaks.append(RecordingBreak(time: last + 1e-6, longerThan: 0, hole: true, end: first))
                }
                // Its time is no interval of the sensors (they were not "missing for 5 min"):
                // the finding below says what is missing.
                for i in analyzer.stats.indices { analyzer.stats[i].startRecording(longerThan: 0) }
                let missing = meta.file.index - before.file.index - 1
                let which = missing == 1 ? "part \(before.file.index + 1) is" : "parts \(before.file.index + 1)–\(meta.file.index - 1) are"
                fileFindings.append("The recording's \(which) missing between \(before.file.name) and \(meta.file.name) (deleted or not copied?): nothing is known of that time.")
            }
            if let meta {
                metadata.append((path, meta))
                if let g = meta.recording.sensor.accelRangeG, g > 0 { analyzer.accelLimit = g * 0.999 }
                if let d = meta.recording.sensor.gyroRangeDegPerSec, d > 0 { analyzer.gyroLimit = d * Double.pi / 180 * 0.999 }
            }
            let offset = meta?.recording.whenMode == .relative ? meta?.recording.startEpoch ?? 0 : 0
            analyzer.relativeTicks = offset != 0 ? meta.map { (offset, $0.recording.rateHz) } : nil
            analyzer.setWritten(meta, offset: offset, name: String(path.split(separator: "/").last ?? Substring(path)))
            let bytesBefore = counts.bytes, rowsBefore = analyzer.rowsRead, before = counts
            let inRangeBefore = analyzer.stats.reduce(0) { $0 + $1.count }
            try RowScanner.scan(path: path, whenOffset: offset, into: &analyzer, counts: &counts,
                                progress: progress.map { told in { told(path, bytesBefore, $0) } })
            if analyzer.stats.reduce(0, { $0 + $1.count }) > inRangeBefore { filesWithRows.append(path) }
            let name = String(path.split(separator: "/").last ?? Substring(path))
            // Shorter than when it was closed (an interrupted copy): the bytes the scan read
            // are the file's size, the rows it counted per source are the file's rows.
            if let meta {
                var rows: [Source: Int] = [:]
                let rowsAfter = analyzer.rowsRead
                for src in Source.canonicalOrder { rows[src] = rowsAfter[src.order] - rowsBefore[src.order] }
                // With --day only the day's rows are counted: the bytes alone say it (a night
                // across midnight was "rows were damaged after recording").
                let whole = options.from == nil && options.to == nil
                // The file's last When as written: rows placed by a clock step or made
                // absolute from relative When are not as written, so not compared.
                let last = whole && analyzer.currentStep == nil && offset == 0 ? analyzer.stats.compactMap(\.last).max() : nil
                if let cut = CutShortFile(metadata: meta, fileBytes: counts.bytes - bytesBefore, fileRows: whole ? rows : nil,
                                          fileLastWhen: last) {
                    fileFindings.append(cut.sentence(subject: name) + ".")
                }
            }
            if let sentence = Self.offFormat(name, before: before, after: counts) { fileFindings.append(sentence) }
            if let damage = meta?.recording.deviceMotion?[RecordingDescription.inputDamagedKey] {
                fileFindings.append("\(name) was fused from a recording that had lost rows: \(damage). It holds only the rows that were left.")
            }
        }
        if let heldFixLimit, analyzer.track.exceeded { throw AnalysisMemory.TooLong(heldFixLimit: heldFixLimit) }
        analyzer.finish(into: &summary, counts: counts, metadata: metadata, fileFindings: fileFindings)
        // A metadata file that is there but cannot be read (cut short, a counter out of
        // range, its permissions): without a finding the report silently lost the rate,
        // counters and ending.
        let damaged = zip(csvPaths, loaded).compactMap { path, loaded -> (name: String, why: String)? in
            guard case .unreadable(let why)? = loaded else { return nil }
            return (String(RecordingFiles.metadataPath(for: path).split(separator: "/").last ?? ""), why)
        }
        if let first = damaged.first {
            let which = damaged.count == 1 ? "\(first.name) could not be read: \(first.why)"
                : "\(damaged.count) metadata files could not be read (\(first.name): \(first.why))"
            let finding = "\(which). The configured rate, the counters and how \(damaged.count == 1 ? "the file" : "the files") ended are unknown."
            summary.health.findings.append(finding)
            summary.messages.append(finding)
        }
        // Rows before 2001 in a file without its metadata: relative When (seconds since the
        // start) whose start time is in the missing .json; the report showed 1970 and said
        // "nothing needs your attention".
        let bare = zip(csvPaths, metas).filter { $0.1 == nil }.map { String($0.0.split(separator: "/").last ?? "") }
        if let start = summary.start, start < relativeLooking, !bare.isEmpty {
            let names = bare.count <= 3 ? bare.joined(separator: ", ") : "\(bare.count) files"
            let finding = "When starts at \(Text.number(start, 1)) s, which looks like seconds since the start of the recording (relative When), but the metadata with the start time is missing (\(names)): times are shown from 1 January 1970. Keep each .json beside its .csv."
            summary.health.findings.append(finding)
            summary.messages.append(finding)
        }
        return AnalysisResult(summary: summary, fixes: analyzer.track.all, trackPieces: analyzer.track.pieces,
                              filesWithRows: filesWithRows)
    }

    /// Seconds per activity over the moves, and `stop`, to the second: added up exactly and
    /// rounded once (rounded per entry, ten moves of 10.4 s made 100 s).
    static func activitySeconds(_ timeline: [TimelineEntry]) -> [String: Double] {
        var seconds: [String: Double] = [:]
        for e in timeline where e.type != .gap {
            seconds[e.type == .stop ? "stop" : (e.activity ?? .unknown).rawValue, default: 0] += e.duration
        }
        return seconds.mapValues { $0.rounded() }
    }

    mutating func finish(into s: inout AnalysisSummary, counts: ScanCounts, metadata: [(String, RecordingMetadata)],
                         fileFindings: [String] = []) {
        if let bin = windows.finish() { movement.addABin(time: bin.time, x: bin.x, y: bin.y, z: bin.z, repeats: bin.repeats) }
        filter.finish()
        takeFixes()
        // Span and rows.
        let spans = stats.compactMap(\.span)
        s.start = spans.map(\.start).min(); s.end = spans.map(\.end).max()
        if let a = s.start, let b = s.end { s.durationS = Text.round(b - a, 3) }   // to the ms: 2591.98, not 2591.9800000190735
        for src in Source.canonicalOrder where stats[src.order].count > 0 { s.rows[String(src.letter)] = stats[src.order].count }
        // Track and timeline.
        s.timeline = track.finish(imu: windows.index, rows: s.recordedSpan ?? 0...0, breaks: recordingBreaks)
        s.distanceM = Text.round(track.distance, 1)
        s.movingS = track.moving.rounded()
        s.maxSpeedMps = track.maxSpeed.map { Text.round($0, 2) }
        s.averageSpeedMps = track.moving > 0 ? Text.round(track.distance / track.moving, 2) : nil
        s.elevationGainM = track.gain.rounded(); s.elevationLossM = track.loss.rounded()
        s.bbox = track.bbox
        s.fixesUsed = track.count; s.fixesRejected = filter.rejected + filter.outOfOrder + filter.aheadOfTime
        s.activitySeconds = Self.activitySeconds(s.timeline)
        s.movement = movement.result()
        s.health = HealthReport.make(self, counts: counts, metadata: metadata, fixes: track.count, fileFindings: fileFindings)
        s.messages = s.health.findings
    }
}
