import ArgumentParser
import Foundation
import MotionAnalysis
import MotionCore
import SystemPackage

/// The export formats that come from the analysis: `timeline`, `timeline-geojson`, `wide-csv`.
extension ExportCommand {
    /// Runs the export when `format` is one of the analysis formats; false otherwise.
    /// `protected`: what the output may never be (`protectedInputs`).
    func runAnalysisFormat(protected: [String]) throws -> Bool {
        switch format {
        case .gpx, .geojson:
            return false
        case .timeline, .timelineGeoJSON:
            let inputs: [String], summary: AnalysisSummary
            do {
                inputs = RecordingInputs.readingOnceSaying(try RecordingInputs.resolveSome(files))
                let meter = ProgressMeter(verb: "analysing", paths: inputs)
                defer { meter.finish() }
                summary = try RecordingAnalyzer.summarize(inputs, progress: meter.told)
            } catch {
                throw CommandFailure("\(error)", code: 2)
            }
            // Dated 1 January 1970 the days of a Moves-style timeline mean nothing: refused,
            // as the track exports refuse (it was written, exit 0, without a word).
            if let start = summary.start, start < RecordingAnalyzer.relativeLooking,
               let bare = inputs.first(where: { RecordingFiles.readMetadata(besides: $0) == nil }) {
                throw CommandFailure(Self.relativeWithoutMetadata(bare, firstWhen: start), code: 2)
            }
            guard !summary.timeline.isEmpty else {
                throw CommandFailure("no timeline in \(files.joined(separator: ", ")): no usable GPS fixes or accelerometer rows (see `motionlog summary`)", code: 1)
            }
            // The moves' fixes are needed a day or a move at a time: the recording is read a
            // second time for them rather than all its fixes held.
            try writeAnalysisOutput(protected: protected) { emit in
                try withoutActuallyEscaping(emit) { emit in
                    let writer: any FixStreamWriter = format == .timeline
                        ? StorylineWriter(summary, sink: emit) : TimelineGeoJSONWriter(summary, sink: emit)
                    let meter = ProgressMeter(verb: "writing", paths: inputs)
                    defer { meter.finish() }
                    do { try writer.write(fixesOf: inputs, progress: meter.told) } catch let failure as CommandFailure { throw failure } catch {
                        throw CommandFailure("\(error)", code: 2)
                    }
                }
            }
            return true
        case .wideCSV:
            let inputs: [String]
            do { inputs = RecordingInputs.readingOnceSaying(try RecordingInputs.resolveSome(files)) } catch { throw CommandFailure("\(error)", code: 2) }
            try writeAnalysisOutput(protected: protected) { emit in
                try withoutActuallyEscaping(emit) { emit in
                    var export = WideCSVExport(emit: emit)
                    let meter = ProgressMeter(verb: "writing", paths: inputs)
                    defer { meter.finish() }
                    try export.convert(inputs, progress: meter.told)
                    for (path, first) in export.relativeWithoutMetadata {
                        Console.error(Self.relativeWithoutMetadata(path, firstWhen: first) + " (its time column holds the When as written)")
                    }
                    if export.skipped > 0 {
                        Console.error("\(export.skipped) defective line\(export.skipped == 1 ? "" : "s") skipped (see `motionlog check`)")
                    }
                    // Thrown before the output is committed: no header-only file is left,
                    // and with --force an earlier export stays as it was.
                    if export.rowsIn == 0 {
                        throw CommandFailure("no data rows in \(files.joined(separator: ", ")): nothing exported", code: 1)
                    }
                }
            }
            return true
        }
    }

    /// Streams the output to standard output, or to `-o FILE` through `SafeOutputFile`
    /// (never an input, an existing file only with --force, temporary file renamed when complete).
    private func writeAnalysisOutput(protected: [String], _ produce: (_ emit: ([UInt8]) throws -> Void) throws -> Void) throws {
        guard let output else {
            try produce { bytes in FileHandle.standardOutput.write(Data(bytes)) }
            return
        }
        let file: SafeOutputFile
        do { file = try SafeOutputFile(path: output, inputs: protected, overwrite: force) } catch {
            throw CommandFailure("\(error)", code: 2)
        }
        try produce { bytes in
            do { try file.write(bytes) } catch { throw CommandFailure("\(error)", code: 2) }
        }
        do { try file.commit() } catch { throw CommandFailure("\(error)", code: 2) }
    }
}
