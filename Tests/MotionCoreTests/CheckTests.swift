import Foundation
import MotionCore
import Testing

@Suite("check finds every defect with its line")
struct CheckTests {
    func check(_ text: String) throws -> CheckReport {
        let path = temporaryDirectory() + "/damaged.csv"
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        return try RecordingCheck.check(path: path)
    }

    let good = """
        Source, Label, When, X, Y, Z, UA_X, UA_Y, UA_Z, Pitch, Roll, Yaw
        A,W,1763735405.01,0.206573,-0.479309,-0.807968
        G,W,1763735405.01,0.025971,-0.395466,0.020199
        M,W,1763735405.01,98.820877,-193.85347,-79.649658
        D,W,1763735405.01,0.025971,-0.395466,0.020199,-0.000315,0.000571,0.042486,0.489558,0.217993,-0.054655
        L,W,1763735405.0,52.520008,13.404954,34.2,5.12,87.5,0.0,3.1,4.6,3
        A,W,1763735405.02,0.2,-0.4,-0.8

        """

    @Test func theFormatExampleIsValidWithStatistics() throws {
        let r = try check(good)
        #expect(r.isValid && r.problems.isEmpty)
        #expect(r.sources[.accelerometer]?.rows == 2)
        #expect(r.sources[.accelerometer]?.measuredRate.map { abs($0 - 100) < 1e-3 } == true)
        #expect(r.sources[.location]?.rows == 1)
    }

    /// Beyond `maxProblems` the problems are counted, not listed, by severity: the counts
    /// are of every problem (they said "1001 errors" for 2000, the extra one being the line
    /// that said how many were not listed).
    @Test func problemsBeyondTheListAreCountedBySeverity() throws {
        var text = good
        for k in 0..<5 { text += "A,W,\(1763735406 + k),x,0,1\n" }   // five errors
        text += "A,W,1763735405.015,0,0,1\n"                           // When goes back: one more
        let path = temporaryDirectory() + "/many.csv"
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        let all = try RecordingCheck.check(path: path)
        let some = try RecordingCheck.check(path: path, maxProblems: 2)
        #expect(all.problems.count == all.errors + all.warnings && all.unlisted == 0, "\(all.problems)")
        #expect(some.problems.count == 2 && some.problems == Array(all.problems.prefix(2)))
        #expect(some.errors == all.errors && some.warnings == all.warnings && some.unlisted == all.problems.count - 2)
        #expect(all.errors == 6, "\(all.problems)")
    }

