import Foundation
import MotionCore
@testable import MotionOffload
import MotionTestSupport
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Copies to a folder: what is copied, in which order, verified how, and what is left alone.
@Suite("Offload to a folder")
struct FolderOffloadTests {
    let t0 = 1_763_735_405.0

    @Test func copiesFinishedRecordingsWithAManifestThatMatchesAnIndependentHash() throws {
        let source = RecordingFolder(), target = RecordingFolder()
        defer { source.remove(); target.remove() }
        try source.addFinished("20251121142005", start: t0, rows: 500)
        try source.addFinished("20251121152005", start: t0 + 3600, rows: 800)
        let report = try FolderOffload(source: source.path, target: target.path + "/logger", options: .init()).run()
        #expect(report.copied == ["20251121142005", "20251121152005"])
        #expect(report.complete)
        let out = target.path + "/logger"
        #expect(files(in: out) == ["20251121142005.csv", "20251121142005.json", "20251121152005.csv",
                                   "20251121152005.json", "manifest.csv"])
        for name in ["20251121142005.csv", "20251121142005.json", "20251121152005.csv", "20251121152005.json"] {
            #expect(source.bytes(name) == FileManager.default.contents(atPath: out + "/" + name))
        }
        let manifest = try String(contentsOfFile: out + "/manifest.csv", encoding: .utf8).split(separator: "\n")
        #expect(manifest.first == "file,size_bytes,sha256,copied_at")
        #expect(manifest.count == 5)
        for line in manifest.dropFirst() {
            let f = line.split(separator: ",").map(String.init)
            #expect(f[2] == (try sha256sum(source.path + "/" + f[0])))
            #expect(Int64(f[1]) == Int64(source.bytes(f[0])?.count ?? -1))
            #expect(f[3].hasSuffix("Z"))
        }
    }

    @Test func aSecondRunCopiesNothingAgainAndANewRecordingOnlyThatOne() throws {
        let source = RecordingFolder(), target = RecordingFolder()
        defer { source.remove(); target.remove() }
        try source.addFinished("20251121142005", start: t0, rows: 300)
        let job = FolderOffload(source: source.path, target: target.path, options: .init())
        _ = try job.run()
        let manifestBefore = target.bytes("manifest.csv")
        let again = try job.run()
        #expect(again.copied.isEmpty && again.alreadyThere == ["20251121142005"] && again.bytesCopied == 0)
        #expect(target.bytes("manifest.csv") == manifestBefore)
        try source.addFinished("20251121152005", start: t0 + 3600, rows: 300)
        let third = try job.run()
        #expect(third.copied == ["20251121152005"] && third.alreadyThere == ["20251121142005"])
    }

    /// A file the manifest lists but the stick no longer holds (deleted there, a damaged
    /// stick) is copied again; and --delete-after-copy removes a recording from the card only
    /// when every file is on the target with the card's contents. Before, the missing CSV
    /// was skipped as listed, "Copied 1 recording (0 B)", and the card's only copy deleted.
    @Test func aListedFileMissingOnTheTargetIsCopiedAgainBeforeAnythingIsDeleted() throws {
        let source = RecordingFolder(), target = RecordingFolder()
        defer { source.remove(); target.remove() }
        try source.addFinished("20251121142005", start: t0, rows: 300)
        _ = try FolderOffload(source: source.path, target: target.path, options: .init()).run()
        let csv = source.bytes("20251121142005.csv")
        try FileManager.default.removeItem(atPath: target.path + "/20251121142005.csv")
        var options = FolderOffloadOptions()
        options.deleteAfterCopy = true
        let report = try FolderOffload(source: source.path, target: target.path, options: options).run()
        #expect(report.copied == ["20251121142005"] && report.bytesCopied == Int64(csv?.count ?? -1))
        #expect(target.bytes("20251121142005.csv") == csv && csv != nil)
        #expect(report.deleted == ["20251121142005"] && source.bytes("20251121142005.csv") == nil)
    }

    /// A recordings folder the offload may not change (another user's, a read-only card)
    /// with --delete-after-copy: said once, before anything is copied, and every recording
    /// copied and kept. It was one "cannot delete" per recording, each after its copy.
    @Test func aFolderItMayNotChangeIsSaidOnceAndEverythingIsCopied() throws {
        let source = RecordingFolder(), target = RecordingFolder()
        defer { source.remove(); target.remove() }
        try source.addFinished("20251121142005", start: t0, rows: 300)
        try source.addFinished("20251121152005", start: t0 + 3600, rows: 300)
        guard let view = ReadOnlyView(source.path) else {
            print("skipped: no read-only view of a folder can be made here (root without mount rights)")
            return
        }
        defer { view.undo() }
        var options = FolderOffloadOptions()
        options.deleteAfterCopy = true
        let report = try FolderOffload(source: view.path, target: target.path, options: options).run()
        #expect(report.copied == ["20251121142005", "20251121152005"] && report.deleted.isEmpty)
        #expect(report.failures.count == 1, "\(report.failures)")
        #expect(report.failures.first?.description.contains("they are copied but stay on the card") == true)
        #expect(source.bytes("20251121142005.csv") != nil && source.bytes("20251121152005.csv") != nil)
        #expect(target.bytes("20251121152005.csv") == source.bytes("20251121152005.csv"))
    }

    /// With delete-after-copy turned on later, recordings an earlier run copied are deleted
    /// too, once both sides read the same (they stayed on the card for good).
    @Test func deleteAfterCopyAlsoFreesWhatAnEarlierRunCopied() throws {
        let source = RecordingFolder(), target = RecordingFolder()
        defer { source.remove(); target.remove() }
        try source.addFinished("20251121142005", start: t0, rows: 300)
        _ = try FolderOffload(source: source.path, target: target.path, options: .init()).run()
        var options = FolderOffloadOptions()
        options.deleteAfterCopy = true
        let report = try FolderOffload(source: source.path, target: target.path, options: options).run()
        #expect(report.alreadyThere == ["20251121142005"] && report.deleted == ["20251121142005"] && report.failures.isEmpty)
        #expect(source.bytes("20251121142005.csv") == nil && target.bytes("20251121142005.csv") != nil)
    }

    /// A sidecar listed and of the right size but with other contents on the target: the
    /// recording is not deleted from the card (the manifest says what was there once).
    @Test func deleteAfterCopyRereadsWhatItDidNotCopyNow() throws {
        let source = RecordingFolder(), target = RecordingFolder()
        defer { source.remove(); target.remove() }
        try source.addFinished("20251121142005", start: t0, rows: 300)
        _ = try FolderOffload(source: source.path, target: target.path, options: .init()).run()
        let json = try #require(target.bytes("20251121142005.json"))
        try FileManager.default.removeItem(atPath: target.path + "/20251121142005.csv")
        try Data(repeating: 0x20, count: json.count).write(to: URL(fileURLWithPath: target.path + "/20251121142005.json"))
        var options = FolderOffloadOptions()
        options.deleteAfterCopy = true
        let report = try FolderOffload(source: source.path, target: target.path, options: options).run()
        #expect(report.deleted.isEmpty)
        #expect(report.failures.contains { "\($0)".contains("not on the target with the same contents; kept") }, "\(report.failures)")
        #expect(source.bytes("20251121142005.csv") != nil && source.bytes("20251121142005.json") != nil)
    }

    /// A finished recording whose metadata cannot be read is not copied and is not said to
    /// be cut off by a power cut (it was: "Not finished (a power cut?)").
    @Test func aRecordingWithUnreadableMetadataIsSaidSo() throws {
        let source = RecordingFolder(), target = RecordingFolder()
        defer { source.remove(); target.remove() }
        try source.addFinished("20251121142005", start: t0, rows: 100)
        try source.addFinished("20251121152005", start: t0 + 3600, rows: 100)
        try "{\"format\":".write(toFile: source.path + "/20251121152005.json", atomically: false, encoding: .utf8)
        let report = try FolderOffload(source: source.path, target: target.path, options: FolderOffloadOptions()).run()
        #expect(report.copied == ["20251121142005"])
        #expect(report.awaitingRecovery == ["20251121152005.csv"] && report.unreadableMetadata == ["20251121152005.csv"])
        #expect(report.lines().contains("Metadata that cannot be read (`motionlog check` says why), copied after the next start rebuilds it from the rows and keeps it beside: 20251121152005.csv."),
                "\(report.lines())")
        #expect(!report.lines().contains { $0.contains("power cut") }, "\(report.lines())")
    }

    /// A cached summary is not copied: it is rewritten whenever the analysis changes, and a
    /// copy on the stick that differed stopped every later offload as a conflict. It goes
    /// with the recording when the recording is deleted from the card.
    @Test func aCachedSummaryIsNotCopiedAndGoesWithItsRecording() throws {
        let source = RecordingFolder(), target = RecordingFolder()
        defer { source.remove(); target.remove() }
        try source.addFinished("20251121142005", start: t0, rows: 100)
        let cache = source.path + "/20251121142005" + RecordingFiles.summaryCacheSuffix
        try "{\"analysis_version\":21}".write(toFile: cache, atomically: false, encoding: .utf8)
        let first = try FolderOffload(source: source.path, target: target.path, options: FolderOffloadOptions()).run()
        #expect(first.copied == ["20251121142005"] && first.complete)
        #expect(!files(in: target.path).contains { $0.hasSuffix(RecordingFiles.summaryCacheSuffix) }, "\(files(in: target.path))")
        try "{\"analysis_version\":22}".write(toFile: cache, atomically: false, encoding: .utf8)
        var options = FolderOffloadOptions()
        options.deleteAfterCopy = true
        let second = try FolderOffload(source: source.path, target: target.path, options: options).run()
        #expect(second.complete && second.conflicts.isEmpty && second.alreadyThere == ["20251121142005"], "\(second.lines())")
        #expect(second.deleted == ["20251121142005"] && files(in: source.path).isEmpty, "\(files(in: source.path))")
    }

    /// A CSV without metadata that recovery never repairs (another program's file, or
    /// binary data under a recorder's name) was "copied after the next start recovers it"
    /// run after run, with exit 0: it is said not to be copied, and the run is incomplete.
    @Test func aFileRecoveryCannotRepairIsSaidNotCopied() throws {
        let source = RecordingFolder(), target = RecordingFolder()
        defer { source.remove(); target.remove() }
        try source.addFinished("20251121142005", start: t0, rows: 100)
        try "lat,lon\n52.5,13.4\n".write(toFile: source.path + "/walk.csv", atomically: false, encoding: .utf8)
        try "garbage\n".write(toFile: source.path + "/20251121152005.csv", atomically: false, encoding: .utf8)
        try String(CSVFormat.headerLine.prefix(10)).write(toFile: source.path + "/20251121162005.csv", atomically: false, encoding: .utf8)
        let report = try FolderOffload(source: source.path, target: target.path, options: FolderOffloadOptions()).run()
        #expect(report.copied == ["20251121142005"])
        #expect(report.unrecoverable.sorted() == ["20251121152005.csv", "walk.csv"])
        #expect(report.awaitingRecovery == ["20251121162005.csv"], "a torn header is a power cut's")
        #expect(!report.complete)
        #expect(report.lines().contains { $0.hasPrefix("Not copied: ") && $0.contains("walk.csv") && $0.contains("recovery cannot repair them") }, "\(report.lines())")
    }

    @Test func neverTouchesARecordingBeingWrittenOrOneAwaitingRecovery() throws {
        let source = RecordingFolder(), target = RecordingFolder()
        defer { source.remove(); target.remove() }
        try source.addFinished("20251121142005", start: t0, rows: 100)
        try source.addUnfinished("20251121152005", start: t0 + 3600, rows: 100)
        // The writer holds an exclusive lock on the CSV it writes.
        let fd = open(source.path + "/20251121152005.csv", O_RDONLY | O_CLOEXEC)
        #expect(flock(fd, LOCK_EX) == 0)
        defer { close(fd) }
        try source.addUnfinished("20251121162005", start: t0 + 7200, rows: 100)
        var options = FolderOffloadOptions()
        options.deleteAfterCopy = true
        let report = try FolderOffload(source: source.path, target: target.path, options: options).run()
        #expect(report.copied == ["20251121142005"])
        #expect(report.inProgress == ["20251121152005.csv"])
        #expect(report.awaitingRecovery == ["20251121162005.csv"])
        #expect(report.deleted == ["20251121142005"])
        #expect(files(in: source.path) == ["20251121152005.csv", "20251121162005.csv"])
        #expect(report.complete)
    }

    @Test func fillsTheSpaceLeftOldestFirstAndSaysWhatDidNotFit() throws {
        let source = RecordingFolder(), target = RecordingFolder()
        defer { source.remove(); target.remove() }
        try source.addFinished("20251121162005", start: t0 + 7200, rows: 2000)
        try source.addFinished("20251121142005", start: t0, rows: 2000)
        try source.addFinished("20251121152005", start: t0 + 3600, rows: 2000)
        let one = (try FileManager.default.attributesOfItem(atPath: source.path + "/20251121142005.csv")[.size] as? Int64) ?? 0
        var options = FolderOffloadOptions()
        options.targetReserveBytes = 0
        var job = FolderOffload(source: source.path, target: target.path, options: options)
        // Room for two recordings: the space left shrinks by what was copied.
        let copiedSoFar = { @Sendable (path: String) -> Int64 in
            files(in: path).reduce(Int64(0)) { sum, name in
                sum + ((try? FileManager.default.attributesOfItem(atPath: path + "/" + name)[.size] as? Int64) ?? 0)
            }
        }
        let capacity = 2 * (one + 4096)
        job.availableBytes = { capacity - copiedSoFar($0) }
        job.allocationBytes = { _ in 1 }   // bytes as they are; clusters: the next test
        let report = try job.run()
        #expect(report.copied == ["20251121142005", "20251121152005"])
        #expect(report.didNotFit.map(\.name) == ["20251121162005"])
        #expect(!report.complete)
        #expect(report.lines().contains { $0.hasPrefix("Did not fit") && $0.contains("20251121162005") })
        // It says how much room there was, so a stick with "enough" free space is understood.
        let left = capacity - copiedSoFar(target.path)
        #expect(report.freeWhenFull?.free == left && report.freeWhenFull?.kept == 0)
        #expect(report.lines().contains { $0.contains("the target had \(ByteText.describe(left)) free and 0 B is kept spare") },
                "\(report.lines())")
    }

    /// A stick that fills up in the middle of a file (its free space was not what it said):
    /// that recording and the ones after it that do not fit are listed as not fitting, the
    /// unfinished copy is gone, and the run ends incomplete. It ended as an error that named
    /// nothing left on the card.
    @Test func aStickThatFillsUpMidFileListsWhatDidNotFit() throws {
        let source = RecordingFolder()
        defer { source.remove() }
        try source.addFinished("20251121142005", start: t0, rows: 2000)
        try source.addFinished("20251121152005", start: t0 + 3600, rows: 2000)
        try source.addFinished("20251121162005", start: t0 + 7200, rows: 2000)
        let one = (try FileManager.default.attributesOfItem(atPath: source.path + "/20251121142005.csv")[.size] as? Int) ?? 0
        guard let stick = SmallFileSystem(bytes: one + one / 2 + 16384) else {
            print("skipped: mounting a small tmpfs needs root")
            return
        }
        defer { stick.undo() }
        var options = FolderOffloadOptions()
        options.deleteAfterCopy = true
        var job = FolderOffload(source: source.path, target: stick.path, options: options)
        job.availableBytes = { _ in 1 << 40 }   // what a fake-capacity stick says
        let report = try job.run()
        #expect(report.copied == ["20251121142005"] && report.deleted == ["20251121142005"], "\(report.lines())")
        #expect(report.didNotFit.map(\.name) == ["20251121152005", "20251121162005"] && report.failures.isEmpty, "\(report.lines())")
        #expect(!report.complete && report.lines().contains { $0.hasPrefix("Did not fit") }, "\(report.lines())")
        #expect(!files(in: stick.path).contains { $0.hasSuffix(".part") }, "\(files(in: stick.path))")
        #expect(source.bytes("20251121152005.csv") != nil && source.bytes("20251121162005.csv") != nil)
    }

    /// Space is counted in the target's allocation units: on an exFAT stick with 1 MiB
    /// clusters, recordings that fit by their bytes filled it, and the manifest then had no
    /// room ("Copied 0 recordings", manifest.csv of 0 bytes).
    @Test func spaceIsCountedInTheTargetsClusters() throws {
        let source = RecordingFolder(), target = RecordingFolder()
        defer { source.remove(); target.remove() }
        try source.addFinished("20251121142005", start: t0, rows: 50)
        try source.addFinished("20251121152005", start: t0 + 3600, rows: 50)
        var options = FolderOffloadOptions()
        options.targetReserveBytes = 0
        var job = FolderOffload(source: source.path, target: target.path, options: options)
        let mib: Int64 = 1 << 20
        let clusters = { @Sendable (path: String) -> Int64 in Int64(files(in: path).count) * mib }
        // Six clusters: a recording of two small files takes two, and two more are kept for
        // the manifest and the folder; after it (and the manifest) three are left.
        job.availableBytes = { 6 * mib - clusters($0) }
        job.allocationBytes = { _ in mib }
        let report = try job.run()
        #expect(report.copied == ["20251121142005"] && report.didNotFit.map(\.name) == ["20251121152005"], "\(report.lines())")
        #expect(report.freeWhenFull?.kept == 2 * mib)
    }

    @Test func refusesFilesOverTheFileSystemsLimitInsteadOfTruncatingThem() throws {
        let source = RecordingFolder(), target = RecordingFolder()
        defer { source.remove(); target.remove() }
        try source.addFinished("20251121142005", start: t0, rows: 10)
        try source.addFinished("20251121152005", start: t0 + 3600, rows: 5000)
        var options = FolderOffloadOptions()
        options.maxFileBytes = 20_000
        var states: [OffloadProgress.State] = []
        let report = try FolderOffload(source: source.path, target: target.path, options: options).run { states.append($0.state) }
        #expect(report.copied == ["20251121142005"])
        #expect(report.tooLarge.map(\.name) == ["20251121152005.csv"])
        // Nothing failed and the stick may be pulled out, but a recording was left behind.
        #expect(states.last == .incomplete, "\(states)")
        #expect(!files(in: target.path).contains { $0.hasPrefix("20251121152005") })
        #expect(report.lines().contains { $0.contains("FAT32") })
    }

    @Test func aPartialCopyLeftByAPulledStickIsReplacedAndNeverLooksComplete() throws {
        let source = RecordingFolder(), target = RecordingFolder()
        defer { source.remove(); target.remove() }
        try source.addFinished("20251121142005", start: t0, rows: 1000)
        try Data("A,W,1.0,".utf8).write(to: URL(fileURLWithPath: target.path + "/20251121142005.csv.part"))
        let report = try FolderOffload(source: source.path, target: target.path, options: .init()).run()
        #expect(report.copied == ["20251121142005"])
        #expect(!files(in: target.path).contains { $0.hasSuffix(".part") })
        #expect(target.bytes("20251121142005.csv") == source.bytes("20251121142005.csv"))
    }

    @Test func aDifferentFileOfTheSameNameIsLeftAloneAndReported() throws {
        let source = RecordingFolder(), target = RecordingFolder()
        defer { source.remove(); target.remove() }
        try source.addFinished("20251121142005", start: t0, rows: 100)
        let theirs = Data("not the same recording\n".utf8)
        try theirs.write(to: URL(fileURLWithPath: target.path + "/20251121142005.csv"))
        var options = FolderOffloadOptions()
        options.deleteAfterCopy = true
        var states: [OffloadProgress.State] = []
        let report = try FolderOffload(source: source.path, target: target.path, options: options).run { states.append($0.state) }
        #expect(report.conflicts == ["20251121142005.csv"])
        // Left behind on purpose, with what to do: incomplete (may be pulled out), not an error.
        #expect(states.last == .incomplete, "\(states)")
        #expect(report.copied.isEmpty && report.deleted.isEmpty && !report.complete)
        #expect(target.bytes("20251121142005.csv") == theirs)
        #expect(source.bytes("20251121142005.csv") != nil)
    }

    @Test func filesAlreadyThereWithoutAManifestAreCheckedAndAdopted() throws {
        let source = RecordingFolder(), target = RecordingFolder()
        defer { source.remove(); target.remove() }
        try source.addFinished("20251121142005", start: t0, rows: 100)
        for name in ["20251121142005.csv", "20251121142005.json"] {
            try #require(source.bytes(name)).write(to: URL(fileURLWithPath: target.path + "/" + name))
        }
        let report = try FolderOffload(source: source.path, target: target.path, options: .init()).run()
        #expect(report.alreadyThere == ["20251121142005"] && report.copied.isEmpty)
        let manifest = try String(contentsOfFile: target.path + "/manifest.csv", encoding: .utf8)
        #expect(manifest.contains("20251121142005.csv,") && manifest.contains("20251121142005.json,"))
    }

    @Test func progressCountsEveryByteAndEndsDone() throws {
        let source = RecordingFolder(), target = RecordingFolder()
        defer { source.remove(); target.remove() }
        try source.addFinished("20251121142005", start: t0, rows: 400)
        try source.addFinished("20251121152005", start: t0 + 3600, rows: 400)
        var seen: [OffloadProgress] = []
        let report = try FolderOffload(source: source.path, target: target.path, options: .init()).run { seen.append($0) }
        let last = try #require(seen.last)
        #expect(last.state == .done && last.recordingsDone == 2 && last.recordingsTotal == 2)
        #expect(last.bytesDone == last.bytesTotal && last.bytesDone == report.bytesCopied && last.percent == 100)
        #expect(seen.first?.state == .copying)
        // The daemon reads it back from JSON.
        let path = target.path + "/status.json"
        last.write(to: path)
        #expect(OffloadProgress.read(from: path) == last)
    }

    /// A deletion that fails after a verified copy is no failed copy: the progress (the
    /// daemon's "n of m files") keeps the part's bytes and files, as the report keeps it
    /// copied. They were taken back out, and the last progress fell short of what was copied.
    @Test func aFailedDeletionLeavesTheCopyCountedInTheProgress() throws {
        let source = RecordingFolder(), target = RecordingFolder()
        defer { source.remove(); target.remove() }
        try source.addFinished("20251121142005", start: t0, rows: 400)
        try source.addFinished("20251121152005", start: t0 + 3600, rows: 400)
        // Where the first recording's cached summary would be, a folder: unlink(2) refuses it.
        try FileManager.default.createDirectory(atPath: source.path + "/20251121142005.summary.json/x",
                                                withIntermediateDirectories: true)
        var options = FolderOffloadOptions()
        options.deleteAfterCopy = true
        var seen: [OffloadProgress] = []
        let report = try FolderOffload(source: source.path, target: target.path, options: options).run { seen.append($0) }
        #expect(report.copied == ["20251121142005", "20251121152005"] && report.deleted == ["20251121152005"])
        #expect(report.failures.count == 1 && report.failures.first?.operation == "delete", "\(report.failures)")
        let last = try #require(seen.last)
        #expect(last.state == .error && last.recordingsDone == 2 && last.filesDone == 4 && last.filesTotal == 4)
        #expect(last.bytesDone == last.bytesTotal && last.bytesDone == report.bytesCopied)
        #expect(source.bytes("20251121142005.csv") != nil && source.bytes("20251121152005.csv") == nil)
    }

    @Test func aMissingRecordingsFolderIsAClearError() throws {
        #expect(throws: OffloadError.self) {
            _ = try FolderOffload(source: "/nonexistent/recordings", target: NSTemporaryDirectory(), options: .init()).run()
        }
    }
}

