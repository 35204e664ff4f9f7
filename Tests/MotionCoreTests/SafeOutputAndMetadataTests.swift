import Foundation
import MotionCore
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Files written by commands (issue 10, item 2) and the metadata JSON (item 13).
@Suite("Safe output files and metadata for programs")
struct SafeOutputAndMetadataTests {
    func file(_ dir: String, _ name: String, _ text: String) throws -> String {
        let path = dir + "/" + name
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    func contents(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func anInputIsNeverAnOutputWhateverItsName() throws {
        let dir = temporaryDirectory()
        let input = try file(dir, "x.csv", "recording\n")
        #expect(link(input, dir + "/hard.csv") == 0)
        #expect(symlink(input, dir + "/soft.csv") == 0)
        for output in [input, dir + "/./x.csv", dir + "/../" + (dir as NSString).lastPathComponent + "/x.csv",
                       dir + "/hard.csv", dir + "/soft.csv"] {
            #expect(throws: SafeOutputError.self, "\(output)") {
                _ = try SafeOutputFile(path: output, inputs: [input], overwrite: true)
            }
        }
        #expect(contents(input) == "recording\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["hard.csv", "soft.csv", "x.csv"])
    }

    @Test func anExistingOutputNeedsOverwriteAndIsReplacedWhole() throws {
        let dir = temporaryDirectory()
        let existing = try file(dir, "out.gpx", "old\n")
        do {
            _ = try SafeOutputFile(path: existing, inputs: [], overwrite: false)
            Issue.record("an existing file was accepted without overwrite")
        } catch {
            #expect(error.kind == .exists)
            #expect("\(error)".contains("--force"))
        }
        let out = try SafeOutputFile(path: existing, inputs: [], overwrite: true)
        try out.write(Array("new\n".utf8))
        #expect(contents(existing) == "old\n")  // nothing changes before commit
        try out.commit()
        #expect(contents(existing) == "new\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["out.gpx"])  // no temporary left
    }

    @Test func aFileThatAppearsMeanwhileIsNotReplaced() throws {
        let dir = temporaryDirectory()
        let out = try SafeOutputFile(path: dir + "/o.csv", inputs: [], overwrite: false)
        try out.write(Array("mine\n".utf8))
        _ = try file(dir, "o.csv", "theirs\n")
        #expect(throws: SafeOutputError.self) { try out.commit() }
        #expect(contents(dir + "/o.csv") == "theirs\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["o.csv"])
    }

    /// A recording made by a command is put in place metadata first (a CSV alone reads as a
    /// logger's crashed recording); when its CSV's name was taken meanwhile, the metadata
    /// placed for it is taken back and the file that took the name is left as it is.
    @Test func aRecordingIsPutInPlaceMetadataFirstOrNotAtAll() throws {
        let dir = temporaryDirectory()
        let csv = try SafeOutputFile(path: dir + "/20251121143005.csv", inputs: [], overwrite: false)
        let json = try SafeOutputFile(path: dir + "/20251121143005.json", inputs: [], overwrite: false)
        try csv.write(Array("rows\n".utf8))
        try json.write(Array("{}\n".utf8))
        _ = try file(dir, "20251121143005.csv", "a logger's recording\n")
        #expect(throws: SafeOutputError.self) { try SafeOutputFile.commitRecording(csv: csv, metadata: json) }
        #expect(contents(dir + "/20251121143005.csv") == "a logger's recording\n")
        #expect(!FileManager.default.fileExists(atPath: dir + "/20251121143005.json"))
        let (csv2, json2) = (try SafeOutputFile(path: dir + "/20251121143006.csv", inputs: [], overwrite: false),
                             try SafeOutputFile(path: dir + "/20251121143006.json", inputs: [], overwrite: false))
        try csv2.write(Array("rows\n".utf8))
        try json2.write(Array("{}\n".utf8))
        try SafeOutputFile.commitRecording(csv: csv2, metadata: json2)
        #expect(contents(dir + "/20251121143006.csv") == "rows\n" && contents(dir + "/20251121143006.json") == "{}\n")
    }

    @Test func aDiscardedOutputLeavesNothing() throws {
        let dir = temporaryDirectory()
        do {
            let out = try SafeOutputFile(path: dir + "/o.csv", inputs: [], overwrite: false)
            try out.write(Array("partial".utf8))
            out.discard()
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
        do {
            _ = try SafeOutputFile(path: dir + "/missing/o.csv", inputs: [], overwrite: false)
            Issue.record("created a file in a missing folder")
        } catch {
            #expect("\(error)".contains("does not exist"), "\(error)")
            #expect(!"\(error)".contains("NSCocoaErrorDomain"))
        }
    }

    static func metadata(clock: String, time: GPSTimeRecord?) -> RecordingMetadata {
        let description = RecordingDescription(
            id: "id", board: "simulator", boardDescription: nil, sensor: SensorInfo(model: "simulated"), gps: nil,
            deviceMotion: nil, rateHz: 100, sources: "AG", label: "W", whenMode: .epoch, startEpoch: 1_763_735_405,
            started: TimeText.isoUTC(epochSeconds: 1_763_735_405), clock: clock, rotateBytes: nil, rotateSeconds: nil,
            fsyncIntervalSeconds: 1, bufferRows: 100, notes: [],
            calibration: CalibrationRecord(gyroBiasRadPerS: [0.001, -0.002, 0.0003], magHardIronMicrotesla: [12, -7, 20],
                                           magSoftIron: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], accelOffsetG: [0, 0, 0],
                                           accelScale: [1, 1, 1], origin: "/etc/motionlog/config.yaml"))
        var counters = CounterSnapshot()
        counters.time = time
        return RecordingMetadata(software: .init(version: "test"), recording: description,
                                 file: .init(name: "x.csv", index: 1, previous: nil), counters: counters,
                                 endedCleanly: true, endReason: "stopped",
                                 ended: TimeText.isoUTC(epochSeconds: 1_763_735_465.5))
    }

    /// A metadata file without its CSV takes the name: a recording begun that second gets
    /// `-1` instead of writing its metadata over the file someone left there.
    @Test func aLoneMetadataFileTakesItsName() throws {
        let dir = NSTemporaryDirectory() + "lone-json-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        _ = try file(dir, "20261127044338.json", "{\"precious\": true}")
        let directory = try DiskDirectory(path: dir)
        let (name, f) = try directory.createExclusive(base: "20261127044338", ext: ".csv")
        try f.close()
        #expect(name == "20261127044338-1")
        #expect(contents(dir + "/20261127044338.json") == "{\"precious\": true}")
    }

    @Test func theClockIsNamedOnceAndNumbersAreNumbers() throws {
        var time = GPSTimeRecord(clock: "system-unsynchronised", systemClockSynchronised: false)
        time.clock = "gps"
        let bytes = Self.metadata(clock: "system", time: time).encoded()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        let recording = try #require(object["recording"] as? [String: Any])
        #expect(recording["clock"] as? String == "gps")
        let counters = try #require(object["counters"] as? [String: Any])
        #expect((counters["time"] as? [String: Any])?["clock"] == nil)
        let calibration = try #require(recording["calibration"] as? [String: Any])
        #expect((calibration["gyroBiasRadPerS"] as? [NSNumber])?.map(\.doubleValue) == [0.001, -0.002, 0.0003])
        #expect(recording["started"] as? String == "2025-11-21T14:30:05.000Z")
        #expect(object["ended"] as? String == "2025-11-21T14:31:05.500Z")
        let back = try RecordingMetadata.decode(bytes)
        #expect(back.recording.clock == "gps" && back.counters.time?.clock == "gps")
    }

    @Test func olderMetadataIsStillRead() throws {
        // As written before: clock twice (disagreeing), dates with +0000, calibration as text.
        let old = """
            {"counters":{"droppedRows":0,"fsyncs":3,"missedTicks":0,"overruns":0,"peakBufferFill":0.1,"peakBufferRows":10,
             "rejectedFixes":0,"rowsLostToWriteErrors":0,"sensorHealth":{"busErrors":0,"gapTicks":0,"magNotReady":0,
             "magOverflow":0,"reinitializations":0},"time":{"clock":"gps","correctionSeconds":0.5,"slewRemainingSeconds":0,
             "steps":1,"systemClockSynchronised":false},"worstWriteLatencyMs":1.5,"writeErrors":0},
             "ended":"2026-11-21T14:31:05+0000","endedCleanly":true,"endReason":"stopped",
             "file":{"bytes":66,"index":1,"name":"x.csv","rows":{}},"format":"MotionCollector CSV with L rows (FORMAT.md)",
             "recording":{"bufferRows":100,"clock":"system","deviceMotion":{"calibration":"gyro_bias [0.001, 0.0, 0.0] rad/s"},
             "fsyncIntervalSeconds":1,"id":"x","board":"b","label":"W","notes":[],"rateHz":100,"sensor":{"model":"m","notes":[]},
             "sources":"AG","startEpoch":1763735405,"started":"2026-11-21T14:30:05+0000","whenMode":"epoch"},
             "software":{"name":"motionlog","version":"0.1"}}
            """
        let m = try RecordingMetadata.decode(Array(old.utf8))
        #expect(m.recording.clock == "gps")
        #expect(m.counters.time?.correctionSeconds == 0.5)
        #expect(m.recording.calibration == nil)
    }

    /// A time a fraction of a microsecond before a second (a relative When plus its start)
    /// is that second, not the one before; a time within the second stays in it.
    @Test func localTimesRoundToTheMillisecondFirst() {
        #expect(TimeText.isoLocal(epochSeconds: 1_763_735_404.9999998) == TimeText.isoLocal(epochSeconds: 1_763_735_405))
        #expect(TimeText.isoLocal(epochSeconds: 1_763_735_404.9994) == TimeText.isoLocal(epochSeconds: 1_763_735_404))
    }

    @Test func localTimesHaveAnISO8601Offset() {
        let text = TimeText.isoLocal(epochSeconds: 1_763_735_405)
        let offset = text.dropFirst(19)
        #expect(offset == "Z" || (offset.count == 6 && offset.dropFirst(3).first == ":"), "\(text)")
    }
}
