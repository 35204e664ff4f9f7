import Foundation
import Logging
import MotionCore
import MotionMath
import Synchronization
import SystemPackage
import Testing
#if canImport(Glibc)
import Glibc
import MotionTestSupport
#endif

/// What the writer and recorder say when the card fails them: a folder that cannot be
/// written, write errors, a read-only file system, the folder removed mid-recording. Never
/// a success that did not happen, never a clean end or zero losses that did not happen.
@Suite("Write failures are told, never hidden")
struct WriteFailureTests {
    static let start = 1_763_735_405.0

    final class Fatal: Sendable {
        let calls = Mutex<[String]>([])
    }

    func writer(_ dir: MemoryDirectory, rotation: RotationPolicy = .none, chunkBytes: Int = 300,
                sources: String = "AGMD") -> (RotatingWriter, RecorderCounters, Fatal) {
        let counters = RecorderCounters(bufferCapacity: 10)
        let d = RecordingDescription(id: "t", board: "t", boardDescription: nil, sensor: SensorInfo(model: "fake"), gps: nil,
                                     deviceMotion: nil, rateHz: 100, sources: sources, label: "W", whenMode: .epoch,
                                     startEpoch: Self.start, started: "", clock: "simulated", rotateBytes: rotation.maxBytes,
                                     rotateSeconds: rotation.maxSeconds, fsyncIntervalSeconds: 1, bufferRows: 10, notes: [])
        let w = RotatingWriter(directory: dir, description: d,
                               configuration: .init(rotation: rotation, chunkBytes: chunkBytes, softwareVersion: "t"),
                               counters: counters, whenOffset: 0, log: Logger(label: "t"))
        let fatal = Fatal()
        w.onFatal = { reason, _ in fatal.calls.withLock { $0.append(reason) } }
        return (w, counters, fatal)
    }

    /// `ticks` ticks of A, G, M and D rows (D rows are long), with an L row every 10th tick.
    func ticks(_ range: Range<Int>, withLocation: Bool = true) -> [Row] {
        var rows: [Row] = []
        for k in range {
            let when = (Self.start * 100 + Double(k)) / 100
            rows.append(row(.accelerometer, when, 0.001 * Double(k)))
            rows.append(row(.gyroscope, when, -0.37 * Double(k)))
            rows.append(row(.magnetometer, when, 20.5))
            rows.append(Row(source: .deviceMotion, label: Label.defaultLetter, when: when,
                            values: (0.1, 0.2, 0.3, 0.01, 0.02, 0.03, 0.001, 0.002, -0.003)))
            if withLocation && k % 10 == 9 {
                rows.append(Row(fix: LocationFix(when: when - 0.05, latitude: 52.5, longitude: 13.4, mode: 3), label: Label.defaultLetter))
            }
        }
        return rows
    }

    func metadata(_ dir: MemoryDirectory, _ csv: String) throws -> RecordingMetadata {
        try RecordingMetadata.decode(dir.contents(String(csv.dropLast(4)) + ".json"))
    }

