import ArgumentParser
import Foundation
import MotionCore

/// `motionlog export FILE... --format gpx|geojson [-o OUT]`: the `L` rows as a track.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export recordings: the GPS track (GPX, GeoJSON), the timeline (Moves-style JSON, GeoJSON) or a wide CSV.",
        discussion: """
            GPX: one track; a new segment starts after a gap of more than 10 s without a fix; \
            times in UTC. GeoJSON: one Feature with a LineString ([lon, lat] or [lon, lat, alt]) \
            and per-point times (coordTimes in UTC, times in epoch seconds). Files are read in \
            the order given and their points sorted by time. Files recorded with relative When \
            are converted with the start time in the metadata (.json) beside them. \
            timeline: the stops and moves of `motionlog summary` as Moves-style daily JSON; \
            timeline-geojson: stops as Points, moves as LineStrings with their activity; \
            wide-csv: one row per tick with named columns (docs/ANALYSIS.md).
            Exit status: 0 exported, 1 no L rows to export, 2 usage or I/O error.
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case gpx, geojson
        // Formats of the analysis (ExportCommand+Analysis.swift).
        case timeline, timelineGeoJSON = "timeline-geojson", wideCSV = "wide-csv"
    }

    @Argument(help: "Recording files (.csv).")
    var files: [String]

    @Option(name: .long, help: "gpx, geojson, timeline, timeline-geojson or wide-csv (default gpx).")
    var format: Format = .gpx

    @Option(name: [.short, .customLong("output")], help: "Write to this file instead of standard output.")
    var output: String?

    @Option(name: .long, help: "Track name (default: the first file's name).")
    var name: String?

    func validate() throws {
        if files.isEmpty { throw ValidationError("give at least one recording file to export") }
    }

    func run() throws {
        if try runAnalysisFormat() { return }
        var points: [TrackPoint] = []
        for path in files {
            points += try Self.points(of: path)
        }
        guard !points.isEmpty else {
            throw CommandFailure("no L rows in \(files.joined(separator: ", ")): nothing to export (was GPS recorded? see `motionlog check`)", code: 1)
        }
        let track = LocationTrack(points: points)
        let trackName = name ?? URL(fileURLWithPath: files[0]).deletingPathExtension().lastPathComponent
        let creator = "motionlog \(MotionLogCommand.version)"
        let bytes: [UInt8]
        switch format {
        case .gpx, .timeline, .timelineGeoJSON, .wideCSV:   // the last three ran in runAnalysisFormat
            bytes = Array(GPXWriter.document(track, name: trackName, creator: creator).utf8)
        case .geojson:
            do {
                guard let b = try GeoJSONWriter.document(track, name: trackName, creator: creator) else {
                    throw CommandFailure("no L rows to export", code: 1)
                }
                bytes = b
            } catch let failure as CommandFailure { throw failure } catch {
                throw CommandFailure("cannot encode GeoJSON: \(error)", code: 2)
            }
        }
        try write(bytes)
    }

    private func write(_ bytes: [UInt8]) throws {
        guard let output else {
            FileHandle.standardOutput.write(Data(bytes))
            return
        }
        do { try Data(bytes).write(to: URL(fileURLWithPath: output), options: .atomic) } catch {
            throw CommandFailure("cannot write \(output): \(error.localizedDescription) — choose a folder you may write to", code: 2)
        }
    }

    /// The track points of one file, with relative When converted through its metadata.
    static func points(of path: String) throws -> [TrackPoint] {
        let rows: [Row], problems: [RecordingProblem]
        do { (rows, problems) = try RecordingReader(path: path).readAll() } catch {
            throw CommandFailure("\(error)", code: 2)
        }
        let errors = problems.filter { $0.severity == .error }.count
        if errors > 0 {
            Console.error("\(path): \(errors) defective line\(errors == 1 ? "" : "s") skipped (see `motionlog check \(path)`)")
        }
        let locationRows = rows.filter { $0.source == .location }
        guard let first = locationRows.first else { return [] }
        var offset = 0.0
        let metadataPath = (path.hasSuffix(".csv") ? String(path.dropLast(4)) : path) + ".json"
        if let data = FileManager.default.contents(atPath: metadataPath),
           let meta = try? RecordingMetadata.decode(Array(data)) {
            if meta.recording.whenMode == .relative { offset = meta.recording.startEpoch }
        } else if first.when < 1e9 {
            throw CommandFailure("\(path): When looks relative (\(first.when)) and there is no readable metadata (\(metadataPath)) with the start time: keep the .json beside the .csv", code: 2)
        }
        return locationRows.compactMap { TrackPoint(row: $0, epochOffset: offset) }
    }
}
