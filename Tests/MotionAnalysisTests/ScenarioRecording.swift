import Foundation
import MotionTestSupport
import MotionAnalysis
import MotionCore
import MotionSimulator

/// Writes a simulator scenario as a recording (A, G, M rows at `rate`, L rows at 1 Hz),
/// the way the recorder lays it out, without the recorder's threads: fast and deterministic.
enum ScenarioRecording {
    static let startEpoch = 1_763_700_000.0

    static func tempDir() throws -> String {
        ScratchFolder.make("analysis")
    }

    /// The summary of `text` (a whole CSV file) written to a scratch folder as `name`.
    static func summarize(_ text: String, name: String = "trace.csv", options: AnalysisOptions = .init()) throws -> AnalysisSummary {
        let path = try tempDir() + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return try RecordingAnalyzer.summarize([path], options: options)
    }

    /// Writes the metadata of `csv` (its full path) beside it: a recording of its own (`id`),
    /// `sources` at `rateHz` from `start`, the file's rows, bytes and first and last When.
    static func writeMetadata(for csv: String, id: String, start: Double, rateHz: Int, sources: String,
                              rows: [String: Int], bytes: Int64 = 0, firstWhen: Double? = nil, lastWhen: Double? = nil,
                              counters: CounterSnapshot = CounterSnapshot(), endedCleanly: Bool = true,
                              endReason: String = "stopped", index: Int = 1, previous: String? = nil,
                              clock: String = "simulated") throws {
        let name = String(csv.split(separator: "/").last ?? "")
        let description = RecordingDescription(
            id: id, board: "simulator", boardDescription: nil, sensor: SensorInfo(model: "fake"),
            gps: sources.contains("L") ? "simulated" : nil, deviceMotion: nil, rateHz: rateHz, sources: sources, label: "W",
            whenMode: .epoch, startEpoch: start, started: TimeText.isoUTC(epochSeconds: start), clock: clock,
            rotateBytes: nil, rotateSeconds: nil, fsyncIntervalSeconds: 1, bufferRows: 1024, notes: [])
        var file = RecordingMetadata.FileSection(name: name, index: index, previous: previous)
        file.rows = rows
        file.bytes = bytes
        file.firstWhen = firstWhen
        file.lastWhen = lastWhen
        let meta = RecordingMetadata(software: .init(version: "test"), recording: description, file: file,
                                     counters: counters, endedCleanly: endedCleanly, endReason: endReason, ended: nil)
        try Data(meta.encoded()).write(to: URL(fileURLWithPath: RecordingFiles.metadataPath(for: csv)))
    }

    /// Writes `seconds` of `scenario` to `path`; `imu: false` writes only L rows.
    static func write(_ scenario: SimulatorScenario, seconds: Double, rate: Int, imu: Bool = true, gps: Bool = true,
                      to path: String) throws {
        let sensor = SimulatedIMU(ride: scenario.route)
        let gpsSource = SimulatedGPS(ride: scenario.route, noiseMetres: scenario.gpsNoiseMetres)
        var bytes = CSVFormat.headerBytes
        bytes.reserveCapacity(1 << 20)
        let ticks = Int(seconds * Double(rate))
        let label = Label.defaultLetter
        for k in 0..<ticks {
            let elapsed = Double(k) / Double(rate)
            let when = startEpoch + elapsed
            if imu {
                let tick = Tick(index: Int64(k), monotonicNanos: Int64(elapsed * 1e9), when: when, elapsed: elapsed)
                let r = sensor.read(at: tick)
                if let a = r.accel { RowEncoder.append(Row(source: .accelerometer, label: label, when: when, a.x, a.y, a.z), to: &bytes) }
                if let g = r.gyro { RowEncoder.append(Row(source: .gyroscope, label: label, when: when, g.x, g.y, g.z), to: &bytes) }
                if let m = r.mag { RowEncoder.append(Row(source: .magnetometer, label: label, when: when, m.x, m.y, m.z), to: &bytes) }
            }
            if gps && scenario.hasGPS && k % rate == 0 {
                RowEncoder.append(Row(fix: gpsSource.fix(at: when, elapsed: elapsed), label: label), to: &bytes)
            }
        }
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw CocoaError(.fileWriteUnknown)
        }
    }

    /// Share of whole seconds whose timeline label equals the scenario's truth, and the
    /// seconds that disagree (for the failure message).
    static func agreement(_ summary: AnalysisSummary, _ scenario: SimulatorScenario, seconds: Double) -> (Double, [String]) {
        var right = 0, total = 0
        var wrong: [String: Int] = [:]
        var index = 0
        let timeline = summary.timeline
        for s in 0..<Int(seconds) {
            let t = startEpoch + Double(s) + 0.5
            while index < timeline.count && timeline[index].end <= t { index += 1 }
            var label = "none"
            if index < timeline.count, timeline[index].start <= t {
                let e = timeline[index]
                label = e.type == .move ? (e.activity ?? .unknown).rawValue : e.type.rawValue
            }
            let truth = scenario.truth(at: Double(s) + 0.5)
            total += 1
            if label == truth { right += 1 } else { wrong["\(truth)→\(label)", default: 0] += 1 }
        }
        return (Double(right) / Double(max(1, total)), wrong.map { "\($0.key): \($0.value) s" }.sorted())
    }

    /// Truth segments named `stop` as (start, end) seconds since the start.
    static func truthStops(_ scenario: SimulatorScenario, seconds: Double) -> [(Double, Double)] {
        var out: [(Double, Double)] = []
        var t = 0.0
        while t < seconds {
            for seg in scenario.route.segments {
                if seg.truth == "stop" && t < seconds { out.append((t, min(seconds, t + seg.duration))) }
                t += seg.duration
            }
        }
        return out
    }
}
