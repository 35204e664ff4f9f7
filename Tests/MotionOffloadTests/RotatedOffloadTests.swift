import Foundation
import MotionCore
@testable import MotionOffload
import Testing

/// A recording that rotation split into several files is one recording in every report:
/// the sentences, the progress the daemon shows, the upload's. Before, five parts of one
/// recording were "Copied 5 recordings", and the daemon showed "3 of 5 recordings".
@Suite("Offload of rotated recordings")
struct RotatedOffloadTests {
    let t0 = 1_763_735_405.0
    /// Five parts of one recording, an hour apart.
    let parts = (4...8).map { "202511211\($0)2005" }

    /// The bytes of every file in `folder` whose name starts with one of `bases`.
    static func bytes(_ folder: String, _ bases: [String]) -> Int64 {
        files(in: folder).filter { name in bases.contains { name.hasPrefix($0 + ".") } }.reduce(Int64(0)) {
            $0 + Int64(FileManager.default.contents(atPath: folder + "/" + $1)?.count ?? 0)
        }
    }

    /// The progress as the daemon reads it: its JSON object.
    func json(_ p: OffloadProgress) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: p.encoded()) as? [String: Any])
    }

    @Test func fivePartsOfOneRecordingAreOneRecordingInTheReportAndTheProgress() throws {
        let source = RecordingFolder(), target = RecordingFolder()
        defer { source.remove(); target.remove() }
        try source.addRotated(parts, start: t0, rows: 300)
        try source.addFinished("20251122092005", start: t0 + 86_400, rows: 300)
        let all = Self.bytes(source.path, parts + ["20251122092005"])
        let job = FolderOffload(source: source.path, target: target.path, options: .init())
        var seen: [OffloadProgress] = []
        let report = try job.run { seen.append($0) }
        #expect(report.lines().first == "Copied 2 recordings (12 files, \(ByteText.describe(all))).", "\(report.lines())")
        let first = try json(try #require(seen.first)), last = try json(try #require(seen.last))
        #expect(first["recordings_total"] as? Int == 2 && first["files_total"] as? Int == 12, "\(first)")
        #expect(last["recordings_done"] as? Int == 2 && last["files_done"] as? Int == 12, "\(last)")
        #expect((last["message"] as? String)?.hasPrefix("Copied 2 recordings (12 files") == true)
        // Part by part, a recording is done when its last part is.
        let done = seen.compactMap { try? json($0)["recordings_done"] as? Int }
        #expect(Set(done) == [0, 1, 2], "\(done)")

        let again = try job.run()
        #expect(again.lines().first == "Copied 0 recordings; 2 already there (12 files).", "\(again.lines())")
    }

    /// The first offload ran while the recording was still being written (its later parts
    /// were not there yet); the next copies the rest and says so.
    @Test func aRecordingCopiedInTwoRunsIsOneRecordingInEach() throws {
        let source = RecordingFolder(), target = RecordingFolder(), later = RecordingFolder()
        defer { source.remove(); target.remove(); later.remove() }
        try source.addRotated(parts, start: t0, rows: 300)
        let laterParts = Array(parts.suffix(2))
        for name in files(in: source.path) where laterParts.contains(where: { name.hasPrefix($0) }) {
            try FileManager.default.moveItem(atPath: source.path + "/" + name, toPath: later.path + "/" + name)
        }
        let job = FolderOffload(source: source.path, target: target.path, options: .init())
        let first = try job.run()
        #expect(first.lines().first == "Copied 1 recording (6 files, \(ByteText.describe(Self.bytes(source.path, parts)))).", "\(first.lines())")
        for name in files(in: later.path) {
            try FileManager.default.moveItem(atPath: later.path + "/" + name, toPath: source.path + "/" + name)
        }
        let second = try job.run()
        // One recording, completed: not "1 recording; part of 1 recording already there".
        #expect(second.lines().first == "Copied the rest of 1 recording (4 files, \(ByteText.describe(Self.bytes(source.path, laterParts))); "
                    + "6 files were already there).", "\(second.lines())")
    }

    @Test func aRecordingStillBeingRecordedIsCopiedOnlyInPartAndSaysSo() throws {
        let source = RecordingFolder(), target = RecordingFolder()
        defer { source.remove(); target.remove() }
        let three = Array(parts.prefix(3))
        try source.addRotated(three, start: t0, rows: 300)
        // The last part is being written: metadata without an end, the writer's lock held.
        let metaPath = RecordingFiles.metadataPath(for: source.path + "/" + three[2])
        var meta = try RecordingMetadata.decode(Array(try Data(contentsOf: URL(fileURLWithPath: metaPath))))
        meta.endedCleanly = false
        meta.endReason = FileEnding.recordingReason
        try Data(meta.encoded()).write(to: URL(fileURLWithPath: metaPath))
        let fd = open(source.path + "/" + three[2] + ".csv", O_RDONLY | O_CLOEXEC)
        #expect(flock(fd, LOCK_EX) == 0)
        defer { close(fd) }
        var options = FolderOffloadOptions()
        options.deleteAfterCopy = true
        let report = try FolderOffload(source: source.path, target: target.path, options: options).run()
        let copied = Self.bytes(target.path, Array(three.prefix(2)))
        #expect(report.lines().first == "Copied 1 recording (4 files, \(ByteText.describe(copied))); "
                    + "1 recording is still being recorded: its later parts are copied next time.", "\(report.lines())")
        #expect(report.deleted == Array(three.prefix(2)))
    }

    @Test func partsThatDidNotFitLeaveARecordingCopiedOnlyInPart() throws {
        let source = RecordingFolder(), target = RecordingFolder()
        defer { source.remove(); target.remove() }
        let three = Array(parts.prefix(3))
        try source.addRotated(three, start: t0, rows: 2000)
        var options = FolderOffloadOptions()
        options.targetReserveBytes = 0
        var job = FolderOffload(source: source.path, target: target.path, options: options)
        // Room for two parts: the space left shrinks by what was copied.
        let capacity = Self.bytes(source.path, Array(three.prefix(2))) + 4096
        job.availableBytes = { capacity - Self.bytes($0, three) }
        job.allocationBytes = { _ in 1 }
        var seen: [OffloadProgress] = []
        let report = try job.run { seen.append($0) }
        #expect(report.lines().first == "Copied 1 recording (4 files, \(ByteText.describe(Self.bytes(target.path, three)))), only in part.",
                "\(report.lines())")
        #expect(report.lines().contains { $0.hasPrefix("Did not fit (2 files of 1 recording, ") && $0.contains(three[2]) })
        // The totals are what the run set out to copy; the part left behind is not done, so
        // neither the recording nor 100 % is, and the run ends incomplete, not done.
        let last = try #require(seen.last)
        #expect(last.state == .incomplete)
        #expect((last.recordingsDone, last.recordingsTotal, last.filesDone, last.filesTotal) == (0, 1, 4, 6))
        #expect(last.bytesTotal == Self.bytes(source.path, three) && last.percent < 100, "\(last)")
        #expect(seen.allSatisfy { $0.filesTotal == 6 && $0.recordingsTotal == 1 && $0.bytesTotal == last.bytesTotal })
    }

    @Test func nothingThatFitsIsIncompleteAtNoPercent() throws {
        let source = RecordingFolder(), target = RecordingFolder()
        defer { source.remove(); target.remove() }
        let three = Array(parts.prefix(3))
        try source.addRotated(three, start: t0, rows: 300)
        var job = FolderOffload(source: source.path, target: target.path, options: FolderOffloadOptions())
        job.availableBytes = { _ in 4096 }
        var last: OffloadProgress?
        let report = try job.run { last = $0 }
        #expect(!report.complete)
        let end = try #require(last)
        #expect(end.state == .incomplete && end.percent == 0 && end.filesDone == 0 && end.filesTotal == 6, "\(end)")
        #expect(end.countsText == "0 of 1 recording (0 of 6 files), 0 %")
    }

    @Test func percentIsWholeOnlyWhenEveryFileIs() {
        func p(_ files: (Int, Int), _ bytes: (Int64, Int64)) -> Int {
            OffloadProgress(state: .copying, target: "t", filesDone: files.0, filesTotal: files.1,
                            bytesDone: bytes.0, bytesTotal: bytes.1, pid: 1, updated: 0).percent
        }
        #expect(p((0, 0), (0, 0)) == 100)
        #expect(p((0, 2), (0, 0)) == 0)
        #expect(p((1, 2), (100, 100)) == 99)
        #expect(p((1, 2), (999, 1000)) == 99)
        #expect(p((2, 2), (100, 100)) == 100)
        // An old progress file has no file counts: bytes alone decide.
        #expect(p((0, 0), (50, 100)) == 50)
    }

    @Test func deletedPartsAreCountedAsFilesOfOneRecording() throws {
        let source = RecordingFolder(), target = RecordingFolder()
        defer { source.remove(); target.remove() }
        let three = Array(parts.prefix(3))
        try source.addRotated(three, start: t0, rows: 300)
        var options = FolderOffloadOptions()
        options.deleteAfterCopy = true
        let report = try FolderOffload(source: source.path, target: target.path, options: options).run()
        #expect(report.lines().contains("Deleted from the card after verification: 6 files of 1 recording: "
                                        + three.joined(separator: ", ") + "."), "\(report.lines())")
        #expect(files(in: source.path).isEmpty)
    }

    @Test func anUploadCountsTheRecordingOnceAndEachPartsFilesInItsLog() throws {
        let source = RecordingFolder()
        defer { source.remove() }
        let three = Array(parts.prefix(3))
        try source.addRotated(three, start: t0, rows: 300)
        let all = Self.bytes(source.path, three)
        let job = RemoteUpload(source: source.path, host: "pi", options: RemoteUploadOptions(remote: "nas:rides"),
                               runner: RemoteUploadTests.ScriptedRclone([]))
        var log: [String] = []
        let report = try job.run { log.append($0) }
        #expect(report.lines().first == "Sent 1 recording (6 files, \(ByteText.describe(all))).", "\(report.lines())")
        #expect(log.count == 3 && log.allSatisfy { $0.contains(": 2 files, ") }, "\(log)")
        let again = try job.run()
        #expect(again.lines().first == "Sent 0 recordings; 1 sent before (6 files).", "\(again.lines())")
    }
}

extension RotatedOffloadTests {
    /// The daemon reads progress files of the offload it started, which may be an older
    /// version's (no file counts): still read, shown without them.
    @Test func aProgressFileWithoutFileCountsIsStillRead() throws {
        let old = #"{"bytes_done":30,"bytes_total":120,"pid":7,"recordings_done":1,"recordings_total":4,"state":"copying","target":"/dev/sda1","updated":1.0}"#
        let p = try #require(OffloadProgress.decode(Data(old.utf8)))
        #expect(p.filesTotal == 0 && p.countsText == "1 of 4 recordings, 25 %")
        let new = OffloadProgress(state: .copying, target: "/dev/sda1", recordingsDone: 0, recordingsTotal: 1, filesDone: 3,
                                  filesTotal: 10, bytesDone: 1, bytesTotal: 2, pid: 7, updated: 1)
        #expect(new.countsText == "0 of 1 recording (3 of 10 files), 50 %")
        #expect(OffloadProgress.decode(new.encoded()) == new)
    }
}
