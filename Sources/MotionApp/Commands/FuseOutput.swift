import Foundation
import MotionCore
import MotionFusion

/// What `fuse` did to one file.
struct FuseResult {
    var rewriter: DeviceMotionRewriter
    var problems: [RecordingProblem]
    var rowsWritten: Int
    var rowsBySource: [String: Int]
    var bytesWritten: Int64
    var firstWhen: Double?
    var lastWhen: Double?
    var labels: [UInt8]
    /// Problems found beyond the first ten kept in `problems`.
    var moreProblems = 0
    /// Input lines that gave no row (defective).
    var skippedLines = 0
    /// Rows left out because their When did not increase for their source.
    var outOfOrderRows = 0
    var firstOutOfOrder: RecordingProblem?
}

/// Reading and writing the files of `motionlog fuse`: the CSV streamed through a
/// `DeviceMotionRewriter`, and the metadata JSON beside it.
enum RecordingFiles {
    /// `X.csv` → `X.json`.
    static func metadataPath(for csv: String) -> String {
        (csv.hasSuffix(".csv") ? String(csv.dropLast(4)) : csv) + ".json"
    }

    /// The metadata beside `csv`, or nil when it is missing or unreadable.
    static func readMetadata(besides csv: String) -> RecordingMetadata? {
        guard let data = FileManager.default.contents(atPath: metadataPath(for: csv)) else { return nil }
        return try? RecordingMetadata.decode(Array(data))
    }

    /// Streams `input` through a rewriter into `output` (a temporary file until the caller
    /// commits it). Rows whose When does not increase for their source are left out (a
    /// fused file must pass `check`) and counted in `outOfOrderRows`.
    static func rewrite(input: String, output: SafeOutputFile, estimator: DeviceMotionEstimator,
                        firstPeriod: Double, progress: ProgressMeter? = nil) throws(CommandFailure) -> FuseResult {
        var rewriter = DeviceMotionRewriter(estimator: estimator, firstPeriod: firstPeriod)
        var result = FuseResult(rewriter: rewriter, problems: [], rowsWritten: 0, rowsBySource: [:], bytesWritten: 0,
                                labels: [])
        var buffer = CSVFormat.headerBytes
        buffer.reserveCapacity(1 << 20)
        var writeError: SafeOutputError?
        func drain(force: Bool) {
            guard writeError == nil, force || buffer.count >= 1 << 20 else { return }
            do { try output.write(buffer) } catch { writeError = error }
            result.bytesWritten += Int64(buffer.count)
            buffer.removeAll(keepingCapacity: true)
        }
        func emit(_ row: Row) {
            RowEncoder.append(row, to: &buffer)
            result.rowsWritten += 1
            result.rowsBySource[String(row.source.letter), default: 0] += 1
            if result.firstWhen == nil { result.firstWhen = row.when }
            result.lastWhen = row.when
            if result.labels.last != row.label, !result.labels.contains(row.label) { result.labels.append(row.label) }
            drain(force: false)
        }
        var lastWhen: [Source: Double] = [:]
        do {
            let summary = try RecordingReader(path: input).read(progress: { progress?.update($0) }) { item in
                switch item {
                case .row(let line, let row):
                    if let last = lastWhen[row.source], !(row.when > last) {
                        result.outOfOrderRows += 1
                        if result.firstOutOfOrder == nil {
                            result.firstOutOfOrder = RecordingProblem(
                                line: line, severity: .warning,
                                message: "\(row.source) When \(row.when) is not after the previous \(row.source) row's \(last)")
                        }
                        return
                    }
                    lastWhen[row.source] = row.when
                    rewriter.push(row, emit)
                case .problem(let p):
                    // The first ten are shown; the rest only counted (memory stays bounded).
                    if result.problems.count < 10 { result.problems.append(p) } else { result.moreProblems += 1 }
                }
            }
            result.skippedLines = summary.skippedLines
        } catch {
            throw CommandFailure("\(error)", code: 2)
        }
        rewriter.finish(emit)
        result.rewriter = rewriter
        drain(force: true)
        if let writeError { throw CommandFailure("\(writeError)", code: 2) }
        return result
    }

    /// The output's metadata: the input's (when there is one) with the file section, the
    /// sources and the device-motion description replaced; otherwise a minimal one.
    static func fusedMetadata(from inputMetadata: RecordingMetadata?, input: String, output: String,
                              result: FuseResult, info: [String: String],
                              calibration: FusionCalibration) -> RecordingMetadata {
        let now = Date().timeIntervalSince1970
        let note = "D rows recomputed by motionlog fuse \(MotionLogCommand.version) on \(TimeText.isoUTC(epochSeconds: now)) "
            + "from the A, G and M rows of \((input as NSString).lastPathComponent); calibration: \(calibration.summary)"
            + (result.skippedLines > 0 ? "; \(result.skippedLines) defective input lines skipped" : "")
            + (result.outOfOrderRows > 0 ? "; \(result.outOfOrderRows) input rows left out because their When did not increase" : "")
        var file = RecordingMetadata.FileSection(name: (output as NSString).lastPathComponent,
                                                 index: inputMetadata?.file.index ?? 1,
                                                 previous: inputMetadata?.file.previous)
        file.firstWhen = result.firstWhen
        file.lastWhen = result.lastWhen
        file.rows = result.rowsBySource
        file.bytes = result.bytesWritten
        if let start = inputMetadata?.file.startLocal { file.startLocal = start }
        let letters = Set(result.rowsBySource.keys.compactMap { $0.first.flatMap(Source.init(letter:)) }).letters
        if var m = inputMetadata {
            m.file = file
            m.recording.deviceMotion = info
            m.recording.calibration = calibration.isIdentity ? nil : calibration.record
            m.recording.sources = letters
            m.recording.notes.append(note)
            return m
        }
        let first = result.firstWhen ?? 0
        let epoch = first > 1e8
        let label = result.labels.first.map { String(UnicodeScalar($0)) } ?? "W"
        let recording = RecordingDescription(
            id: "fused-" + ((input as NSString).lastPathComponent as NSString).deletingPathExtension,
            board: "unknown", boardDescription: nil, sensor: SensorInfo(model: "unknown"), gps: nil,
            deviceMotion: info, rateHz: estimatedRate(result), sources: letters, label: label,
            whenMode: epoch ? .epoch : .relative, startEpoch: epoch ? first : 0,
            started: epoch ? TimeText.isoUTC(epochSeconds: first) : "unknown", clock: "unknown",
            rotateBytes: nil, rotateSeconds: nil, fsyncIntervalSeconds: 0, bufferRows: 0,
            notes: ["the input had no readable metadata: recording details are unknown", note],
            calibration: calibration.isIdentity ? nil : calibration.record)
        return RecordingMetadata(software: .init(version: MotionLogCommand.version), recording: recording, file: file,
                                 counters: CounterSnapshot(), endedCleanly: true, endReason: "fused",
                                 ended: TimeText.isoUTC(epochSeconds: now))
    }

    /// The D-row rate over the file, rounded to whole Hz (0 when unknown).
    static func estimatedRate(_ r: FuseResult) -> Int {
        guard let a = r.firstWhen, let b = r.lastWhen, b > a, r.rewriter.deviceMotionRows > 1 else { return 0 }
        return Int((Double(r.rewriter.deviceMotionRows - 1) / (b - a)).rounded())
    }

    static func writeMetadata(_ m: RecordingMetadata, to file: SafeOutputFile) throws(CommandFailure) {
        do { try file.write(m.encoded()) } catch { throw CommandFailure("\(error)", code: 2) }
    }
}
