import Foundation
import Logging
@testable import MotionCore
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Power-loss recovery: files left by a recording that never finished are cut back to their
/// last complete row and get completed metadata; everything else is left alone.
@Suite("Power-loss recovery")
struct RecoveryTests {
    static let start = 1_763_735_405.0

    /// Writes `seconds` of A/G/M rows at `rate` Hz through the real writer and abandons it
    /// without `finish`, as a killed process would: the metadata still says `recording`.
    func interruptedRecording(in dir: String, seconds: Int = 2, rate: Int = 100) throws -> String {
        let description = RecordingDescription(
            id: "test", board: "test-board", boardDescription: nil, sensor: SensorInfo(model: "scripted"), gps: nil,
            deviceMotion: nil, rateHz: rate, sources: "AGM", label: "W", whenMode: .epoch, startEpoch: Self.start,
            started: "", clock: "simulated", rotateBytes: nil, rotateSeconds: nil, fsyncIntervalSeconds: 1,
            bufferRows: 1024, notes: [])
        let writer = RotatingWriter(directory: try DiskDirectory(path: dir), description: description,
                                    configuration: .init(rotation: .none, softwareVersion: "t"),
                                    counters: RecorderCounters(bufferCapacity: 1024), whenOffset: 0,
                                    log: Logger(label: "test"))
        var rows: [Row] = []
        for k in 0..<(seconds * rate) {
            let when = (Self.start * Double(rate) + Double(k)) / Double(rate)
            rows.append(Row(source: .accelerometer, label: Label.defaultLetter, when: when, 0.01 * Double(k), 0, -1))
            rows.append(Row(source: .gyroscope, label: Label.defaultLetter, when: when, 0, 0.5, 0))
            rows.append(Row(source: .magnetometer, label: Label.defaultLetter, when: when, 20, 0, -40))
        }
        rows.withUnsafeBufferPointer { writer.write($0) }
        writer.flushChunk()
        writer.sync()
        return writer.files[0]
    }

