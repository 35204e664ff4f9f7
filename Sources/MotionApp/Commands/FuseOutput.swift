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

    /// Streams `input` through a rewriter into `output` (created or truncated).
    static func rewrite(input: String, output: String, estimator: DeviceMotionEstimator,
                        firstPeriod: Double) throws(CommandFailure) -> FuseResult {
        guard FileManager.default.createFile(atPath: output, contents: nil),
              let handle = FileHandle(forWritingAtPath: output) else {
            throw CommandFailure("cannot create \(output): check that its folder exists and you may write there", code: 2)
        }
        var rewriter = DeviceMotionRewriter(estimator: estimator, firstPeriod: firstPeriod)
        var result = FuseResult(rewriter: rewriter, problems: [], rowsWritten: 0, rowsBySource: [:], bytesWritten: 0,
                                labels: [])
        var buffer = CSVFormat.headerBytes
        buffer.reserveCapacity(1 << 20)
        var writeError: Error?
        func drain(force: Bool) {
            guard writeError == nil, force || buffer.count >= 1 << 20 else { return }
            do { try handle.write(contentsOf: buffer) } catch { writeError = error }
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
        do {
            try RecordingReader(path: input).read { item in
                switch item {
                case .row(_, let row): rewriter.push(row, emit)
                case .problem(let p): result.problems.append(p)
                }
            }
        } catch {
            try? handle.close()
            throw CommandFailure("\(error)", code: 2)
        }
        rewriter.finish(emit)
        result.rewriter = rewriter
        drain(force: true)
        do { try handle.synchronize(); try handle.close() } catch { writeError = writeError ?? error }
        if let writeError {
            throw CommandFailure("cannot write \(output): \(writeError) — check free space and permissions", code: 2)
        }
        return result
    }

    /// The output's metadata: the input's (when there is one) with the file section, the
    /// sources and the device-motion description replaced; otherwise a minimal one.
    static func fusedMetadata(from inputMetadata: RecordingMetadata?, input: String, output: String,
                              result: FuseResult, info: [String: String],
                              calibration: FusionCalibration) -> RecordingMetadata {
        let now = Date().timeIntervalSince1970
        let note = "D rows recomputed by motionlog fuse \(MotionLogCommand.version) on \(TimeText.isoLocal(epochSeconds: now)) "
            + "from the A, G and M rows of \((input as NSString).lastPathComponent); calibration: \(calibration.summary)"
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
            started: epoch ? TimeText.isoLocal(epochSeconds: first) : "unknown", clock: "unknown",
            rotateBytes: nil, rotateSeconds: nil, fsyncIntervalSeconds: 0, bufferRows: 0,
            notes: ["the input had no readable metadata: recording details are unknown", note])
        return RecordingMetadata(software: .init(version: MotionLogCommand.version), recording: recording, file: file,
                                 counters: CounterSnapshot(), endedCleanly: true, endReason: "fused",
                                 ended: TimeText.isoLocal(epochSeconds: now))
    }

    /// The D-row rate over the file, rounded to whole Hz (0 when unknown).
    static func estimatedRate(_ r: FuseResult) -> Int {
        guard let a = r.firstWhen, let b = r.lastWhen, b > a, r.rewriter.deviceMotionRows > 1 else { return 0 }
        return Int((Double(r.rewriter.deviceMotionRows - 1) / (b - a)).rounded())
    }

    static func writeMetadata(_ m: RecordingMetadata, path: String) throws(CommandFailure) {
        let bytes = m.encoded()
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw CommandFailure("cannot write \(path): check free space and permissions", code: 2)
        }
    }
}
