import Foundation
import MotionAnalysis
import MotionCore
import Testing

/// A logger that boots without network has a wrong clock until GPS time is known; the
/// recorder then steps When forward once and records the step. The summary places the IMU
/// rows stamped before the step by it, so the ride is one piece of the length it had, not
/// two pieces days apart with a "gap" and a rate of 0 Hz between them.
@Suite struct ClockStepTests {
    /// True start of the ride; the clock was 3 days and 0.5 s behind until GPS time.
    let t0 = 1_763_700_000.0
    let behind = 3 * 86_400 + 0.5

    /// Writes `name`.csv with A rows at 10 Hz for true times `[from, to)` (stamped with the
    /// wrong clock before `stepAt`) and L rows at 1 Hz (GPS time), and its metadata.
    func write(_ dir: String, _ name: String, from: Double, to: Double, stepAt: Double, recordsStep: Bool,
               previous: String? = nil) throws {
        var csv = CSVFormat.headerLine + "\n"
        var t = from
        while t < to - 1e-9 {
            let stamped = t < stepAt ? t - behind : t
            csv += "A,W,\(stamped),0.01,-0.02,-1.0\n"
            let k = ((t - t0) * 10).rounded()
            if Int(k) % 10 == 0 {   // a fix per second at 1.5 m/s north (a walk), in GPS time
                csv += "L,W,\(t),\(47.0 + (t - t0) * 1.5 / 111_195),8.0,400.0,1.5,0.0,0.0,4.0,6.0,3\n"
            }
            t = t0 + (k + 1) / 10
        }
        try csv.write(toFile: dir + "/" + name + ".csv", atomically: false, encoding: .utf8)
        var counters = CounterSnapshot()
        var time = GPSTimeRecord(clock: "gps", systemClockSynchronised: false, systemClockDetail: "test")
        if recordsStep {
            time.steps = 1
            time.firstCorrectedWhen = stepAt
            time.firstStepSeconds = behind
            time.correctionSeconds = behind
        }
        counters.time = time
        let description = RecordingDescription(
            id: "ride", board: "simulator", boardDescription: nil, sensor: SensorInfo(model: "fake"), gps: nil,
            deviceMotion: nil, rateHz: 10, sources: "AL", label: "W", whenMode: .epoch, startEpoch: t0 - behind,
            started: TimeText.isoLocal(epochSeconds: t0 - behind), clock: "system-unsynchronised", rotateBytes: nil,
            rotateSeconds: nil, fsyncIntervalSeconds: 1, bufferRows: 1024, notes: [])
        let meta = RecordingMetadata(software: .init(version: "test"), recording: description,
                                     file: RecordingMetadata.FileSection(name: name + ".csv", index: previous == nil ? 1 : 2,
                                                                         previous: previous.map { $0 + ".csv" }),
                                     counters: counters, endedCleanly: true, endReason: "stopped", ended: nil)
        try Data(meta.encoded()).write(to: URL(fileURLWithPath: dir + "/" + name + ".json"))
    }