    func metadata(_ dir: String, _ csv: String) throws -> RecordingMetadata {
        try RecordingMetadata.decode(Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/" + csv.dropLast(4) + ".json"))))
    }

    func append(_ dir: String, _ csv: String, _ bytes: [UInt8]) throws {
        let h = try FileHandle(forWritingTo: URL(fileURLWithPath: dir + "/" + csv))
        try h.seekToEnd()
        try h.write(contentsOf: Data(bytes))
        try h.close()
    }

    func size(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? -1
    }

    /// Recovery judges a file by the metadata it reads once the file is locked: a part whose
    /// writer finished it after recovery's first look (its metadata said `recording`) is left
    /// as its writer wrote it, not marked recovered.
    @Test func aFileFinishedBeforeTheLockIsLeftAlone() throws {
        let dir = temporaryDirectory()
        let csv = try interruptedRecording(in: dir)
        var finished = try metadata(dir, csv)
        finished.endedCleanly = true
        finished.endReason = "rotated"
        let json = dir + "/" + csv.dropLast(4) + ".json"
        try Data(finished.encoded()).write(to: URL(fileURLWithPath: json))
        let before = try Data(contentsOf: URL(fileURLWithPath: json))
        guard case .finishedMeanwhile = try RecordingRecovery.recoverFile(folder: dir, name: csv, softwareVersion: "t") else {
            Issue.record("a finished file was recovered")
            return
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: json)) == before)
    }

    /// Killed at a rotation after the new part's metadata was written to its temporary file
    /// and before it was put in place: recovery completes that metadata (the recording's id,
    /// board and index stay), where it deleted it and rebuilt the part as a recording of its own.
    @Test func metadataLeftInItsTemporaryFileIsUsed() throws {
        let dir = temporaryDirectory()
        let csv = try interruptedRecording(in: dir)
        let json = dir + "/" + csv.dropLast(4) + ".json"
        try FileManager.default.moveItem(atPath: json, toPath: json + ".tmp")
        let report = RecordingRecovery.recover(folder: dir, softwareVersion: "t")
        #expect(report.recovered.map(\.name) == [csv] && report.failures.isEmpty, "\(report)")
        let after = try metadata(dir, csv)
        #expect(after.recording.id == "test" && after.recording.board == "test-board" && after.endReason == "recovered")
        #expect(after.recording.notes.contains { $0.contains(".json.tmp, written but not yet put in place") })
        #expect(!FileManager.default.fileExists(atPath: json + ".tmp"))
    }

    @Test func aTornLastLineIsCutAndTheMetadataCompleted() throws {
        let dir = temporaryDirectory()
        let csv = try interruptedRecording(in: dir)
        let before = try metadata(dir, csv)
        #expect(!before.endedCleanly && before.endReason == "recording")
        let intact = size(dir + "/" + csv)
        let torn = Array("A,W,1763735407.01,0.0".utf8)
        try append(dir, csv, torn)

        let report = RecordingRecovery.recover(folder: dir, softwareVersion: "t")
        #expect(report.recovered.count == 1 && report.failures.isEmpty && report.inUse.isEmpty)
        let file = try #require(report.recovered.first)
        #expect(file.name == csv && file.bytesCut == Int64(torn.count) && !file.metadataRebuilt)
        #expect(size(dir + "/" + csv) == intact)

        let check = try RecordingCheck.check(path: dir + "/" + csv)
        #expect(check.problems.isEmpty)
        let after = try metadata(dir, csv)
        #expect(!after.endedCleanly && after.endReason == "recovered")
        #expect(after.file.rows == ["A": 200, "G": 200, "M": 200])
        #expect(after.file.bytes == Int64(intact))
        #expect(after.file.firstWhen == Self.start && after.file.lastWhen == (Self.start * 100 + 199) / 100)
        #expect(after.recording.board == "test-board")
        #expect(after.ended != nil)
        #expect(after.recording.notes.last?.contains("bytes after the last complete row were cut") == true)
        #expect(!FileManager.default.fileExists(atPath: dir + "/" + csv.dropLast(4) + ".json.tmp"))
    }

    @Test func recoveryIsIdempotentAndLeavesCleanFilesAlone() throws {
        let dir = temporaryDirectory()
        let csv = try interruptedRecording(in: dir)
        try append(dir, csv, Array("G,W,17637".utf8))
        #expect(RecordingRecovery.recover(folder: dir, softwareVersion: "t").recovered.count == 1)
        let json = try Data(contentsOf: URL(fileURLWithPath: dir + "/" + csv.dropLast(4) + ".json"))
        let second = RecordingRecovery.recover(folder: dir, softwareVersion: "t")
        #expect(second.isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/" + csv.dropLast(4) + ".json")) == json)

        // A cleanly finished recording is never touched.
        var clean = try metadata(dir, csv)
        clean.endedCleanly = true
        clean.endReason = "stopped"
        try Data(clean.encoded()).write(to: URL(fileURLWithPath: dir + "/" + csv.dropLast(4) + ".json"))
        try append(dir, csv, Array("odd".utf8))
        let sizeBefore = size(dir + "/" + csv)
        #expect(RecordingRecovery.recover(folder: dir, softwareVersion: "t").isEmpty)
        #expect(size(dir + "/" + csv) == sizeBefore)
    }

    /// A file named provisionally (before GPS time was known) that a power cut interrupted
    /// is recovered like any other (it was never: offload waited for it for ever); another
    /// program's file is not touched.
    @Test func aProvisionallyNamedFileIsRecovered() throws {
        let dir = temporaryDirectory()
        let csv = try interruptedRecording(in: dir, seconds: 1)
        let provisional = "unsynced-3f2a9c1e-0000042.csv"
        try FileManager.default.moveItem(atPath: dir + "/" + csv, toPath: dir + "/" + provisional)
        try FileManager.default.removeItem(atPath: dir + "/" + csv.dropLast(4) + ".json")
        try append(dir, provisional, Array("A,W,1763735406.5,0.1".utf8))   // torn
        try "lat,lon\n1,2\n".write(toFile: dir + "/ride.csv", atomically: false, encoding: .utf8)
        #expect(RecordingRecovery.canRecover(folder: dir, name: provisional))
        #expect(!RecordingRecovery.canRecover(folder: dir, name: "ride.csv"))
        let report = RecordingRecovery.recover(folder: dir, softwareVersion: "9.9")
        #expect(report.recovered.count == 1 && report.failures.isEmpty, "\(report.recovered) \(report.failures)")
        let m = try metadata(dir, provisional)
        #expect(m.endReason == "recovered" && m.file.rows["A"] == 100)
        #expect(!FileManager.default.fileExists(atPath: dir + "/ride.json"))
        // NULs where the header should be (a FAT card's power cut before the first fsync):
        // recovery rewrites the header, so offload waits for it.
        try Data(repeating: 0, count: 4096).write(to: URL(fileURLWithPath: dir + "/20251121142005.csv"))
        #expect(RecordingRecovery.canRecover(folder: dir, name: "20251121142005.csv"))
    }

    @Test func missingMetadataIsRebuiltFromTheRows() throws {
        let dir = temporaryDirectory()
        let csv = try interruptedRecording(in: dir, seconds: 3, rate: 50)
        try FileManager.default.removeItem(atPath: dir + "/" + csv.dropLast(4) + ".json")
        let report = RecordingRecovery.recover(folder: dir, softwareVersion: "9.9")
        let file = try #require(report.recovered.first)
        #expect(file.metadataRebuilt && file.bytesCut == 0)
        let m = try metadata(dir, csv)
        #expect(!m.endedCleanly && m.endReason == "recovered")
        #expect(m.file.rows == ["A": 150, "G": 150, "M": 150])
        #expect(m.recording.rateHz == 50 && m.recording.sources == "AGM" && m.recording.whenMode == .epoch)
        #expect(m.recording.startEpoch == Self.start && m.software.version == "9.9")
        #expect(m.recording.notes.first?.contains("rebuilt from the CSV") == true)
    }

    /// Metadata that exists but cannot be read (damaged, or holding a number no recorder
    /// writes) is kept beside the rebuilt one, never written over: it was, with a new
    /// recording id, and a rotated part lost the recording it belonged to for good.
    @Test func unreadableMetadataIsKeptBesideTheRebuiltOne() throws {
        let dir = temporaryDirectory()
        let csv = try interruptedRecording(in: dir, seconds: 3, rate: 50)
        let json = dir + "/" + csv.dropLast(4) + ".json"
        var damaged = try String(contentsOfFile: json, encoding: .utf8)
        damaged = damaged.replacingOccurrences(of: "\"overruns\" : 0", with: "\"overruns\" : -1")
        #expect(damaged.contains("\"overruns\" : -1"))
        for round in 1...2 {
            try damaged.write(toFile: json, atomically: false, encoding: .utf8)
            let file = try #require(RecordingRecovery.recover(folder: dir, softwareVersion: "t").recovered.first)
            let kept = json + (round == 1 ? ".unreadable" : "-1.unreadable")
            #expect(file.metadataRebuilt && file.unreadableMetadataKeptAs == (kept as NSString).lastPathComponent)
            #expect(file.description.hasSuffix("the metadata it had could not be read and is kept as \((kept as NSString).lastPathComponent)"))
            #expect(try String(contentsOfFile: kept, encoding: .utf8) == damaged, "\(kept)")
            let m = try metadata(dir, csv)
            #expect(m.recording.notes.contains("the metadata it had could not be read and is kept as \((kept as NSString).lastPathComponent)"),
                    "\(m.recording.notes)")
        }
    }

    /// A rotated part whose metadata holds one number no recorder writes keeps its
    /// recording's id, index and previous part (a new random id made it a recording of its
    /// own); values that are themselves implausible are not taken.
    @Test func aRebuiltPartStaysPartOfItsRecording() throws {
        for hostile in [false, true] {
            let dir = temporaryDirectory()
            let csv = try interruptedRecording(in: dir, seconds: 1, rate: 50)
            let json = dir + "/" + csv.dropLast(4) + ".json"
            var doc = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any])
            var counters = doc["counters"] as? [String: Any] ?? [:], file = doc["file"] as? [String: Any] ?? [:]
            var recording = doc["recording"] as? [String: Any] ?? [:]
            counters["overruns"] = -1
            file["index"] = hostile ? 1e30 : 3
            file["previous"] = hostile ? "../../etc/passwd" : "20251121142500.csv"
            recording["id"] = hostile ? "not an id/\u{0}" : "5F1C2A9E-0B1D-4C52-9E7A-3D2B1C0A9F8E"
            doc["counters"] = counters; doc["file"] = file; doc["recording"] = recording
            try JSONSerialization.data(withJSONObject: doc).write(to: URL(fileURLWithPath: json))
            let report = RecordingRecovery.recover(folder: dir, softwareVersion: "t")
            #expect(report.recovered.first?.metadataRebuilt == true, "\(report)")
            let m = try metadata(dir, csv)
            if hostile {
                #expect(m.recording.id != "not an id/\u{0}" && m.file.index == 1 && m.file.previous == nil)
                #expect(!m.recording.notes.contains { $0.hasPrefix("taken from") }, "\(m.recording.notes)")
            } else {
                #expect(m.recording.id == "5F1C2A9E-0B1D-4C52-9E7A-3D2B1C0A9F8E" && m.file.index == 3 && m.file.previous == "20251121142500.csv")
                #expect(m.recording.notes.contains("taken from the metadata that could not be read: recording.id, file.index, file.previous"),
                        "\(m.recording.notes)")
            }
            #expect(m.recording.notes.first?.hasPrefix("metadata could not be read (how the file ended is not known)") == true, "\(m.recording.notes)")
        }
    }

    /// Metadata that is there but cannot be opened is not missing metadata: it is kept
    /// aside, never replaced by the rebuilt one (a folder of that name here; a file the
    /// daemon's user may not read is the same case).
    @Test func metadataThatCannotBeOpenedIsNotTakenForMissing() throws {
        let dir = temporaryDirectory()
        let csv = try interruptedRecording(in: dir, seconds: 1, rate: 50)
        let json = dir + "/" + csv.dropLast(4) + ".json"
        try FileManager.default.removeItem(atPath: json)
        try FileManager.default.createDirectory(atPath: json, withIntermediateDirectories: false)
        try "keep me".write(toFile: json + "/inside.txt", atomically: false, encoding: .utf8)
        let file = try #require(RecordingRecovery.recover(folder: dir, softwareVersion: "t").recovered.first)
        #expect(file.metadataRebuilt && file.unreadableMetadataKeptAs == (json as NSString).lastPathComponent + ".unreadable")
        #expect(try String(contentsOfFile: json + ".unreadable/inside.txt", encoding: .utf8) == "keep me")
        #expect(try metadata(dir, csv).ending == .recovered)
    }

    @Test func debrisAfterTheLastRowIsCutButDamageInsideIsKept() throws {
        let dir = temporaryDirectory()
        let csv = try interruptedRecording(in: dir, seconds: 1)
        let intact = size(dir + "/" + csv)
        // What a power cut on a card can leave: a torn row, NUL-filled blocks, a stray line end.
        try append(dir, csv, Array("M,W,1763735406.0,2".utf8) + [UInt8](repeating: 0, count: 5000) + [0x0A] + [UInt8](repeating: 0, count: 300))
        let report = RecordingRecovery.recover(folder: dir, softwareVersion: "t")
        #expect(report.recovered.first?.bytesCut == Int64(18 + 5000 + 1 + 300))
        #expect(size(dir + "/" + csv) == intact)
        #expect(try RecordingCheck.check(path: dir + "/" + csv).problems.isEmpty)

        // A damaged line in the middle followed by valid rows is not the tail: nothing is cut.
        let dir2 = temporaryDirectory()
        let csv2 = try interruptedRecording(in: dir2, seconds: 1)
        var text = try String(contentsOfFile: dir2 + "/" + csv2, encoding: .utf8)
        text = text.replacingOccurrences(of: "G,W,1763735405.5,0.0,0.5,0.0\n", with: "G,W,garbage\n")
        try text.write(toFile: dir2 + "/" + csv2, atomically: false, encoding: .utf8)
        let sizeBefore = size(dir2 + "/" + csv2)
        let report2 = RecordingRecovery.recover(folder: dir2, softwareVersion: "t")
        #expect(report2.recovered.first?.bytesCut == 0)
        #expect(size(dir2 + "/" + csv2) == sizeBefore)
        #expect(try metadata(dir2, csv2).file.rows == ["A": 100, "G": 99, "M": 100])
    }

    @Test func aFileTornRightAfterCreationGetsItsHeader() throws {
        for content in [[], Array("Source, Lab".utf8), [UInt8](repeating: 0, count: 4096)] {
            let dir = temporaryDirectory()
            let name = "20261121143005.csv"
            #expect(FileManager.default.createFile(atPath: dir + "/" + name, contents: Data(content)))
            let report = RecordingRecovery.recover(folder: dir, softwareVersion: "t")
            let file = try #require(report.recovered.first)
            #expect(file.headerRewritten && file.metadataRebuilt && file.rows.isEmpty)
            #expect(try String(contentsOfFile: dir + "/" + name, encoding: .utf8) == CSVFormat.headerLine + "\n")
            #expect(try RecordingCheck.check(path: dir + "/" + name).isValid)
            #expect(try metadata(dir, name).endReason == "recovered")
        }
    }

    @Test func aFileHeldByARunningRecordingIsLeftAlone() throws {
        let dir = temporaryDirectory()
        let csv = try interruptedRecording(in: dir)
        try append(dir, csv, Array("A,W,1".utf8))
        // The writer holds an exclusive flock on its CSV for as long as it writes.
        let fd = open(dir + "/" + csv, O_RDONLY)
        defer { close(fd) }
        #expect(flock(fd, LOCK_EX | LOCK_NB) == 0)
        let sizeBefore = size(dir + "/" + csv)
        let report = RecordingRecovery.recover(folder: dir, softwareVersion: "t")
        #expect(report.inUse == [csv] && report.recovered.isEmpty)
        #expect(size(dir + "/" + csv) == sizeBefore)
    }

    @Test func theWriterLocksTheFileItIsWriting() throws {
        let dir = temporaryDirectory()
        let directory = try DiskDirectory(path: dir)
        let (base, file) = try directory.createExclusive(base: "20261121143005", ext: ".csv")
        let fd = open(dir + "/" + base + ".csv", O_RDONLY)
        defer { close(fd) }
        #expect(flock(fd, LOCK_EX | LOCK_NB) != 0)
        try file.close()
        #expect(flock(fd, LOCK_EX | LOCK_NB) == 0)
    }

    @Test func foreignFilesAreIgnoredOrReportedNeverChanged() throws {
        let dir = temporaryDirectory()
        try "a,b\n1,2".write(toFile: dir + "/notes.csv", atomically: false, encoding: .utf8)
        try "a,b\n1,2".write(toFile: dir + "/20261121143005-2.csv", atomically: false, encoding: .utf8)
        let report = RecordingRecovery.recover(folder: dir, softwareVersion: "t")
        #expect(report.recovered.isEmpty)
        #expect(report.failures.count == 1 && report.failures[0].message.contains("not the format's header"))
        #expect(try String(contentsOfFile: dir + "/20261121143005-2.csv", encoding: .utf8) == "a,b\n1,2")
        #expect(!FileManager.default.fileExists(atPath: dir + "/notes.json"))
        #expect(RecordingRecovery.recover(folder: dir + "/missing", softwareVersion: "t").isEmpty)
    }

    @Test func recordingNamesAreRecognised() {
        #expect(RecordingRecovery.isRecordingName("20261121143005.csv"))
        #expect(RecordingRecovery.isRecordingName("20261121143005-12.csv"))
        #expect(!RecordingRecovery.isRecordingName("20261121143005-.csv"))
        #expect(!RecordingRecovery.isRecordingName("2026112114300.csv"))
        #expect(!RecordingRecovery.isRecordingName("20261121143005.json"))
        #expect(!RecordingRecovery.isRecordingName("ride.csv"))
    }
}
