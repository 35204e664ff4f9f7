import ArgumentParser
import Foundation
import MotionAnalysis
import SystemPackage

/// The export formats that come from the analysis: `timeline`, `timeline-geojson`, `wide-csv`.
extension ExportCommand {
    /// Runs the export when `format` is one of the analysis formats; false otherwise.
    func runAnalysisFormat() throws -> Bool {
        switch format {
        case .gpx, .geojson:
            return false
        case .timeline, .timelineGeoJSON:
            let result: AnalysisResult
            do { result = try RecordingAnalyzer.analyze(try RecordingInputs.resolve(files)) } catch {
                throw CommandFailure("\(error)", code: 2)
            }
            guard !result.summary.timeline.isEmpty else {
                throw CommandFailure("no timeline in \(files.joined(separator: ", ")): no usable GPS fixes or accelerometer rows (see `motionlog summary`)", code: 1)
            }
            let bytes = format == .timeline ? try TimelineExport.storyline(result) : try TimelineExport.geoJSON(result)
            try writeAnalysisOutput { emit in try emit(bytes) }
            return true
        case .wideCSV:
            let inputs: [String]
            do { inputs = try RecordingInputs.resolve(files) } catch { throw CommandFailure("\(error)", code: 2) }
            var rows = 0
            try writeAnalysisOutput { emit in
                try withoutActuallyEscaping(emit) { emit in
                    var export = WideCSVExport(emit: emit)
                    try export.convert(inputs)
                    rows = export.rowsIn
                    if export.skipped > 0 {
                        Console.error("\(export.skipped) defective line\(export.skipped == 1 ? "" : "s") skipped (see `motionlog check`)")
                    }
                }
            }
            if rows == 0 { throw CommandFailure("no data rows in \(files.joined(separator: ", ")): nothing exported", code: 1) }
            return true
        }
    }

    /// Streams the output to standard output, or to `-o FILE` through a temporary file
    /// beside it that is renamed into place when complete. Never replaces an existing file.
    private func writeAnalysisOutput(_ produce: (_ emit: ([UInt8]) throws -> Void) throws -> Void) throws {
        guard let output else {
            try produce { bytes in FileHandle.standardOutput.write(Data(bytes)) }
            return
        }
        if FileManager.default.fileExists(atPath: output) {
            throw CommandFailure("\(output) exists: remove it or choose another name (export never replaces a file)", code: 2)
        }
        let url = URL(fileURLWithPath: output)
        let temp = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).part")
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(FilePath(temp.path), .writeOnly, options: [.create, .exclusiveCreate, .closeOnExec],
                                         permissions: [.ownerReadWrite, .groupRead, .otherRead])
        } catch {
            throw CommandFailure("cannot write \(output): \(error) — choose a folder you may write to", code: 2)
        }
        do {
            try fd.closeAfter { try produce { bytes in _ = try fd.writeAll(bytes) } }
            try FileManager.default.moveItem(at: temp, to: url)
        } catch let failure as CommandFailure {
            try? FileManager.default.removeItem(at: temp)
            throw failure
        } catch {
            try? FileManager.default.removeItem(at: temp)
            throw CommandFailure("cannot write \(output): \(error)", code: 2)
        }
    }
}
