import Foundation
import MotionCore
import MotionFusion

/// What `fuse` did to one file: the rewrite's counts and the rewriter with its own.
struct FuseResult {
    var rewrite: RewriteResult
    var rewriter: DeviceMotionRewriter
}

/// The metadata `motionlog fuse` writes beside its output.
enum FuseOutput {
    /// The end reason of a fused file whose input had no metadata.
    static let endReason = "fused"
    /// The `recording.deviceMotion` key naming the fuse that wrote a file's D rows (what
    /// `fuse --force` may replace).
    static let recomputedBy = "recomputedBy"
    /// Appended to the input's recording id: a fused file is a recording of its own.
    static let fusedSuffix = "-fused"

    /// The output's metadata: the input's (when there is one) with the file section, the
    /// sources and the device-motion description replaced; otherwise a minimal one; nil
    /// without input metadata when When is relative: the start time is unknown, and a made-up
    /// start of 0 had `export` date every point 1970 (the input itself is refused).
    static func fusedMetadata(from inputMetadata: RecordingMetadata?, input: String, output: String,
                              result: FuseResult, info: [String: String],
                              calibration: FusionCalibration) -> RecordingMetadata? {
        let now = Date().timeIntervalSince1970
        let r = result.rewrite
        let note = "D rows recomputed by motionlog fuse \(MotionLogCommand.version) on \(TimeText.isoUTC(epochSeconds: now)) "
            + "from the A, G and M rows of \((input as NSString).lastPathComponent); calibration: \(calibration.summary)"
            + (r.skippedLines > 0 ? "; \(r.skippedLines) defective input lines skipped" : "")
            + (r.outOfOrderRows > 0 ? "; \(r.outOfOrderRows) input rows left out because their When did not increase" : "")
        // Its own recording (`ID-fused`), so that the web page and offload do not take it for
        // a part of the one it copies; the part before it is that part's fused file when both
        // have their default names.
        let outputName = (output as NSString).lastPathComponent
        let defaultNamed = outputName == (FuseCommand.defaultOutput(for: input) as NSString).lastPathComponent
        var file = RecordingMetadata.FileSection(name: outputName,
                                                 index: inputMetadata?.file.index ?? 1,
                                                 previous: inputMetadata?.file.previous.map { defaultNamed ? FuseCommand.defaultOutput(for: $0) : $0 })
        file.firstWhen = r.firstWhen
        file.lastWhen = r.lastWhen
        file.rows = r.rowsBySource
        file.bytes = r.bytesWritten
        if let start = inputMetadata?.file.startLocal { file.startLocal = start }
        let letters = Set(r.rowsBySource.keys.compactMap { $0.first.flatMap(Source.init(letter:)) }).letters
        if var m = inputMetadata {
            m.file = file
            m.recording.id += fusedSuffix   // fused again: another recording again
            m.recording.deviceMotion = info
            m.recording.calibration = calibration.isIdentity ? nil : calibration.record
            m.recording.sources = letters
            m.recording.notes.append(note)
            return m
        }
        let first = r.firstWhen ?? 0
        let epoch = first > 1e8
        guard epoch else { return nil }
        let label = r.labels.first.map { String(UnicodeScalar($0)) } ?? "W"
        let recording = RecordingDescription(
            id: "fused-" + ((input as NSString).lastPathComponent as NSString).deletingPathExtension,
            board: "unknown", boardDescription: nil, sensor: SensorInfo(model: "unknown"), gps: nil,
            deviceMotion: info, rateHz: estimatedRate(result), sources: letters, label: label,
            whenMode: .epoch, startEpoch: first,
            started: TimeText.isoUTC(epochSeconds: first), clock: "unknown",
            rotateBytes: nil, rotateSeconds: nil, fsyncIntervalSeconds: 0, bufferRows: 0,
            notes: ["the input had no readable metadata: recording details are unknown", note],
            calibration: calibration.isIdentity ? nil : calibration.record)
        return RecordingMetadata(software: .init(version: MotionLogCommand.version), recording: recording, file: file,
                                 counters: CounterSnapshot(), endedCleanly: true, endReason: FuseOutput.endReason,
                                 ended: TimeText.isoUTC(epochSeconds: now))
    }

    /// The D-row rate over the file, rounded to whole Hz (0 when unknown).
    static func estimatedRate(_ r: FuseResult) -> Int {
        guard let a = r.rewrite.firstWhen, let b = r.rewrite.lastWhen, b > a, r.rewriter.deviceMotionRows > 1 else { return 0 }
        let rate = (Double(r.rewriter.deviceMotionRows - 1) / (b - a)).rounded()
        return rate.isFinite && rate < 1e9 ? Int(rate) : 0   // Whens a hair apart: no rate, not a trap
    }

    static func writeMetadata(_ m: RecordingMetadata, to file: SafeOutputFile) throws(CommandFailure) {
        do { try file.write(m.encoded()) } catch { throw CommandFailure("\(error)", code: 2) }
    }
}
