import Foundation
import Hummingbird
import HummingbirdTesting
import MotionCore
import MotionSystem
@testable import MotionWeb
import Testing

/// What the page says of recordings whose clock GPS time set, and of their findings.
@Suite struct WebGPSTimeTests {
    /// A recording renamed from its provisional name once GPS time was known: a page or link
    /// opened before finds it (it was a 404).
    @Test func aProvisionalNameLeadsToTheRecordingItBecame() async throws {
        let f = try WebFixture()
        try f.addRecording("20260101080000", start: 1_767_254_400)
        let json = f.folder + "/20260101080000.json"
        var meta = try RecordingMetadata.decode(Array(try Data(contentsOf: URL(fileURLWithPath: json))))
        meta.file.renamedFrom = "unsynced-abcd1234-0001234.csv"
        try Data(meta.encoded()).write(to: URL(fileURLWithPath: json))
        try await f.app().test(.router) { client in
            let page = try await client.execute(uri: "/recordings/unsynced-abcd1234-0001234", method: .get)
            #expect(page.status == .seeOther && page.headers[.location] == "/recordings/20260101080000")
            let gpx = try await client.execute(uri: "/recordings/unsynced-abcd1234-0001234.gpx", method: .get)
            #expect(gpx.status == .seeOther && gpx.headers[.location] == "/recordings/20260101080000.gpx")
            let other = try await client.execute(uri: "/recordings/unsynced-abcd1234-0009999", method: .get)
            #expect(other.status == .notFound)
        }
    }

    /// A recording whose times come from a clock nobody set carries a badge saying so (its
    /// times were shown as plain dates).
    @Test func aClockNobodySetIsABadge() async throws {
        let f = try WebFixture()
        try f.addRecording("20260101080000", start: 1_767_254_400)
        try f.addRecording("20260102080000", start: 1_767_340_800)
        let json = f.folder + "/20260101080000.json"
        var meta = try RecordingMetadata.decode(Array(try Data(contentsOf: URL(fileURLWithPath: json))))
        meta.recording.clock = GPSTimeRecord.unsynchronisedClock
        try Data(meta.encoded()).write(to: URL(fileURLWithPath: json))
        try await f.app().test(.router) { client in
            let r = try await client.execute(uri: "/api/recordings", method: .get)
            let list = try JSONSerialization.jsonObject(with: Data(buffer: r.body)) as? [[String: Any]]
            #expect(list?.first { $0["name"] as? String == "20260101080000" }?["health"] as? [String] == ["clock not set"])
            #expect(list?.first { $0["name"] as? String == "20260102080000" }?["health"] as? [String] == ["clean"])
            let page = String(buffer: try await client.execute(uri: "/", method: .get).body)
            #expect(page.contains("<span class=\"badge warn\">clock not set</span>"))
        }
    }

    /// The page of a file being written says so, not "did not end cleanly … or a power cut
    /// or crash cut it off".
    @Test func aFileBeingWrittenIsSaidToBe() async throws {
        let f = try WebFixture()
        try f.addRecording("20260101080000", start: 1_767_254_400, endedCleanly: false, endReason: "recording")
        // Its writer's lock, as the recorder holds it.
        let writer = try FileSystem.open(f.folder + "/20260101080000.csv", .readOnly)
        defer { try? writer.close() }
        #expect(try writer.tryLockExclusive())
        try await f.app().test(.router) { client in
            let page = String(buffer: try await client.execute(uri: "/recordings/20260101080000", method: .get).body)
            #expect(page.contains("This file is being written now"), "the sentence is missing")
            #expect(!page.contains("a power cut or crash cut it off"), "the ending sentence is still there")
        }
    }

    /// `started` and `ended` are the logger's clock; where GPS time corrected When they are
    /// shown in GPS time (the heading said 09:11, the metadata table 06:11:45Z).
    @Test func metadataTimesAreShownInGPSTimeWhereGPSTimeCorrectedThem() throws {
        let d = RecordingDescription(id: "i", board: "b", boardDescription: nil, sensor: SensorInfo(model: "m"), gps: "gpsd localhost:2947",
                                     deviceMotion: nil, rateHz: 10, sources: "AL", label: "W", whenMode: .epoch, startEpoch: 0,
                                     started: "2026-11-29T06:11:45.620Z", clock: GPSTimeRecord.gpsClock, rotateBytes: nil,
                                     rotateSeconds: nil, fsyncIntervalSeconds: 1, bufferRows: 10, notes: [])
        var counters = CounterSnapshot()
        var time = GPSTimeRecord(clock: GPSTimeRecord.gpsClock, systemClockSynchronised: false)
        time.correctionSeconds = 3 * 3600
        counters.time = time
        var m = RecordingMetadata(software: .init(version: "t"), recording: d, file: .init(name: "x.csv", index: 1, previous: nil),
                                  counters: counters, endedCleanly: true, endReason: "stopped", ended: nil)
        #expect(RecordingPage.gpsTimed(m.recording.started, m) == "2026-11-29T09:11:45.620Z (GPS time; the logger's clock said 2026-11-29T06:11:45.620Z)")
        m.recording.clock = "system"
        #expect(RecordingPage.gpsTimed(m.recording.started, m) == "2026-11-29T06:11:45.620Z")
    }

    /// A command quoted in a finding is set as code, its backticks not shown.
    @Test func commandsInFindingsAreCode() {
        #expect(Text.withCode("Is gpsd running? `systemctl status gpsd` and `cgps` tell.")
                == "Is gpsd running? <code>systemctl status gpsd</code> and <code>cgps</code> tell.")
        #expect(Text.withCode("`a<b`") == "<code>a&lt;b</code>")
        #expect(Text.withCode("one ` alone <b>") == "one ` alone &lt;b&gt;")
    }
}