    /// Metadata beside the file that cannot be read is a warning naming why: the CSV is
    /// still valid, but it was checked without the counts the metadata held.
    @Test func unreadableMetadataIsAWarningThatSaysWhy() throws {
        let folder = temporaryDirectory()
        let path = folder + "/20261123100000.csv"
        try good.write(toFile: path, atomically: false, encoding: .utf8)
        try "{\"format\": 1".write(toFile: folder + "/20261123100000.json", atomically: false, encoding: .utf8)
        var r = try RecordingCheck.check(path: path)
        #expect(r.isValid && r.warnings == 1)
        #expect(r.problems.first?.message == "20261123100000.json cannot be read: it is not motionlog metadata (damaged, or another program's JSON); the file is checked without it (its rows are not compared with the counts it held)")
        let description = RecordingDescription(
            id: "id", board: "simulator", boardDescription: nil, sensor: SensorInfo(model: "fake"), gps: nil, deviceMotion: nil,
            rateHz: 100, sources: "AGMDL", label: "W", whenMode: .epoch, startEpoch: 1_763_735_405, started: "2025-11-21T14:30:05Z",
            clock: "system", rotateBytes: nil, rotateSeconds: nil, fsyncIntervalSeconds: 1, bufferRows: 1024, notes: [])
        var file = RecordingMetadata.FileSection(name: "20261123100000.csv", index: 1, previous: nil)
        file.lastWhen = 1e19
        let m = RecordingMetadata(software: .init(version: "test"), recording: description, file: file, counters: CounterSnapshot(),
                                  endedCleanly: true, endReason: "stopped", ended: nil)
        try String(decoding: m.encoded(), as: UTF8.self).write(toFile: folder + "/20261123100000.json", atomically: false, encoding: .utf8)
        r = try RecordingCheck.check(path: path)
        #expect(r.isValid && r.warnings == 1)
        #expect(r.problems.first?.message.hasPrefix("20261123100000.json cannot be read: it holds file.lastWhen 1e+19, which no recorder writes;") == true,
                "\(r.problems)")
        // There but not a file to open: not "no metadata" (which nothing warns about).
        try FileManager.default.removeItem(atPath: folder + "/20261123100000.json")
        try FileManager.default.createDirectory(atPath: folder + "/20261123100000.json", withIntermediateDirectories: false)
        r = try RecordingCheck.check(path: path)
        #expect(r.isValid && r.warnings == 1)
        #expect(r.problems.first?.message.hasPrefix("20261123100000.json cannot be read: it cannot be opened (Is a directory);") == true,
                "\(r.problems)")
        // Larger than any recorder writes: not read into memory at all.
        try FileManager.default.removeItem(atPath: folder + "/20261123100000.json")
        try String(repeating: " ", count: Int(RecordingFiles.maxMetadataBytes) + 1).write(toFile: folder + "/20261123100000.json", atomically: false, encoding: .utf8)
        r = try RecordingCheck.check(path: path)
        #expect(r.problems.first?.message.hasPrefix("20261123100000.json cannot be read: it is larger than any recorder writes (4194305 bytes);") == true,
                "\(r.problems)")
    }

    /// Time going backwards is an error, and the span is still earliest to latest (it was
    /// last minus first: "-1.00 s").
    @Test func theSpanIsNeverNegative() throws {
        let r = try check("Source, Label, When, X, Y, Z\nA,W,10.0,0,0,1\nA,W,12.5,0,0,1\nA,W,9.0,0,0,1\n")
        #expect(!r.isValid)
        #expect(r.sources[.accelerometer]?.span == 3.5)
    }

    @Test func eachDefectIsNamedWithItsLine() throws {
        var lines = good.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines[0] = "Source,Label,When,X,Y,Z,UA_X,UA_Y,UA_Z,Pitch,Roll,Yaw"   // line 1: header without spaces
        lines[2] = "G,W,1763735405.01,0.025971,-0.395466"                 // line 3: 5 fields
        lines[3] = "M,W,1763735405.01,98.8,abc,-79.6"                     // line 4: not a number
        lines[4] = "X,W,1763735405.01,1,2,3"                              // line 5: unknown source
        lines[5] = "L,w,1763735405.0,52.5,13.4,34.2,5.12,87.5,0.0,3.1,4.6,3"  // line 6: bad label
        lines[6] = "A,W,1763735405.00,0.2,-0.4,-0.8"                      // line 7: When not increasing (and not shortest form)
        lines[7] = "A,W,1763735405.03,0.1"                                // line 8: torn (no LF at the end)
        let r = try check(lines.joined(separator: "\n"))
        let errors = r.problems.filter { $0.severity == .error }.map(\.line)
        #expect(errors == [1, 3, 4, 5, 6, 7])
        #expect(r.problems.contains { $0.line == 7 && $0.severity == .warning && $0.message.contains("shortest") })
        #expect(r.problems.contains { $0.line == 8 && $0.severity == .warning && $0.message.contains("incomplete") })
        #expect(!r.isValid)
    }

    @Test func aTornLastLineAloneIsOnlyAWarning() throws {
        let r = try check(good + "A,W,1763735405.03,0.1,0.")
        #expect(r.isValid)
        #expect(r.warnings == 1 && r.problems.first?.line == 8)
    }

    @Test func crlfAndEmptyFileAreErrors() throws {
        #expect(try check(good.replacingOccurrences(of: "\n", with: "\r\n")).errors > 0)
        #expect(try check("").errors == 1)
    }
}
