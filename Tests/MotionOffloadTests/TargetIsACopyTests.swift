import Foundation
import MotionCore
@testable import MotionOffload
import MotionSystem
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A target folder that is not somewhere else: a stick whose host folder was a link to the
/// recordings folder made every recording "already there", and --delete-after-copy then
/// deleted every one ("Deleted from the card after verification: 44 files", no copy left).
@Suite("Offload: the target is a copy")
struct TargetIsACopyTests {
    let t0 = 1_763_735_405.0

    func deleting() -> FolderOffloadOptions {
        var o = FolderOffloadOptions()
        o.deleteAfterCopy = true
        return o
    }

    @Test func aHostFolderThatLinksToTheRecordingsIsRefused() throws {
        let source = RecordingFolder(), stick = RecordingFolder()
        defer { source.remove(); stick.remove() }
        try source.addFinished("20251121142005", start: t0, rows: 300)
        try FileManager.default.createSymbolicLink(atPath: stick.path + "/logger", withDestinationPath: source.path)
        #expect(throws: OffloadError.self) {
            _ = try FolderOffload(source: source.path, target: stick.path + "/logger", options: deleting()).run()
        }
        #expect(source.bytes("20251121142005.csv") != nil && source.bytes("20251121142005.json") != nil)
        #expect(files(in: source.path) == ["20251121142005.csv", "20251121142005.json"], "nothing planted in the recordings folder")
    }

    @Test func theRecordingsFolderItselfIsRefused() throws {
        let source = RecordingFolder()
        defer { source.remove() }
        try source.addFinished("20251121142005", start: t0, rows: 300)
        let error = #expect(throws: OffloadError.self) {
            _ = try FolderOffload(source: source.path, target: source.path + "/.", options: deleting()).run()
        }
        #expect(error?.reason.contains("recordings folder itself") == true, "\(String(describing: error))")
        #expect(source.bytes("20251121142005.csv") != nil)
    }

    /// A file on the target that is the card's file itself (a hard link) is no copy: the
    /// recording is not deleted for it.
    @Test func aHardLinkOnTheTargetIsNoCopy() throws {
        let source = RecordingFolder(), stick = RecordingFolder()
        defer { source.remove(); stick.remove() }
        try source.addFinished("20251121142005", start: t0, rows: 300)
        for name in ["20251121142005.csv", "20251121142005.json"] {
            try FileManager.default.linkItem(atPath: source.path + "/" + name, toPath: stick.path + "/" + name)
        }
        let report = try FolderOffload(source: source.path, target: stick.path, options: deleting()).run()
        #expect(report.deleted.isEmpty && !report.failures.isEmpty, "\(report.failures)")
        #expect(report.failures.first?.reason.contains("same file") == true, "\(report.failures)")
        #expect(source.bytes("20251121142005.csv") != nil)
    }

    /// An existing manifest the offload cannot append to refuses the target before anything
    /// is copied: copies landed, "Copied 0 recordings", and the report said the manifest
    /// listed every verified file.
    @Test func aManifestThatCannotBeWrittenRefusesTheTarget() throws {
        let source = RecordingFolder(), stick = RecordingFolder()
        defer { source.remove(); stick.remove() }
        try source.addFinished("20251121142005", start: t0, rows: 300)
        // A manifest that is a link is not appended to (opened without following links).
        try FileManager.default.createSymbolicLink(atPath: stick.path + "/manifest.csv", withDestinationPath: "/dev/null")
        let error = #expect(throws: OffloadError.self) {
            _ = try FolderOffload(source: source.path, target: stick.path, options: .init()).run()
        }
        #expect(error?.operation == "write the manifest", "\(String(describing: error))")
        #expect(files(in: stick.path) == ["manifest.csv"])
    }

    @Test func aTargetThatWentAwayEndsTheCopy() {
        // ENOTCONN (a FUSE stick pulled out), ESTALE, EHOSTDOWN, ETIMEDOUT (a share lost), EIO, ENODEV, ENXIO.
        let gone = OffloadError.targetGone.map(\.rawValue).sorted()
        #expect(gone == [EIO, ENXIO, ENODEV, ETIMEDOUT, ENOTCONN, EHOSTDOWN, ESTALE].sorted())
        for errno in OffloadError.targetGone {
            let e = OffloadError("write", path: "/media/stick/x.csv", errno: errno)
            #expect(e.endsTheCopy && e.description.contains("run the offload again"), "\(e)")
        }
        #expect(!OffloadError("write", path: "/x", reason: "permission denied").endsTheCopy)
    }
}

/// Names FAT and exFAT cannot hold get a reason that says so (they were "it does not exist").
@Suite("Offload: names a stick cannot hold")
struct FATNameTests {
    @Test func forbiddenCharactersAreRecognised() {
        #expect(VerifiedCopy.fatForbidden("20251121142005.json:Zone.Identifier"))
        #expect(VerifiedCopy.fatForbidden("a?b") && VerifiedCopy.fatForbidden("a\u{7}b") && VerifiedCopy.fatForbidden("a\\b"))
        #expect(!VerifiedCopy.fatForbidden("20251121142005.json") && !VerifiedCopy.fatForbidden("unsynced-abc-0001.csv"))
    }
}

/// One offload of a folder at a time, and nothing left behind by a copy that could not be
/// put in place.
@Suite("Offload: one at a time")
struct OffloadTurnTests {
    let t0 = 1_763_735_405.0

    /// A second offload of the same folder waits for the first (two sticks at once took the
    /// same recordings, and with --delete-after-copy the slower one failed on every part).
    @Test func aSecondOffloadOfTheFolderWaitsItsTurn() throws {
        let source = RecordingFolder(), stick = RecordingFolder()
        defer { source.remove(); stick.remove() }
        try source.addFinished("20251121142005", start: t0, rows: 100)
        let first = try OffloadLock.acquire(source.path, stop: nil) {}
        var job = FolderOffload(source: source.path, target: stick.path, options: .init())
        let stop = OffloadStop()
        stop.request("the test")   // seen only while waiting: nothing else to wait for
        job.stop = stop
        var messages: [String] = []
        #expect(throws: OffloadError.self) { _ = try job.run { if let m = $0.message { messages.append(m) } } }
        #expect(messages == ["Waiting for another offload of \(source.path) to finish…"], "\(messages)")
        #expect(files(in: stick.path).isEmpty)
        first.release()
        job.stop = nil
        #expect(try job.run().copied == ["20251121142005"])
    }

    /// A copy whose name is taken on the target when it is put in place (here by a link) is
    /// removed, not left as a `.part` (27 were).
    @Test func aCopyThatCannotBePutInPlaceLeavesNoPart() throws {
        let source = RecordingFolder(), stick = RecordingFolder()
        defer { source.remove(); stick.remove() }
        try source.addFinished("20251121142005", start: t0, rows: 100)
        try FileManager.default.createSymbolicLink(atPath: stick.path + "/20251121142005.json",
                                                   withDestinationPath: source.path + "/20251121142005.json")
        let report = try FolderOffload(source: source.path, target: stick.path, options: .init()).run()
        #expect(!report.failures.isEmpty && report.copied.isEmpty, "\(report.lines())")
        #expect(!files(in: stick.path).contains { $0.hasSuffix(".part") }, "\(files(in: stick.path))")
    }
}