/// Ctrl-C or SIGTERM during an offload (`OffloadStop`): the copy stops between chunks, the
/// unfinished file is removed, nothing more is started, and the report says what was left.
/// Before, the signal killed the process mid-file: a `.part` stayed on the stick, the stick
/// stayed mounted, and rclone ran on alone.
@Suite("Offload stopped on request")
struct OffloadStopTests {
    let t0 = 1_763_735_405.0

    @Test func aStopMidFileRemovesTheUnfinishedCopyAndSaysWhatWasLeft() throws {
        let source = RecordingFolder(), target = RecordingFolder()
        defer { source.remove(); target.remove() }
        // 40 000 rows: more than one 1 MiB chunk, so the stop falls inside the CSV.
        try source.addFinished("20251121142005", start: t0, rows: 40_000)
        try source.addFinished("20251121152005", start: t0 + 3600, rows: 300)
        let stop = OffloadStop()
        var job = FolderOffload(source: source.path, target: target.path, options: .init())
        let clock = Mutex(0.0)
        job.now = { Date(timeIntervalSince1970: clock.withLock { $0 += 1; return $0 }) }   // every chunk reports
        job.stop = stop
        var states: [OffloadProgress.State] = []
        let report = try job.run { p in
            states.append(p.state)
            if p.bytesDone > 0 { stop.request("Ctrl-C (SIGINT)") }
        }
        #expect(report.copied.isEmpty && report.failures.isEmpty && !report.complete)
        #expect(report.stopped?.notCopied == ["20251121142005", "20251121152005"])
        #expect(report.lines().last == "Stopped by Ctrl-C (SIGINT): 4 files of 2 recordings not copied "
                + "(20251121142005, 20251121152005); run the offload again to copy them.", "\(report.lines())")
        #expect(states.last == .incomplete)
        let left = try FileManager.default.contentsOfDirectory(atPath: target.path)
        #expect(!left.contains { $0.hasSuffix(".part") } && !left.contains("20251121142005.csv"), "\(left)")
        #expect(!left.contains("20251121152005.csv"))
        // The next run copies everything, verified.
        var again = FolderOffload(source: source.path, target: target.path, options: .init())
        again.stop = OffloadStop()
        let second = try again.run()
        #expect(second.complete && second.stopped == nil)
        #expect(Set(second.copied + second.alreadyThere) == ["20251121142005", "20251121152005"])
        #expect(source.bytes("20251121142005.csv") == target.bytes("20251121142005.csv"))
    }

    @Test func anUploadStoppedDuringRcloneIsNeitherRetriedNorCountedAsAFailure() throws {
        let source = RecordingFolder()
        defer { source.remove() }
        try source.addFinished("20251121142005", start: t0, rows: 100)
        try source.addFinished("20251121152005", start: t0 + 3600, rows: 100)
        let stop = OffloadStop()
        /// rclone ended by the stop: the signal arrives while `copy` runs.
        final class StoppedRclone: ProcessRunning, Sendable {
            let stop: OffloadStop
            let calls = Mutex<[String]>([])
            init(_ stop: OffloadStop) { self.stop = stop }
            func run(_ executable: String, _ arguments: [String], environment: [String: String]) -> ProcessResult {
                if arguments.first == "listremotes" { return ProcessResult(status: 0, output: "nas:\n") }
                calls.withLock { $0.append(arguments[0]) }
                stop.request("SIGTERM")
                return ProcessResult(status: 143, output: "")
            }
        }
        let rclone = StoppedRclone(stop)
        var options = RemoteUploadOptions(remote: "nas:rides")
        options.deleteAfterUpload = true
        var job = RemoteUpload(source: source.path, host: "pi", options: options, runner: rclone)
        job.stop = stop
        let slept = Mutex(0)
        job.sleep = { _ in slept.withLock { $0 += 1 } }
        let report = try job.run()
        #expect(rclone.calls.withLock { $0 } == ["copy"])
        #expect(slept.withLock { $0 } == 0)
        #expect(report.failures.isEmpty && !report.complete && report.uploaded.isEmpty)
        #expect(report.stopped?.notCopied == ["20251121142005", "20251121152005"])
        #expect(report.lines().last?.hasPrefix("Stopped by SIGTERM: 4 files of 2 recordings not sent") == true, "\(report.lines())")
        #expect(source.bytes("20251121142005.csv") != nil)
        #expect(!FileManager.default.fileExists(atPath: source.path + "/" + RemoteUpload.sentListName))
    }

    @Test func aProgramStartedAfterTheStopIsEndedAtOnce() {
        let stop = OffloadStop()
        stop.request("SIGTERM")
        let r = SystemProcessRunner(stop: stop).run("sleep", ["300"], environment: [:])
        #expect(r.status == 128 + SIGTERM)
    }

    @Test func aRunningProgramIsEndedByTheStop() throws {
        let dir = ScratchFolder.make("stop")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fifo = dir + "/ready"
        #expect(mkfifo(fifo, 0o600) == 0)
        let stop = OffloadStop()
        let result = Mutex<Int32?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            let r = SystemProcessRunner(stop: stop).run("sh", ["-c", "echo ready > '\(fifo)'; exec sleep 300"], environment: [:])
            result.withLock { $0 = r.status }
            done.signal()
        }.start()
        // Blocks until the program has started and written (no sleep to wait for it).
        let ready = try #require(FileHandle(forReadingAtPath: fifo))
        _ = ready.readDataToEndOfFile()
        stop.request("Ctrl-C (SIGINT)")
        done.wait()
        #expect(result.withLock { $0 } == 128 + SIGTERM)
    }
}
