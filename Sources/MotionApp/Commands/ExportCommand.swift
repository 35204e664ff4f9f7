import ArgumentParser
import Foundation
import MotionAnalysis
import MotionCore
import MotionSystem

/// `motionlog export FILE... --format gpx|geojson [-o OUT]`: the `L` rows as a track.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export recordings: the GPS track (GPX, GeoJSON), the timeline (Moves-style JSON, GeoJSON) or a wide CSV.",
        discussion: """
            GPX: one track; a new segment starts after a gap (no fix for more than 30 s, or three \
            of the track's usual intervals between fixes where that is longer); \
            times in UTC. GeoJSON: one Feature, a LineString ([lon, lat] or [lon, lat, alt]), or \
            a MultiLineString where a gap splits the track (single-fix pieces as a MultiPoint \
            beside it in a GeometryCollection; one fix alone is a Point), with per-point times \
            (coordTimes in UTC, times in epoch seconds). Files are read in \
            the order given and their points sorted by time. Files recorded with relative When \
            are converted with the start time in the metadata (.json) beside them. Lines that \
            cannot be used (defective, out of range) are skipped and counted on stderr.
            The output is never one of the inputs, nor any recording or its metadata; an \
            existing output needs --force; it is written to a temporary file in the same \
            folder and renamed when complete.
            timeline: the stops and moves of `motionlog summary` as Moves-style daily JSON; \
            timeline-geojson: stops as Points, moves as LineStrings with their activity; \
            wide-csv: one row per tick with named columns (docs/ANALYSIS.md); relative When \
            is made absolute with the metadata's start time, as above. Without that metadata \
            a relative When is refused (exit 2), except by wide-csv, which keeps it as written \
            and says so on stderr.
            Exit status: 0 exported, 1 no L rows to export, 2 usage or I/O error (also folders without recordings, as for check).
            """)

    /// What the output may never be, even with --force: the files given, the recordings in
    /// the folders given, and their metadata (`export DIR -o DIR/REC.csv --force` wrote over
    /// the recording REC).
    var protectedInputs: [String] {
        let csvs = (try? RecordingInputs.resolveSome(files)) ?? []
        return files + csvs + csvs.map { RecordingFiles.metadataPath(for: $0) }
    }

    /// A file whose When looks relative, without the metadata that holds its start time.
    static func relativeWithoutMetadata(_ path: String, firstWhen: Double) -> String {
        "\(path): When looks relative (\(firstWhen)) and there is no readable metadata (\(RecordingFiles.metadataPath(for: path))) with the start time: keep the .json beside the .csv"
    }

    /// The export formats: one writer each (add a case and its writer to add a format).
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case gpx, geojson
        // Formats of the analysis (ExportCommand+Analysis.swift).
        case timeline, timelineGeoJSON = "timeline-geojson", wideCSV = "wide-csv"

        /// Writes the document for `track` to `sink`, in pieces.
        func write(_ track: any TrackPointSource, name: String, creator: String,
                   to sink: ([UInt8]) throws(CommandFailure) -> Void) throws(CommandFailure) {
            switch self {
            case .gpx:
                do {
                    try GPXWriter.write(track, name: name, creator: creator) { try sink(Array($0.utf8)) }
                } catch let failure as CommandFailure { throw failure } catch {
                    throw CommandFailure("\(error)", code: 2)
                }
            case .timeline, .timelineGeoJSON, .wideCSV:
                // Written by runAnalysisFormat(protected:) before any track is read.
                throw CommandFailure("internal error: \(rawValue) is not a track format", code: 2)
            case .geojson:
                do {
                    guard try GeoJSONWriter.write(track, name: name, creator: creator, to: { try sink($0) }) else {
                        throw CommandFailure("no L rows to export", code: 1)
                    }
                } catch let failure as CommandFailure { throw failure } catch let error as EncodingError {
                    throw CommandFailure("cannot encode GeoJSON: \(error)", code: 2)
                } catch {
                    throw CommandFailure("\(error)", code: 2)
                }
            }
        }
    }

    @Argument(help: "Recording files (.csv) or folders of them.")
    var files: [String]

    @Option(name: .long, help: "Output format.")
    var format: Format = .gpx

    @Option(name: [.short, .customLong("output")], help: "Write to this file instead of standard output.")
    var output: String?

    @Option(name: .long, help: "Track name for gpx and geojson (default: the first file's name); the other formats have none.")
    var name: String?

    @Flag(name: .long, help: "Replace the output file if it exists (never an input).")
    var force = false

    func validate() throws {
        if files.isEmpty { throw ValidationError("give at least one recording file to export") }
    }

    func run() throws {
        // Refuse before reading anything: the output may not be an input or (without
        // --force) an existing file. Resolved once: a folder's recordings are found by
        // reading their metadata.
        let protected = output == nil ? [] : protectedInputs
        if let output {
            do { try SafeOutputFile.check(output, inputs: protected, overwrite: force) } catch { throw CommandFailure.usage("\(error)") }
            if let what = RecordingFiles.recordingPart(output) {
                throw CommandFailure.usage("\(output) is \(what), not an earlier export: not written over, even with --force — choose another output name (-o)")
            }
        } else if let stdout = SafeOutputFile.identity(ofDescriptor: 1),
                  let input = files.first(where: { SafeOutputFile.identity(of: $0) == stdout }) {
            throw CommandFailure.usage("standard output is \(input), an input of this command: refusing to write over it — redirect to another file or use -o")
        }
        // The analysis formats carry no track name: said, not silently dropped.
        if name != nil, ![Format.gpx, .geojson].contains(format) {
            throw CommandFailure.usage("--name: \(format.rawValue) has no track name (it is for gpx and geojson); leave --name out")
        }
        if try runAnalysisFormat(protected: protected) { return }
        // A folder stands for its recordings in time order, as for the other formats (gpx
        // and geojson said "Is a directory").
        let files = RecordingInputs.readingOnceSaying(try RecordingInputs.expandingFolders(self.files) { throw CommandFailure("\($0)", code: 2) })
        let progress = ProgressMeter(verb: "reading", paths: files)
        // The first reading: the points are held up to TrackScan.defaultHoldLimit, and read
        // again while writing beyond that (memory does not grow with the track).
        var scan = TrackScan()
        var bytesBefore: Int64 = 0
        var seen: [SafeOutputFile.Identity] = []
        // Files that are not recordings at all (binary data before any row): their error
        // line is the reason they gave nothing, not a missing GPS.
        var notRecordings: [String] = []
        for path in files {
            // A file given twice (another spelling, a link) is read once: its points twice
            // drew the track twice.
            if let id = SafeOutputFile.identity(of: path) {
                if seen.contains(id) { Console.error("\(path): given more than once, read once"); continue }
                seen.append(id)
            }
            progress.begin(path, bytesBefore: bytesBefore)
            let read = try Self.points(of: path, into: &scan, progress: progress)
            progress.finish()
            read.report(path: path)
            if read.binary != nil && read.rows == 0 { notRecordings.append(path) }
            bytesBefore += read.bytes
        }
        guard scan.count > 0 else {
            let others = files.filter { !notRecordings.contains($0) }
            // Only not-recordings: their own error lines above are the whole story.
            if others.isEmpty { throw CommandFailure("", code: 1) }
            // An empty file holds no GPS or anything else: asking whether GPS was recorded misleads.
            if bytesBefore == 0 {
                throw CommandFailure("\(others.joined(separator: ", ")) \(others.count == 1 ? "is" : "are") empty (0 bytes): nothing to export", code: 1)
            }
            throw CommandFailure("no L rows to use in \(others.joined(separator: ", ")): nothing to export (was GPS recorded? see `motionlog check`)", code: 1)
        }
        let track: any TrackPointSource
        do { track = try scan.track() } catch { throw CommandFailure("\(error)", code: 2) }
        let trackName = name ?? URL(fileURLWithPath: files[0]).deletingPathExtension().lastPathComponent
        let creator = "motionlog \(MotionLogCommand.version)"
        guard let output else {
            try format.write(track, name: trackName, creator: creator) { bytes throws(CommandFailure) in
                FileHandle.standardOutput.write(Data(bytes))
            }
            return
        }
        let file: SafeOutputFile
        do { file = try SafeOutputFile(path: output, inputs: protected, overwrite: force) } catch {
            throw CommandFailure("\(error)", code: 2)
        }
        try format.write(track, name: trackName, creator: creator) { bytes throws(CommandFailure) in
            do { try file.write(bytes) } catch { throw CommandFailure("\(error)", code: 2) }
        }
        do { try file.commit() } catch { throw CommandFailure("\(error)", code: 2) }
    }

    /// What reading one file gave (its track points went to the scan) and what was skipped.
    struct FilePoints {
        var bytes: Int64 = 0
        /// Rows read, of every source.
        var rows = 0
        /// Lines that gave no row (defective or out of range), with the first reason.
        var skippedLines = 0
        var firstSkipped: RecordingProblem?
        /// L rows whose time (after conversion to epoch seconds) is outside 1970...9999.
        var skippedTimes = 0
        /// A note about the file that does not skip anything (CRLF line ends).
        var notes: [RecordingProblem] = []
        /// Set when reading stopped at binary data (the rest of the file was not read).
        var binary: RecordingProblem?

        /// Tells the user on stderr what was skipped, and where to look.
        func report(path: String) {
            if let b = binary { Console.error("\(path):\(b.line): \(b.message)") }
            for n in notes { Console.error("\(path):\(n.line): note: \(n.message)") }
            if skippedLines > 0 {
                var text = "\(path): \(skippedLines) line\(skippedLines == 1 ? "" : "s") skipped"
                if let p = firstSkipped { text += " (first: line \(p.line): \(p.message))" }
                Console.error(text + "; see `motionlog check \(path)`")
            }
            if skippedTimes > 0 {
                Console.error("\(path): \(skippedTimes) L row\(skippedTimes == 1 ? "" : "s") skipped: the time is not within 1970...9999 after adding the metadata's start time")
            }
        }
    }

    /// Adds the track points of one file to `scan`, with relative When converted through
    /// its metadata.
    static func points(of path: String, into scan: inout TrackScan,
                       progress: ProgressMeter? = nil) throws(CommandFailure) -> FilePoints {
        var result = FilePoints()
        let meta = RecordingFiles.readMetadata(besides: path)
        let offset = meta.map { $0.recording.whenMode == .relative ? $0.recording.startEpoch : 0 } ?? 0
        scan.begin(TrackInput(path: path, epochOffset: offset))
        var points = 0
        var relativeWithoutMetadata: Double?
        var lastError: RecordingProblem?
        let summary: RecordingReadSummary
        do {
            summary = try RecordingReader(path: path).read(progress: { progress?.update($0) }) { item in
                switch item {
                case .row(_, let row) where row.source == .location:
                    result.rows += 1
                    if meta == nil && relativeWithoutMetadata == nil && points == 0 && row.when < 1e9 {
                        relativeWithoutMetadata = row.when
                    }
                    if let point = TrackPoint(row: row, epochOffset: offset) {
                        scan.add(point)
                        points += 1
                    } else {
                        result.skippedTimes += 1
                    }
                case .row: result.rows += 1
                case .problem(let p) where p.severity == .error:
                    lastError = p
                    if p.message.hasPrefix("CRLF") { result.notes.append(p) } else if result.firstSkipped == nil { result.firstSkipped = p }
                case .problem: break
                }
            }
        } catch {
            throw CommandFailure("\(error)", code: 2)
        }
        if let when = relativeWithoutMetadata {
            throw CommandFailure(Self.relativeWithoutMetadata(path, firstWhen: when), code: 2)
        }
        result.bytes = summary.bytes
        result.skippedLines = summary.skippedLines
        if summary.stoppedAtBinary { result.binary = lastError }
        return result
    }
}
