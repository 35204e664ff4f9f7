import Foundation
import MotionAnalysis
import Testing

@Suite struct SummaryCacheTests {
    static let csv = """
        Source, Label, When, X, Y, Z, UA_X, UA_Y, UA_Z, Pitch, Roll, Yaw
        L,W,1763735405.0,52.52,13.405,34.0,0.0,0.0,0.0,3.0,4.0,3
        L,W,1763735406.0,52.52001,13.405,34.0,1.1,0.0,0.0,3.0,4.0,3

        """.replacingOccurrences(of: "\n\n", with: "\n")

    @Test func storesLoadsAndInvalidates() throws {
        let dir = try ScenarioRecording.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/20251121143005.csv"
        try Self.csv.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(SummaryCache.load(for: [path]) == nil)
        let first = try SummaryCache.summary(for: [path])
        #expect(FileManager.default.fileExists(atPath: dir + "/20251121143005.summary.json"))
        #expect(SummaryCache.load(for: [path]) == first)
        #expect(SummaryCache.loadBrief(for: [path]) == .init(distanceM: first.distanceM, activitySeconds: first.activitySeconds,
                                                              start: first.start, end: first.end))
        #expect(first.rows["L"] == 2)
        // Appending a row changes size and mtime: the cache is stale.
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data("L,W,1763735407.0,52.52002,13.405,34.0,1.1,0.0,0.0,3.0,4.0,3\n".utf8))
        try handle.close()
        #expect(SummaryCache.load(for: [path]) == nil)
        #expect(SummaryCache.loadBrief(for: [path]) == nil)
        let second = try SummaryCache.summary(for: [path])
        #expect(second.rows["L"] == 3)
        #expect(SummaryCache.load(for: [path])?.rows["L"] == 3)
        // No stray temporary files.
        let names = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        #expect(names == ["20251121143005.csv", "20251121143005.summary.json"])
    }

    /// Unknown values are `null`, never missing keys (docs/ANALYSIS.md); they read back as nil,
    /// and so does a key a summary of an older version left out.
    @Test func unknownValuesAreNullAndReadBack() throws {
        let s = try ScenarioRecording.summarize("Source, Label, When, X, Y, Z\nA,W,1763735405.0,0.1,0.2,-1.0\nA,W,1763735405.02,0.1,0.2,-1.0\n",
                                                name: "20251121143005.csv")
        let bytes = SummaryJSON.encode(s, pretty: false)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        for key in ["bbox", "average_speed_mps", "max_speed_mps"] {
            #expect(object[key] is NSNull, "\(key): \(String(describing: object[key]))")
        }
        let health = try #require(object["health"] as? [String: Any])
        for key in ["gps", "magnetometer", "ended_cleanly"] { #expect(health[key] is NSNull, "\(key)") }
        let source = try #require((health["sources"] as? [[String: Any]])?.first)
        #expect(source["configured_hz"] is NSNull)
        #expect(try SummaryJSON.decode(bytes) == SummaryJSON.decode(SummaryJSON.encode(try SummaryJSON.decode(bytes), pretty: false)))
        #expect(try SummaryJSON.decode(bytes).start == s.start && SummaryJSON.decode(bytes).bbox == nil)
        let older = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\"bbox\":null,", with: "")
        #expect(older.count < bytes.count)
        #expect(try SummaryJSON.decode(Array(older.utf8)).bbox == nil)
    }

    /// Timeline entries carry every key of their type: a move or stop from the IMU alone has
    /// its distance, speeds and position `null` (they were left out), a gap only its times.
    @Test func timelineEntriesHaveEveryKeyOfTheirType() throws {
        var move = TimelineEntry(type: .move, start: 10, end: 70)
        move.activity = .cycling
        move.basis = .imu
        var stop = TimelineEntry(type: .stop, start: 70, end: 700)
        stop.radiusM = nil
        let gap = TimelineEntry(type: .gap, start: 700, end: 900)
        var s = try ScenarioRecording.summarize("Source, Label, When, X, Y, Z\nA,W,1763735405.0,0.1,0.2,-1.0\n", name: "20251121143005.csv")
        s.timeline = [move, stop, gap]
        let bytes = SummaryJSON.encode(s, pretty: false)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        let entries = try #require(object["timeline"] as? [[String: Any]])
        #expect(Set(entries[0].keys) == ["type", "start", "end", "activity", "distance_m", "mean_speed_mps", "max_speed_mps", "basis"])
        #expect(entries[0]["distance_m"] is NSNull && entries[0]["activity"] as? String == "cycling")
        #expect(Set(entries[1].keys) == ["type", "start", "end", "lat", "lon", "radius_m"] && entries[1]["lat"] is NSNull)
        #expect(Set(entries[2].keys) == ["type", "start", "end"])
        #expect(try SummaryJSON.decode(bytes).timeline == [move, stop, gap])
    }

    @Test func aSummaryWithAMagnetometerReadsBackFromTheCache() throws {
        let dir = try ScenarioRecording.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/20251121143005.csv"
        var text = Self.csv
        for k in 0..<200 { text += "M,W,\(1763735405.0 + Double(k) / 100),20.0,0.\(k % 10),-40.0\n" }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let first = try SummaryCache.summary(for: [path])
        #expect(first.health.magnetometer != nil)
        #expect(SummaryCache.load(for: [path]) == first)
    }

    @Test func readOnlyFolderStillSummarises() throws {
        let dir = try ScenarioRecording.tempDir()
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir)
                try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/20251121143005.csv"
        try Self.csv.write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: dir)
        let s = try SummaryCache.summary(for: [path])
        #expect(s.rows["L"] == 2)
    }
}
