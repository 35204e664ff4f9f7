import Foundation
import MotionAnalysis
import MotionCore
import Testing

/// The summary says how each file ended as it did end: a file closed after write errors
/// (a full card) is not blamed on a power cut, and only files that were or must be
/// recovered are listed as such.
@Suite struct FileEndingFindingsTests {
    let t0 = 1_763_700_000.0

    /// `recordings` files 10 minutes apart, each a recording of its own with these counters.
    func summarize(endedCleanly: Bool, endReason: String, lost: Int64 = 0, dropped: Int64 = 0, recordings: Int = 1) throws -> AnalysisSummary {
        let dir = try ScenarioRecording.tempDir()
        var paths: [String] = []
        for k in 0..<recordings {
            let name = "2025112104\(4 + k)000", t0 = self.t0 + Double(k) * 600
            var csv = CSVFormat.headerLine + "\n"
            for i in 0..<100 { csv += "A,W,\(t0 + Double(i) / 10),0.01,-0.02,1.0\n" }
            try csv.write(toFile: dir + "/" + name + ".csv", atomically: false, encoding: .utf8)
            var counters = CounterSnapshot()
            counters.rowsLostToWriteErrors = lost
            counters.writeErrors = lost > 0 ? 3 : 0
            counters.droppedRows = dropped
            try ScenarioRecording.writeMetadata(for: dir + "/" + name + ".csv", id: "id-\(k)", start: t0, rateHz: 10, sources: "A",
                                                rows: ["A": 100], counters: counters, endedCleanly: endedCleanly, endReason: endReason)
            paths.append(dir + "/" + name + ".csv")
        }
        return try RecordingAnalyzer.summarize(paths)
    }

    /// A recording the free-space guard stopped ended cleanly, but before its owner stopped
    /// it: said (it read "nothing needs your attention").
    @Test func aRecordingStoppedForLowSpaceIsSaid() throws {
        let s = try summarize(endedCleanly: true, endReason: "low-disk-space")
        #expect(s.health.endedCleanly == true)
        #expect(s.health.findings.contains { $0.contains("stopped because the card was nearly full") }, "\(s.health.findings)")
        let stopped = try summarize(endedCleanly: true, endReason: "stopped")
        #expect(!stopped.health.findings.contains { $0.contains("nearly full") || $0.contains("next file") }, "\(stopped.health.findings)")
    }

