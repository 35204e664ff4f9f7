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
        #expect(SummaryCache.loadBrief(for: [path]) == .init(distanceM: first.distanceM, activitySeconds: first.activitySeconds))
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
