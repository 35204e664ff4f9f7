import Dispatch
import Foundation
import Logging
import MotionCore
import MotionMath
import Synchronization
import Testing

/// File-system stats that report what the test says.
final class FakeFileSystemStats: FileSystemStats, Sendable {
    private let available: Mutex<[Int64]>
    private let failure: StorageError?
    /// Successive readings (the last one repeats).
    init(available: [Int64], failure: StorageError? = nil) {
        self.available = Mutex(available)
        self.failure = failure
    }
    func space(at path: String) throws(StorageError) -> FileSystemSpace {
        if let failure { throw failure }
        let bytes = available.withLock { a in a.count > 1 ? a.removeFirst() : (a.first ?? 0) }
        return FileSystemSpace(availableBytes: bytes, totalBytes: 32 << 30)
    }
}

/// A card of `capacity` bytes whose free space shrinks as the folder's files grow.
final class ShrinkingCard: FileSystemStats, Sendable {
    let folder: String
    let capacity: Int64
    init(folder: String, capacity: Int64) { self.folder = folder; self.capacity = capacity }
    func space(at path: String) throws(StorageError) -> FileSystemSpace {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        let used = names.reduce(Int64(0)) { sum, n in
            sum + Int64(((try? FileManager.default.attributesOfItem(atPath: folder + "/" + n))?[.size] as? Int) ?? 0)
        }
        return FileSystemSpace(availableBytes: capacity - used, totalBytes: capacity)
    }
}

/// An IMU that reads the same values every tick.
final class SteadySensor: MotionSensor {
    var health = SensorHealth()
    var info: SensorInfo { SensorInfo(model: "steady") }
    func start(rateHz: Int) throws {}
    func read(at tick: Tick) -> MotionReading {
        MotionReading(accel: Vector3(0.01, -0.02, -1), gyro: Vector3(0.001, 0, 0.25), mag: Vector3(20, 1, -40))
    }
}

@Suite("Free-space guard")
struct FreeSpaceTests {
    let limit: Int64 = 100 * 1024 * 1024

    @Test func verdictsCompareTheAvailableSpaceWithTheReserve() {
        let ok = FreeSpaceGuard(path: "/data", minimumFreeBytes: limit, stats: FakeFileSystemStats(available: [limit]))
        #expect(!ok.check().isLow)
        let low = FreeSpaceGuard(path: "/data", minimumFreeBytes: limit, stats: FakeFileSystemStats(available: [limit - 1]))
        let verdict = low.check()
        #expect(verdict.isLow && verdict.availableBytes == limit - 1)
        #expect(verdict.description.contains("/data") && verdict.description.contains("100.0 MB reserve")
                && verdict.description.contains("min_free_space"))
        // Low above the reserve (the headroom): the message gives the threshold it stops at
        // ("only 108.0 MB free … to keep the 100.0 MB reserve" read as a contradiction).
        let headroom: Int64 = 10 << 20
        let above = FreeSpaceGuard(path: "/data", minimumFreeBytes: limit, headroomBytes: headroom,
                                   stats: FakeFileSystemStats(available: [limit + 8 << 20]))
        #expect(above.check().description.hasPrefix("only 108.0 MB free on /data: recording stops with 110.0 MB still free, to keep the 100.0 MB reserve (min_free_space) plus 10.0 MB for the rows still buffered"),
                "\(above.check().description)")
        let broken = FreeSpaceGuard(path: "/gone", stats: FakeFileSystemStats(available: [], failure: StorageError(path: "/gone", errno: .noSuchFileOrDirectory)))
        let unknown = broken.check()
        #expect(!unknown.isLow && unknown.availableBytes == nil && unknown.description.contains("/gone"))
    }

    @Test func byteCountsReadLikeTheConfig() {
        #expect(ByteText.describe(512) == "512 B")
        #expect(ByteText.describe(100 * 1024 * 1024) == "100.0 MB")
        #expect(ByteText.describe(3 * 1024 * 1024 * 1024 / 2) == "1.5 GB")
    }

    @Test func theMonitorReportsLowSpaceOnceAndStops() {
        let stats = FakeFileSystemStats(available: [500 << 20, 300 << 20, 99 << 20, 10 << 20])
        let calls = Atomic<Int>(0)
        let reported = DispatchSemaphore(value: 0)
        let monitor = FreeSpaceMonitor(guard: FreeSpaceGuard(path: "/data", minimumFreeBytes: limit, stats: stats),
                                       intervalSeconds: 0.001) { verdict in
            #expect(verdict.availableBytes == 99 << 20)
            calls.add(1, ordering: .relaxed)
            reported.signal()
        }
        monitor.start()
        #expect(reported.wait(timeout: .now() + 30) == .success)
        monitor.stop()
        #expect(calls.load(ordering: .relaxed) == 1)
        #expect(monitor.lastVerdict?.isLow == true)
    }

    @Test func aRecordingStopsCleanlyBeforeTheCardIsFull() throws {
        let dir = temporaryDirectory()
        // 2 MiB of card left beyond a 1 MiB reserve: the recording must stop on its own.
        let card = ShrinkingCard(folder: dir, capacity: 3 << 20)
        let cfg = RecorderConfiguration(rateHz: 1000, sources: [.accelerometer, .gyroscope, .magnetometer],
                                        fsyncIntervalSeconds: 0.01, bufferRows: 1024, boardName: "test", softwareVersion: "t")
        let recorder = Recorder(configuration: cfg, clock: SimulatedClock(epoch: 1_763_735_405_000_000_000),
                                sensor: SteadySensor(), location: nil, estimator: nil,
                                directory: try DiskDirectory(path: dir), log: Logger(label: "test"))
        let stop = recorder.stop
        let monitor = FreeSpaceMonitor(guard: FreeSpaceGuard(path: dir, minimumFreeBytes: 1 << 20, stats: card),
                                       intervalSeconds: 0.002) { _ in stop.request(reason: FreeSpaceGuard.endReason) }
        monitor.start()
        let summary = try recorder.run()
        monitor.stop()

        #expect(summary.endReason == "low-disk-space")
        #expect(monitor.lastVerdict?.isLow == true)
        let csv = try #require(summary.files.first)
        let meta = try RecordingMetadata.decode(Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/" + csv.dropLast(4) + ".json"))))
        #expect(meta.endedCleanly && meta.endReason == "low-disk-space")
        // Stopped inside the reserve: the card never filled, no row was lost or torn.
        #expect(try card.space(at: dir).availableBytes > 0)
        let check = try RecordingCheck.check(path: dir + "/" + csv)
        #expect(check.problems.isEmpty)
        #expect(meta.counters.rowsLostToWriteErrors == 0 && meta.counters.droppedRows == 0)
        #expect(Int64(check.sources[.accelerometer]?.rows ?? 0) == summary.rowsWritten[.accelerometer])
        #expect((check.sources[.accelerometer]?.rows ?? 0) > 0)
    }
}
