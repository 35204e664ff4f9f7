import Foundation
import MotionAnalysis
import MotionCore
import Testing

/// A recording made with a GPS source but without one `L` row: the summary says whether
/// gpsd never answered or the receiver never had a fix (the metadata's
/// `counters.locationHealth`), not only "No GPS (L) rows", which read the same for a
/// logger without a receiver, a stopped gpsd and a receiver indoors.
@Suite struct GPSAbsenceTests {
    let t0 = 1_763_700_000.0

    func summarize(sources: String = "AL", health: LocationHealth?) throws -> AnalysisSummary {
        let dir = try ScenarioRecording.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/20251121044000.csv"
        var csv = CSVFormat.headerLine + "\n"
        for i in 0..<100 { csv += "A,W,\(t0 + Double(i) / 10),0.01,-0.02,1.0\n" }
        try csv.write(toFile: path, atomically: false, encoding: .utf8)
        var counters = CounterSnapshot()
        counters.locationHealth = health
        try ScenarioRecording.writeMetadata(for: path, id: "id", start: t0, rateHz: 10, sources: sources,
                                            rows: ["A": 100], counters: counters)
        return try RecordingAnalyzer.summarize([path])
    }

    func finding(_ s: AnalysisSummary) -> String? { s.messages.first { $0.hasPrefix("No GPS (L) rows") } }

    @Test func gpsdThatNeverAnsweredIsNamed() throws {
        var h = LocationHealth()
        h.sessions = 0; h.failedAttempts = 12
        let text = try #require(finding(try summarize(health: h)))
        #expect(text.contains("never answered during the recording (12 connection attempts failed)"), "\(text)")
        #expect(text.contains("systemctl status gpsd"), "\(text)")
    }

    @Test func aReceiverWithoutAFixIsNamed() throws {
        var h = LocationHealth()
        h.sessions = 1; h.failedAttempts = 0; h.lastMode = 1
        let text = try #require(finding(try summarize(health: h)))
        #expect(text.contains("answered, but the receiver never had a fix"), "\(text)")
        #expect(!text.contains("never answered"), "\(text)")
    }

    @Test func aGPSDWithoutAReceiverIsNamed() throws {
        var h = LocationHealth()
        h.sessions = 2; h.failedAttempts = 0; h.receivers = 0
        let text = try #require(finding(try summarize(health: h)))
        #expect(text.contains("answered, but had no receiver") && text.contains("USBAUTO"), "\(text)")
        #expect(h.statusText == "no receiver")
    }

    /// A connection to gpsd lost mid-recording is said as such, beside the GPS gap it made.
    @Test func aLostConnectionIsSaid() throws {
        var h = LocationHealth()
        h.sessions = 2; h.failedAttempts = 3; h.disconnects = 1
        let s = try summarize(health: h)
        #expect(s.messages.contains("The connection to gpsd was lost once (gpsd stopped or restarted): no fixes were recorded until it answered again."), "\(s.messages)")
        #expect(!(try summarize(health: LocationHealth())).messages.contains { $0.contains("connection to gpsd") })
        // One session and one loss: gpsd did not answer again (it said "until it answered again").
        h.sessions = 1
        let gone = try summarize(health: h)
        #expect(gone.messages.contains("The connection to gpsd was lost once (gpsd stopped or restarted): it did not answer again before the recording ended: no fixes after that."), "\(gone.messages)")
    }

    /// Where the metadata cannot tell (no counters: older files, the simulator; or no GPS
    /// source in the recording), the finding stays as it was.
    @Test func withoutTheCountersTheFindingIsUnchanged() throws {
        let old = try summarize(health: LocationHealth())
        #expect(finding(old) == "No GPS (L) rows: no track or places; the timeline comes from the accelerometer alone.")
        var h = LocationHealth()
        h.sessions = 0
        let noGPS = try summarize(sources: "A", health: h)
        #expect(finding(noGPS) == "No GPS (L) rows: no track or places; the timeline comes from the accelerometer alone.")
    }

    /// Counters written before these two existed decode as unknown, not as zero.
    @Test func olderMetadataDecodesWithoutTheNewCounters() throws {
        let json = #"{"backwardsFixes": 0, "disconnects": 1, "lastMode": 3, "modeChanges": 2}"#
        let h = try JSONDecoder().decode(LocationHealth.self, from: Data(json.utf8))
        #expect(h.sessions == nil && h.failedAttempts == nil && h.disconnects == 1)
    }
}