    @Test func rotationBySizeNeverSplitsATick() throws {
        let dir = MemoryDirectory()
        let (w, _, _) = writer(dir, rotation: RotationPolicy(maxBytes: 4096))
        let input = ticks(0..<400)
        input.withUnsafeBufferPointer { w.write($0) }
        w.finish(reason: "stopped")
        #expect(dir.csvFiles.count > 5)
        var all: [Row] = []
        for name in dir.csvFiles {
            #expect(dir.contents(name).count <= 4096)
            let (rows, problems) = try readRows(dir.text(name))
            #expect(problems.isEmpty)
            // Every IMU tick in the file is complete: A, G, M and D rows of that When.
            let imu = rows.filter { $0.source != .location }
            #expect(imu.count % 4 == 0, "\(name) has \(imu.count) IMU rows")
            for i in stride(from: 0, to: imu.count - 3, by: 4) {
                #expect(imu[i].source == .accelerometer && imu[i + 3].source == .deviceMotion && imu[i].when == imu[i + 3].when,
                        "\(name): a tick is split")
            }
            // An L row stays with the tick it was polled in.
            #expect(rows.first?.source == .accelerometer)
            all += rows
        }
        #expect(all == input)
    }

    @Test func aFileThatLostRowsDoesNotClaimACleanEnd() throws {
        let dir = MemoryDirectory()
        dir.fault = { $0 == 3 ? .fail(afterBytes: 10, errno: .noSpace) : .none }
        let (w, counters, fatal) = writer(dir)
        ticks(0..<100).withUnsafeBufferPointer { w.write($0) }
        w.finish(reason: "duration")
        let csv = try #require(dir.csvFiles.first)
        let meta = try metadata(dir, csv)
        #expect(counters.rowsLostToWriteErrors.load(ordering: .relaxed) > 0)
        #expect(!meta.endedCleanly)
        #expect(meta.endReason == "duration, write-errors")
        #expect(meta.ending == .closedAfterWriteErrors(fsyncFailed: false) && !meta.ending.needsRecovery)
        #expect(meta.counters.rowsLostToWriteErrors == counters.rowsLostToWriteErrors.load(ordering: .relaxed))
        #expect(w.firstFailure?.contains("No space left") == true || w.firstFailure?.contains("card is full") == true)
        // A full card may empty again: the writer goes on (the guard or the user stops it).
        #expect(w.halted == nil && fatal.calls.withLock { $0 }.isEmpty)
        // The file itself is whole rows only.
        #expect(try readRows(dir.text(csv)).1.isEmpty)
    }

    /// A card that fills up in the middle of a write keeps the whole rows that fitted (the
    /// oldest); only the rest is lost. The whole write was given up, so a card with room for
    /// a few more rows kept none of them (seen with `--fast`, whose writes are large).
    @Test func aWriteCutShortByAFullCardKeepsTheWholeRowsThatFitted() throws {
        let input = ticks(0..<100)
        func run(failing: @escaping @Sendable (Int) -> MemoryDirectory.Fault) throws -> (rows: [Row], bytes: Int, meta: RecordingMetadata, lost: Int64) {
            let dir = MemoryDirectory()
            dir.fault = failing
            let (w, counters, _) = writer(dir)
            input.withUnsafeBufferPointer { w.write($0) }
            w.finish(reason: "duration")
            let csv = try #require(dir.csvFiles.first)
            let (rows, problems) = try readRows(dir.text(csv))
            #expect(problems.isEmpty)
            return (rows, dir.contents(csv).count, try metadata(dir, csv), counters.rowsLostToWriteErrors.load(ordering: .relaxed))
        }
        // The card is full from the fourth write on: nothing more fits.
        let full = try run { $0 >= 3 ? .fail(afterBytes: 0, errno: .noSpace) : .none }
        // The fourth write still gets 200 bytes onto the card.
        let nearlyFull = try run { $0 == 3 ? .fail(afterBytes: 200, errno: .noSpace) : $0 > 3 ? .fail(afterBytes: 0, errno: .noSpace) : .none }
        #expect(nearlyFull.bytes > full.bytes + 200 - CSVFormat.maxRowBytes && nearlyFull.bytes <= full.bytes + 200)
        #expect(nearlyFull.rows.count > full.rows.count)
        // The oldest rows, in order; the metadata and the losses count exactly them.
        #expect(nearlyFull.rows == Array(input.prefix(nearlyFull.rows.count)))
        #expect(nearlyFull.meta.file.rows.values.reduce(0, +) == nearlyFull.rows.count)
        #expect(nearlyFull.meta.file.bytes == Int64(nearlyFull.bytes))
        #expect(nearlyFull.lost == Int64(input.count - nearlyFull.rows.count))
        #expect(nearlyFull.meta.file.lastWhen == nearlyFull.rows.last?.when)
    }

    /// A FAT32 card stops a file at 4 GiB (EFBIG, after a short write). Without rotation
    /// set, every row after that was lost; now the file ends at its last whole row and the
    /// recording goes on in the next file, with nothing lost.
    @Test func aFileAtTheFileSystemsSizeLimitContinuesInTheNextFile() throws {
        let dir = MemoryDirectory()
        dir.maxFileBytes = 20_000
        let (w, counters, fatal) = writer(dir)
        let input = ticks(0..<300)
        input.withUnsafeBufferPointer { w.write($0) }
        w.finish(reason: "duration")
        #expect(dir.csvFiles.count >= 2)
        var back: [Row] = []
        for (i, csv) in dir.csvFiles.enumerated() {
            let (rows, problems) = try readRows(dir.text(csv))
            #expect(problems.isEmpty)
            #expect(dir.contents(csv).count <= 20_000)
            let meta = try metadata(dir, csv)
            #expect(meta.file.rows.values.reduce(0, +) == rows.count)
            #expect(meta.file.bytes == Int64(dir.contents(csv).count))
            #expect(meta.endedCleanly)
            #expect(meta.endReason == (i + 1 < dir.csvFiles.count ? FileEnding.fileSizeLimitReason : "duration"))
            if i > 0 { #expect(meta.file.previous == dir.csvFiles[i - 1]) }
            back += rows
        }
        let everyRowOnceInOrder = back == input   // (not printed: thousands of rows)
        #expect(back.count == input.count)
        #expect(everyRowOnceInOrder)
        #expect(counters.rowsLostToWriteErrors.load(ordering: .relaxed) == 0)
        #expect(counters.writeErrors.load(ordering: .relaxed) == 0)
        #expect(fatal.calls.withLock { $0 }.isEmpty)
    }

    /// A size limit below the header and one row: no file can take a row, so the rows are
    /// lost and counted, and the writer does not start file after file.
    @Test func aSizeLimitBelowOneRowLosesTheRowsWithoutEndlessFiles() throws {
        let dir = MemoryDirectory()
        dir.maxFileBytes = CSVFormat.headerBytes.count + 20
        let (w, counters, _) = writer(dir)
        let input = ticks(0..<50)
        input.withUnsafeBufferPointer { w.write($0) }
        w.finish(reason: "duration")
        #expect(dir.csvFiles.count <= 2, "\(dir.csvFiles.count) files")
        let written = Source.canonicalOrder.reduce(Int64(0)) { $0 + counters.written.value($1) }
        #expect(written == 0)
        #expect(counters.rowsLostToWriteErrors.load(ordering: .relaxed) == Int64(input.count))
    }

    @Test func aReadOnlyFileSystemHaltsTheWriterAndAsksToStop() throws {
        let dir = MemoryDirectory()
        dir.fault = { $0 >= 2 ? .fail(afterBytes: 0, errno: .readOnlyFileSystem) : .none }
        let (w, counters, fatal) = writer(dir)
        ticks(0..<100).withUnsafeBufferPointer { w.write($0) }
        ticks(100..<200).withUnsafeBufferPointer { w.write($0) }
        w.finish(reason: "stopped")
        #expect(w.halted == "write-error")
        #expect(fatal.calls.withLock { $0 } == ["write-error"])
        #expect(w.firstFailure?.contains("read-only") == true)
        let written = Source.canonicalOrder.reduce(Int64(0)) { $0 + counters.written.value($1) }
        #expect(written + counters.rowsLostToWriteErrors.load(ordering: .relaxed) == Int64(ticks(0..<200).count))
    }

    @Test func theOutputFolderRemovedMidRecordingIsNoticedAndItsRowsCountedAsLost() throws {
        let dir = MemoryDirectory()
        let (w, counters, fatal) = writer(dir)
        ticks(0..<100).withUnsafeBufferPointer { w.write($0) }
        w.flushChunk()
        w.sync()
        #expect(counters.written.value(.accelerometer) == 100)
        let name = try #require(w.files.first)
        dir.removeEverything()
        ticks(100..<150).withUnsafeBufferPointer { w.write($0) }
        w.flushChunk()
        w.sync()
        ticks(150..<200).withUnsafeBufferPointer { w.write($0) }
        w.finish(reason: "stopped")
        #expect(fatal.calls.withLock { $0 } == ["output-folder-removed"])
        #expect(w.files.isEmpty && w.removedFiles == [name])
        // No row is reported as written: they are all gone.
        #expect(counters.written.value(.accelerometer) == 0)
        #expect(counters.rowsLostToWriteErrors.load(ordering: .relaxed) == Int64(ticks(0..<200).count))
        // Nothing was created again in its place.
        #expect(dir.csvFiles == [name])
    }

    /// The card fills at a rotation, so the next part cannot be created, and the recording
    /// is stopped later: the last part's metadata says how the recording ended and holds the
    /// final counters. It said `rotated` (a part that does not exist would follow) with the
    /// counters of that moment, and the rows lost after it were written nowhere on disk.
    @Test func aRotationIntoAFullCardEndsTheLastPartTruthfully() throws {
        let dir = MemoryDirectory()
        let (w, counters, _) = writer(dir, rotation: RotationPolicy(maxBytes: 4_000))
        try w.open(firstWhen: Self.start)
        ticks(0..<30).withUnsafeBufferPointer { w.write($0) }
        w.flushChunk()
        let parts = dir.csvFiles.count
        #expect(parts >= 2)
        dir.createFault = .noSpace
        ticks(30..<200).withUnsafeBufferPointer { w.write($0) }
        w.flushChunk()
        w.finish(reason: "stopped")
        #expect(dir.csvFiles.count == parts, "no part could be created after the fault")
        let lost = counters.rowsLostToWriteErrors.load(ordering: .relaxed)
        #expect(lost > 0)
        let last = try metadata(dir, try #require(dir.csvFiles.last))
        #expect(last.endReason == "stopped, write-errors" && !last.endedCleanly, "\(last.endReason)")
        #expect(last.counters.rowsLostToWriteErrors == lost && last.ended != nil)
    }

    /// The same, where the next part's file can be created but not its header written (a
    /// full card often has a free inode), and the writer tries again a second later: the
    /// retry that created and removed a file cleared what the last part had to say.
    @Test func aRetryThatCannotWriteAHeaderStillEndsTheLastPartTruthfully() throws {
        let dir = MemoryDirectory()
        let counters = RecorderCounters(bufferCapacity: 10)
        let d = RecordingDescription(id: "t", board: "t", boardDescription: nil, sensor: SensorInfo(model: "fake"), gps: nil,
                                     deviceMotion: nil, rateHz: 100, sources: "AGMD", label: "W", whenMode: .epoch,
                                     startEpoch: Self.start, started: "", clock: "simulated", rotateBytes: 4_000,
                                     rotateSeconds: nil, fsyncIntervalSeconds: 1, bufferRows: 10, notes: [])
        let clock = Atomic<Int64>(0)   // two seconds on at each reading: every retry is due
        let w = RotatingWriter(directory: dir, description: d,
                               configuration: .init(rotation: RotationPolicy(maxBytes: 4_000), chunkBytes: 300, softwareVersion: "t"),
                               counters: counters, whenOffset: 0, log: Logger(label: "t"),
                               nowNanos: { clock.add(2_000_000_000, ordering: .relaxed).newValue })
        try w.open(firstWhen: Self.start)
        ticks(0..<30).withUnsafeBufferPointer { w.write($0) }
        w.flushChunk()
        let parts = dir.csvFiles.count
        dir.createFault = .noSpace   // the rotation: no file
        ticks(30..<60).withUnsafeBufferPointer { w.write($0) }
        w.flushChunk()
        dir.createFault = nil
        dir.fault = { _ in .fail(afterBytes: 0, errno: .noSpace) }   // the retries: a file, but no header
        ticks(60..<200).withUnsafeBufferPointer { w.write($0) }
        w.flushChunk()
        w.finish(reason: "stopped")
        let last = try metadata(dir, try #require(dir.csvFiles.prefix(parts).last))
        #expect(last.endReason == "stopped, write-errors" && !last.endedCleanly, "\(last.endReason)")
        #expect(last.counters.rowsLostToWriteErrors == counters.rowsLostToWriteErrors.load(ordering: .relaxed))
    }

    @Test func aFolderThatCannotBeWrittenFailsTheStartBeforeTheFirstTick() throws {
        let dir = MemoryDirectory()
        dir.createFault = .permissionDenied
        let sensor = CountingSensor()
        let cfg = RecorderConfiguration(rateHz: 100, sources: [.accelerometer], duration: 2, bufferRows: 256,
                                        boardName: "test", softwareVersion: "t")
        let recorder = Recorder(configuration: cfg, clock: SimulatedClock(epoch: 1_763_735_405_000_000_000), sensor: sensor,
                                location: nil, estimator: nil, directory: dir, log: Logger(label: "test"))
        #expect(throws: RecorderError.self) { try recorder.run() }
        do { _ = try recorder.run() } catch {
            #expect(error.description.contains("Permission denied") && error.description.contains("/memory"))
        }
        #expect(sensor.reads.withLock { $0 } == 0)
        #expect(recorder.timeline == nil)
    }

    @Test func aRecordingWhoseWritesAllFailSaysSo() throws {
        let dir = MemoryDirectory()
        // The header goes through, every row write fails.
        dir.fault = { $0 >= 1 ? .fail(afterBytes: 0, errno: .ioError) : .none }
        let cfg = RecorderConfiguration(rateHz: 100, sources: [.accelerometer, .gyroscope], duration: 3, bufferRows: 256,
                                        boardName: "test", softwareVersion: "t")
        let recorder = Recorder(configuration: cfg, clock: SimulatedClock(epoch: 1_763_735_405_000_000_000), sensor: CountingSensor(),
                                location: nil, estimator: nil, directory: dir, log: Logger(label: "test"))
        let summary = try recorder.run()
        #expect(summary.hadWriteFailures)
        #expect(summary.counters.rowsLostToWriteErrors == 600)
        #expect(summary.rowsWritten.values.reduce(0, +) == 0)
        #expect(summary.writeFailure?.contains("I/O error") == true)
        let meta = try metadata(dir, try #require(dir.csvFiles.first))
        #expect(!meta.endedCleanly && meta.counters.rowsLostToWriteErrors == 600)
    }

    @Test func aPlantedSymlinkIsNeverFollowedByTheMetadataTemporary() throws {
        let dir = temporaryDirectory()
        let victim = temporaryDirectory() + "/victim.txt"
        try "precious\n".write(toFile: victim, atomically: false, encoding: .utf8)
        #expect(symlink(victim, dir + "/20251121150000.json.tmp") == 0)
        let disk = try DiskDirectory(path: dir)
        try disk.replace(name: "20251121150000.json", contents: Array("{}\n".utf8))
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
        #expect(try String(contentsOfFile: dir + "/20251121150000.json", encoding: .utf8) == "{}\n")
        #expect(!FileManager.default.fileExists(atPath: dir + "/20251121150000.json.tmp"))
        // A CSV name taken by a link gets the next free name; the link's target is untouched.
        #expect(symlink(victim, dir + "/20251121150001.csv") == 0)
        let (base, file) = try disk.createExclusive(base: "20251121150001", ext: ".csv")
        try file.close()
        #expect(base == "20251121150001-1")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
    }

    @Test func aFailedMetadataReplaceLeavesNoTemporary() throws {
        let dir = temporaryDirectory()
        // The target is a non-empty folder: the final rename fails.
        try FileManager.default.createDirectory(atPath: dir + "/x.json/inside", withIntermediateDirectories: true)
        let disk = try DiskDirectory(path: dir)
        #expect(throws: OutputError.self) { try disk.replace(name: "x.json", contents: Array("{}\n".utf8)) }
        #expect(!FileManager.default.fileExists(atPath: dir + "/x.json.tmp"))
    }

    @Test func theDiskDirectoryNoticesItsFolderRemovedOrReplaced() throws {
        let parent = temporaryDirectory()
        let path = parent + "/rec"
        let disk = try DiskDirectory(path: path)
        #expect(disk.missingReason == nil)
        let (_, file) = try disk.createExclusive(base: "20251121150000", ext: ".csv")
        #expect(!file.isDeleted)
        try FileManager.default.removeItem(atPath: path)
        #expect(file.isDeleted)
        #expect(disk.missingReason?.contains("is gone") == true)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        #expect(disk.missingReason?.contains("replaced") == true)
        try file.close()
    }
}

/// An IMU that counts its reads.
final class CountingSensor: MotionSensor, @unchecked Sendable {
    var health = SensorHealth()
    let reads = Mutex(0)
    var info: SensorInfo { SensorInfo(model: "counting") }
    func start(rateHz: Int) throws {}
    func read(at tick: Tick) -> MotionReading {
        reads.withLock { $0 += 1 }
        return MotionReading(accel: Vector3(0.01, -0.02, -1), gyro: Vector3(0.001, 0, 0.25), mag: Vector3(20, 1, -40))
    }
}