    func expectOnePiece(_ s: AnalysisSummary, placed: Int) {
        #expect(abs(s.durationS - 29.9) < 0.01, "\(s.durationS)")
        #expect(abs((s.start ?? 0) - t0) < 1e-6)
        #expect(!s.timeline.contains { $0.type == .gap }, "\(s.timeline)")
        #expect(!s.health.findings.contains { $0.contains("were missing") || $0.contains("Hz of the configured") },
                "\(s.health.findings)")
        let a = s.health.sources.first { $0.source == "A" }
        #expect(abs((a?.achievedHz ?? 0) - 10) < 0.05)
        let said = s.health.findings.filter { $0.hasPrefix("The logger's clock was 3 d 0 h behind until GPS time set it at ") }
        #expect(said.count == 1 && said.first?.contains("the \(placed) IMU rows recorded before that are placed by GPS time") == true,
                "\(s.health.findings)")
    }

    @Test func rowsBeforeTheStepArePlacedByIt() throws {
        let dir = try ScenarioRecording.tempDir()
        try write(dir, "20251121044000", from: t0, to: t0 + 30, stepAt: t0 + 5, recordsStep: true)
        expectOnePiece(try RecordingAnalyzer.summarize([dir + "/20251121044000.csv"]), placed: 50)
    }

    @Test func aFileRotatedBeforeTheStepIsPlacedByTheStepItsSuccessorRecorded() throws {
        let dir = try ScenarioRecording.tempDir()
        try write(dir, "20251121044000", from: t0, to: t0 + 10, stepAt: t0 + 12, recordsStep: false)
        try write(dir, "20251121044010", from: t0 + 10, to: t0 + 30, stepAt: t0 + 12, recordsStep: true)
        let s = try RecordingAnalyzer.summarize(try RecordingInputs.resolve([dir]))
        expectOnePiece(s, placed: 120)
    }

    @Test func aProvisionallyNamedFileIsReadBeforeTheFileThatFollowedIt() throws {
        // Rotated before GPS time was known, the first file keeps its provisional name,
        // which sorts after the dated name of the second.
        let dir = try ScenarioRecording.tempDir()
        try write(dir, "unsynced-3f2a9c1e-0000042", from: t0, to: t0 + 10, stepAt: t0 + 12, recordsStep: false)
        try write(dir, "20251121044010", from: t0 + 10, to: t0 + 30, stepAt: t0 + 12, recordsStep: true,
                  previous: "unsynced-3f2a9c1e-0000042")
        try write(dir, "20251121050000", from: t0 + 1200, to: t0 + 1201, stepAt: 0, recordsStep: false)
        let files = try RecordingInputs.resolve([dir]).map { ($0 as NSString).lastPathComponent }
        #expect(files == ["unsynced-3f2a9c1e-0000042.csv", "20251121044010.csv", "20251121050000.csv"])
        let s = try RecordingAnalyzer.summarize(try RecordingInputs.resolve([dir + "/unsynced-3f2a9c1e-0000042.csv",
                                                                            dir + "/20251121044010.csv"]))
        expectOnePiece(s, placed: 120)
        #expect(s.health.timeJumps == 0)
    }

    @Test func theWideCSVPlacesTheRowsBeforeTheStepToo() throws {
        let dir = try ScenarioRecording.tempDir()
        try write(dir, "20251121044000", from: t0, to: t0 + 10, stepAt: t0 + 12, recordsStep: false)
        try write(dir, "20251121044010", from: t0 + 10, to: t0 + 30, stepAt: t0 + 12, recordsStep: true)
        var text: [UInt8] = []
        var export = WideCSVExport { text += $0 }
        try export.convert(try RecordingInputs.resolve([dir]))
        let lines = String(decoding: text, as: UTF8.self).split(separator: "\n").dropFirst()
        let times = lines.compactMap { Double($0.prefix { $0 != "," }) }
        #expect(times.count == lines.count && times.count == 300, "\(times.count) of \(lines.count)")
        // One line per tick, the fixes joining their ticks: the times a continuous 10 Hz grid.
        #expect(zip(times, times.dropFirst()).allSatisfy { abs($1 - $0 - 0.1) < 1e-6 }, "\(times.prefix(3))")
        #expect(abs(times[0] - t0) < 1e-6)
        #expect(lines.filter { !$0.hasSuffix(",,,,,,,,,") }.count == 30)   // 30 fixes, each on its tick's line
    }

    @Test func withoutTheStepsSizeTheRowsKeepTheirTimesAndTheStepIsTold() throws {
        // Metadata written before firstStepSeconds existed: nothing is moved.
        let dir = try ScenarioRecording.tempDir()
        try write(dir, "20251121044000", from: t0, to: t0 + 30, stepAt: t0 + 5, recordsStep: true)
        let path = dir + "/20251121044000.json"
        var json = try String(contentsOfFile: path, encoding: .utf8)
        json = json.replacingOccurrences(of: "\"firstStepSeconds\"", with: "\"unknownKey\"")
        try json.write(toFile: path, atomically: false, encoding: .utf8)
        let s = try RecordingAnalyzer.summarize([dir + "/20251121044000.csv"])
        #expect(s.durationS > behind)
        #expect(s.health.findings.contains("The clock was stepped 1 time to GPS time during the recording."), "\(s.health.findings)")
    }
}