    /// The last file read was closed for a next one (rotation) that is not there: a later
    /// part is missing. It read "ended cleanly, nothing needs your attention".
    @Test func aMissingLastPartIsSaid() throws {
        let s = try summarize(endedCleanly: true, endReason: "rotated")
        #expect(s.health.findings.contains { $0.contains("was closed for the recording to go on in a next file, which is not among the files read") },
                "\(s.health.findings)")
        // A fused part keeps its input's ending under an id of its own: no such finding.
        let dir = try ScenarioRecording.tempDir()
        let path = dir + "/20251121044000-fused.csv"
        var csv = CSVFormat.headerLine + "\n"
        for i in 0..<100 { csv += "A,W,\(t0 + Double(i) / 10),0.01,-0.02,1.0\n" }
        try csv.write(toFile: path, atomically: false, encoding: .utf8)
        try ScenarioRecording.writeMetadata(for: path, id: "id-fused", start: t0, rateHz: 10, sources: "A", rows: ["A": 100],
                                            endedCleanly: true, endReason: "rotated")
        let json = RecordingFiles.metadataPath(for: path)
        var meta = try RecordingMetadata.decode(Array(try Data(contentsOf: URL(fileURLWithPath: json))))
        meta.recording.deviceMotion = [RecordingDescription.recomputedFromKey: "20251121044000.csv"]
        try Data(meta.encoded()).write(to: URL(fileURLWithPath: json))
        let fused = try RecordingAnalyzer.summarize([path])
        #expect(!fused.health.findings.contains { $0.contains("next file") }, "\(fused.health.findings)")
    }

    /// After recovery, missedTicks holds the ticks the rows lack, but the late wake-ups stay
    /// as last written: "118 ticks were missed in 3 late wake-ups" where the file had 55 gaps.
    @Test func ticksARecoveredFileLacksAreNotBlamedOnWakeUps() throws {
        func summary(recovered: Bool) throws -> AnalysisSummary {
            let dir = try ScenarioRecording.tempDir()
            let path = dir + "/20251121044000.csv"
            var csv = CSVFormat.headerLine + "\n"
            for i in 0..<100 { csv += "A,W,\(t0 + Double(i) / 10),0.01,-0.02,1.0\n" }
            try csv.write(toFile: path, atomically: false, encoding: .utf8)
            var counters = CounterSnapshot()
            counters.missedTicks = 118
            counters.overruns = 3
            try ScenarioRecording.writeMetadata(for: path, id: "id", start: t0, rateHz: 10, sources: "A", rows: ["A": 100],
                                                counters: counters, endedCleanly: !recovered, endReason: recovered ? "recovered" : "stopped")
            return try RecordingAnalyzer.summarize([path])
        }
        let recovered = try summary(recovered: true).messages
        #expect(recovered.contains { $0.hasPrefix("118 ticks have no sample") } && !recovered.contains { $0.contains("late wake-up") }, "\(recovered)")
        let clean = try summary(recovered: false).messages
        #expect(clean.contains("118 ticks were missed in 3 late wake-ups of the sampler (no sample exists for them)."), "\(clean)")
    }

    /// Files are read in the order of their first rows, as their metadata gives it: in a
    /// daylight-saving fall-back the file begun at 01:05 EST (named 010500) follows the one
    /// begun at 01:35 EDT (named 013500); read by name, the first was dropped as "out of order".
    @Test func filesAreReadInTheOrderTheirMetadataGives() throws {
        let dir = try ScenarioRecording.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var paths: [String] = []
        for (k, name) in ["20261101013500", "20261101010500"].enumerated() {
            let start = t0 + Double(k) * 1800
            var csv = CSVFormat.headerLine + "\n"
            for i in 0..<600 { csv += "L,W,\(start + Double(i)),52.5,\(13.4 + Double(i) * 1.4 / 67_700),34.0,1.4,90.0,0.0,3.0,4.0,3\n" }
            try csv.write(toFile: dir + "/" + name + ".csv", atomically: false, encoding: .utf8)
            try ScenarioRecording.writeMetadata(for: dir + "/" + name + ".csv", id: "id-\(k)", start: start, rateHz: 1, sources: "L",
                                                rows: ["L": 600], firstWhen: start, lastWhen: start + 599)
            paths.append(dir + "/" + name + ".csv")
        }
        #expect(try RecordingInputs.resolve([dir]) == paths)
        let s = try RecordingAnalyzer.summarize(try RecordingInputs.resolve([dir]))
        #expect(s.fixesUsed == 1200 && s.start == t0, "\(s.fixesUsed) fixes, \(s.messages)")
    }

    /// The time between two recordings is not a gap of their sensors: two 10-second
    /// recordings 10 minutes apart said "Accelerometer rows came at 0.3 Hz of the configured
    /// 10 Hz" and "were missing for 9 min 50 s".
    @Test func thePauseBetweenRecordingsIsNoGap() throws {
        let two = try summarize(endedCleanly: true, endReason: "stopped", recordings: 2)
        let a = try #require(two.health.sources.first { $0.source == "A" })
        #expect(abs((a.achievedHz ?? 0) - 10) < 0.01, "\(String(describing: a.achievedHz))")
        #expect((a.longestGaps.first?.durationS ?? 0) < 1, "\(a.longestGaps)")
        #expect(!two.messages.contains { $0.contains("Accelerometer") }, "\(two.messages)")
    }

    /// Counters of different recordings add up; metadata saying Int64.max (damaged or
    /// edited) once trapped the addition, and is now read as damaged metadata, said so.
    @Test func countersOfRecordingsAddUpWithoutTrapping() throws {
        let two = try summarize(endedCleanly: true, endReason: "stopped", dropped: 7, recordings: 2)
        #expect(two.health.droppedRows == 14)
        let most = try summarize(endedCleanly: true, endReason: "stopped", dropped: RecordingMetadata.maxCount, recordings: 2)
        #expect(most.health.droppedRows == 2 * RecordingMetadata.maxCount)
        let huge = try summarize(endedCleanly: true, endReason: "stopped", dropped: .max, recordings: 2)
        #expect(huge.health.droppedRows == 0)
        #expect(huge.messages.contains { $0.hasPrefix("2 metadata files could not be read (20251121044000.json: it holds counters.droppedRows") }, "\(huge.messages)")
    }

    /// Metadata that is there but cannot be opened is said with why, not read as absent
    /// nor called damaged.
    @Test func metadataThatCannotBeOpenedIsSaidWithWhy() throws {
        let dir = try ScenarioRecording.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let csv = dir + "/20251121044000.csv"
        try (CSVFormat.headerLine + "\n" + (0..<100).map { "A,W,\(t0 + Double($0) / 10),0.01,-0.02,1.0\n" }.joined())
            .write(toFile: csv, atomically: false, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: dir + "/20251121044000.json", withIntermediateDirectories: false)
        let s = try RecordingAnalyzer.summarize([csv])
        #expect(s.health.findings.contains("20251121044000.json could not be read: it cannot be opened (Is a directory). The configured rate, the counters and how the file ended are unknown."),
                "\(s.health.findings)")
    }

    @Test func aFileClosedAfterWriteErrorsIsNotBlamedOnAPowerCut() throws {
        let s = try summarize(endedCleanly: false, endReason: "duration" + FileEnding.writeErrorsSuffix, lost: 602)
        #expect(s.health.endedCleanly == false)
        #expect(s.health.recoveredFiles.isEmpty)
        let about = s.health.findings.filter { $0.hasPrefix("20251121044000.csv") }
        #expect(about.count == 1)
        #expect(about.first?.contains("ended (duration) after write errors") == true, "\(about)")
        #expect(!s.health.findings.contains { $0.contains("power cut") }, "\(s.health.findings)")
        #expect(s.health.findings.contains { $0.hasPrefix("602 rows were lost to 3 write errors") })
    }

    @Test func aFileCutOffAndNotYetRecoveredSaysSo() throws {
        let s = try summarize(endedCleanly: false, endReason: FileEnding.recordingReason)
        #expect(s.health.endedCleanly == false && s.health.recoveredFiles == ["20251121044000.csv"])
        #expect(s.health.findings.contains { $0.hasPrefix("20251121044000.csv did not end cleanly: it is still being written, or a power cut") })
    }

    @Test func aRecoveredFileIsNamedAndAFailedFsyncIsTold() throws {
        let recovered = try summarize(endedCleanly: false, endReason: FileEnding.recoveredReason)
        #expect(recovered.health.endedCleanly == false && recovered.health.recoveredFiles == ["20251121044000.csv"])
        #expect(recovered.health.findings.contains { $0.contains("was cut off by a power cut or crash and recovered") })
        let fsync = try summarize(endedCleanly: false, endReason: "stopped" + FileEnding.fsyncFailedSuffix)
        #expect(fsync.health.recoveredFiles == ["20251121044000.csv"])
        #expect(fsync.health.findings.contains { $0.contains("ended (stopped) after write errors") && $0.contains("last fsync failed") })
    }

    @Test func aCleanFileHasNoFindingAboutItsEnd() throws {
        let s = try summarize(endedCleanly: true, endReason: "duration")
        #expect(s.health.endedCleanly == true && s.health.recoveredFiles.isEmpty)
        #expect(!s.health.findings.contains { $0.hasPrefix("20251121044000.csv") })
    }
}
