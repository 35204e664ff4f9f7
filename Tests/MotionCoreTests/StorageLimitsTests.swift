import Foundation
import Logging
import MotionCore
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Stats with inodes, or none at all (/sys).
struct InodeStats: FileSystemStats {
    var availableBytes: Int64 = 8 << 30
    var totalBytes: Int64 = 32 << 30
    var availableInodes: Int64
    var totalInodes: Int64
    func space(at path: String) throws(StorageError) -> FileSystemSpace {
        FileSystemSpace(availableBytes: availableBytes, totalBytes: totalBytes, availableInodes: availableInodes, totalInodes: totalInodes)
    }
}

/// A card whose free space shrinks by what the writer reports written (no clock involved).
final class MeteredCard: FileSystemStats, Sendable {
    let free: Atomic<Int64>
    init(free: Int64) { self.free = Atomic(free) }
    func space(at path: String) throws(StorageError) -> FileSystemSpace {
        FileSystemSpace(availableBytes: free.load(ordering: .relaxed), totalBytes: 1 << 30)
    }
}

@Suite("Free space: inodes, virtual file systems, bytes written")
struct StorageLimitsTests {
    @Test func runningOutOfInodesIsLowSpaceToo() {
        let low = FreeSpaceGuard(path: "/data", minimumFreeBytes: 1 << 20, stats: InodeStats(availableInodes: 10, totalInodes: 1000))
        let verdict = low.check()
        #expect(verdict.isLow)
        #expect(verdict.description.contains("inodes") && verdict.description.contains("/data"))
        #expect(!verdict.description.contains("card is full"))
        // File systems that do not count inodes (FAT: total 0) are judged by bytes only.
        let fat = FreeSpaceGuard(path: "/data", minimumFreeBytes: 1 << 20, stats: InodeStats(availableInodes: 0, totalInodes: 0))
        #expect(!fat.check().isLow)
    }

    @Test func aVirtualFileSystemIsNotCalledFull() {
        let sys = FreeSpaceGuard(path: "/sys/kernel", minimumFreeBytes: 1 << 20,
                                 stats: InodeStats(availableBytes: 0, totalBytes: 0, availableInodes: 0, totalInodes: 0))
        let verdict = sys.check()
        #expect(!verdict.isLow)
        #expect(!verdict.description.contains("full"))
        #expect(verdict.description.contains("/sys/kernel"))
    }

    @Test func theHeadroomStopsTheRecordingBeforeTheReserveIsTouched() {
        let g = FreeSpaceGuard(path: "/d", minimumFreeBytes: 10 << 20, headroomBytes: 5 << 20,
                               stats: FakeFileSystemStats(available: [14 << 20]))
        let verdict = g.check()
        #expect(verdict.isLow)
        // It says what is true: the reserve is kept, the card is not full.
        #expect(verdict.description.contains("to keep the 10.0 MB reserve"))
        #expect(FreeSpaceGuard.headroom(bufferRows: 1000, minimumFreeBytes: 16 << 20) == 200_000 + (1 << 20))
    }

    /// `--fast` writes megabytes per wall-clock second: the guard also checks by bytes
    /// written, on the writer's thread, so it cannot be outrun.
    @Test func theMonitorChecksByBytesWrittenNotOnlyBySeconds() {
        let card = MeteredCard(free: 20 << 20)
        let calls = Atomic<Int>(0)
        let g = FreeSpaceGuard(path: "/d", minimumFreeBytes: 16 << 20, stats: card)
        // No monitor thread at all: only bytes trigger checks here.
        let monitor = FreeSpaceMonitor(guard: g) { _ in calls.add(1, ordering: .relaxed) }
        var written: Int64 = 0
        while calls.load(ordering: .relaxed) == 0 && written < 100 << 20 {
            let chunk: Int64 = 256 << 10
            _ = card.free.subtract(chunk, ordering: .relaxed)
            written += chunk
            monitor.noteWritten(chunk)
        }
        #expect(calls.load(ordering: .relaxed) == 1)
        // Stopped within one check interval (1 MiB here) of the reserve.
        #expect(card.free.load(ordering: .relaxed) >= (16 << 20) - g.checkEveryBytes)
        monitor.noteWritten(64 << 20)
        #expect(calls.load(ordering: .relaxed) == 1)
    }

    /// A simulated-clock recording (as `--fast`) on a card that shrinks by what is written:
    /// it stops by itself without a single write error and the reserve stays free.
    @Test func aFastRecordingDoesNotOverrunTheReserve() throws {
        let dir = temporaryDirectory()
        let card = MeteredCard(free: 24 << 20)
        let cfg = RecorderConfiguration(rateHz: 1000, sources: [.accelerometer, .gyroscope, .magnetometer],
                                        duration: 3600, fsyncIntervalSeconds: 1, bufferRows: 4096, boardName: "test", softwareVersion: "t")
        let recorder = Recorder(configuration: cfg, clock: SimulatedClock(epoch: 1_763_735_405_000_000_000),
                                sensor: SteadySensor(), location: nil, estimator: nil,
                                directory: try DiskDirectory(path: dir), log: Logger(label: "test"))
        let reserve: Int64 = 16 << 20
        let g = FreeSpaceGuard(path: dir, minimumFreeBytes: reserve,
                               headroomBytes: FreeSpaceGuard.headroom(bufferRows: cfg.bufferRows, minimumFreeBytes: reserve), stats: card)
        let stop = recorder.stop
        // A monitor whose clock never fires within the test: only bytes written count.
        let monitor = FreeSpaceMonitor(guard: g, intervalSeconds: 3600) { _ in stop.request(reason: FreeSpaceGuard.endReason) }
        recorder.onBytesWritten = { bytes in
            _ = card.free.subtract(bytes, ordering: .relaxed)
            monitor.noteWritten(bytes)
        }
        let summary = try recorder.run()
        #expect(summary.endReason == FreeSpaceGuard.endReason)
        #expect(summary.counters.rowsLostToWriteErrors == 0 && !summary.hadWriteFailures)
        #expect(card.free.load(ordering: .relaxed) >= reserve, "free \(card.free.load(ordering: .relaxed))")
    }
}

@Suite("Recovery: symbolic links, recounted losses")
struct RecoveryTrustTests {
    static let start = 1_763_735_405.0

    /// A CSV of A rows at 100 Hz with `gap` ticks missing in the middle, and metadata as a
    /// refresh left it (counters from before the gap).
    func fileWithGap(_ dir: String, gap: Int, endReason: String = "recording") throws -> String {
        var text = CSVFormat.headerLine + "\n"
        var k = 0
        for i in 0..<(200 + gap) {
            if i >= 100 && i < 100 + gap { continue }
            text += "A,W,\(Double(Int64(Self.start * 100) + Int64(i)) / 100),0.0,0.0,-1.0\n"
            k += 1
        }
        let name = "20251121150005.csv"
        try text.write(toFile: dir + "/" + name, atomically: false, encoding: .utf8)
        let description = RecordingDescription(
            id: "t", board: "t", boardDescription: nil, sensor: SensorInfo(model: "t"), gps: nil, deviceMotion: nil,
            rateHz: 100, sources: "A", label: "W", whenMode: .epoch, startEpoch: Self.start, started: "", clock: "system",
            rotateBytes: nil, rotateSeconds: nil, fsyncIntervalSeconds: 1, bufferRows: 256, notes: [])
        var section = RecordingMetadata.FileSection(name: name, index: 1, previous: nil)
        section.rows = ["A": 100]
        let meta = RecordingMetadata(software: .init(version: "t"), recording: description, file: section,
                                     counters: CounterSnapshot(), endedCleanly: false, endReason: endReason, ended: nil)
        try Data(meta.encoded()).write(to: URL(fileURLWithPath: dir + "/20251121150005.json"))
        return name
    }

    @Test func recoveryRecountsTheTicksTheFileLacks() throws {
        let dir = temporaryDirectory()
        _ = try fileWithGap(dir, gap: 57)
        let report = RecordingRecovery.recover(folder: dir, softwareVersion: "t")
        #expect(report.recovered.count == 1)
        let m = try RecordingMetadata.decode(Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/20251121150005.json"))))
        #expect(m.file.rows["A"] == 200)
        #expect(m.file.ticksWithoutRows == 57)
        #expect(m.counters.missedTicks == 57)
        #expect(m.recording.notes.last?.contains("57 ticks") == true)
    }

    @Test func recoveryRebuildsMetadataAndStillCountsTheGap() throws {
        let dir = temporaryDirectory()
        _ = try fileWithGap(dir, gap: 30)
        try FileManager.default.removeItem(atPath: dir + "/20251121150005.json")
        _ = RecordingRecovery.recover(folder: dir, softwareVersion: "t")
        let m = try RecordingMetadata.decode(Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/20251121150005.json"))))
        #expect(m.recording.rateHz == 100)
        #expect(m.file.ticksWithoutRows == 30 && m.counters.missedTicks == 30)
    }

    @Test func aFileTheWriterClosedAfterHandledWriteErrorsIsLeftAlone() throws {
        let dir = temporaryDirectory()
        _ = try fileWithGap(dir, gap: 3, endReason: "duration, write-errors")
        #expect(RecordingRecovery.recover(folder: dir, softwareVersion: "t").isEmpty)
        // A file the writer gave up on, or whose fsync failed, is recovered.
        let dir2 = temporaryDirectory()
        _ = try fileWithGap(dir2, gap: 3, endReason: "rotated, fsync-failed")
        #expect(RecordingRecovery.recover(folder: dir2, softwareVersion: "t").recovered.count == 1)
    }

    @Test func aSymlinkNamedLikeARecordingIsNeverFollowed() throws {
        let dir = temporaryDirectory()
        let victimDir = temporaryDirectory()
        let victim = victimDir + "/passwd"
        let original = "root:x:0:0:root:/root:/bin/bash\nnot,a,recording\n"
        try original.write(toFile: victim, atomically: false, encoding: .utf8)
        #expect(symlink(victim, dir + "/20251121150005.csv") == 0)
        // And one where recovery writes its metadata temporary.
        let victim2 = victimDir + "/shadow"
        try "secret\n".write(toFile: victim2, atomically: false, encoding: .utf8)
        #expect(symlink(victim2, dir + "/20251121150006.json.tmp") == 0)
        let report = RecordingRecovery.recover(folder: dir, softwareVersion: "t")
        #expect(report.recovered.isEmpty)
        #expect(report.failures.first?.message.contains("symbolic link") == true)
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == original)
        #expect(try String(contentsOfFile: victim2, encoding: .utf8) == "secret\n")

        // A real unfinished recording next to a planted .json.tmp link: recovered, link not followed.
        let dir3 = temporaryDirectory()
        _ = try fileWithGap(dir3, gap: 0)
        #expect(symlink(victim2, dir3 + "/20251121150005.json.tmp") == 0)
        #expect(RecordingRecovery.recover(folder: dir3, softwareVersion: "t").recovered.count == 1)
        #expect(try String(contentsOfFile: victim2, encoding: .utf8) == "secret\n")
    }
}
