import Foundation
import Logging
import MotionCore
import Testing
import MotionTestSupport

@Suite("Double-buffered writer")
struct DoubleBufferedQueueTests {
    func description() -> RecordingDescription {
        RecordingDescription(id: "test", board: "test", boardDescription: nil, sensor: SensorInfo(model: "fake"), gps: nil,
                             deviceMotion: nil, rateHz: 100, sources: "A", label: "W", whenMode: .relative, startEpoch: 1_763_735_405,
                             started: "", clock: "simulated", rotateBytes: nil, rotateSeconds: nil, fsyncIntervalSeconds: 1,
                             bufferRows: 100, notes: [])
    }

    func makeWriter(_ dir: MemoryDirectory, _ counters: RecorderCounters, rotation: RotationPolicy = .none,
                    chunkBytes: Int = 256 * 1024) -> RotatingWriter {
        RotatingWriter(directory: dir, description: description(),
                       configuration: .init(rotation: rotation, chunkBytes: chunkBytes, softwareVersion: "test"),
                       counters: counters, whenOffset: 1_763_735_405, log: Logger(label: "test"))
    }

    func append(_ queue: DoubleBufferedQueue, _ r: Row) -> Int {
        var copy = r
        return withUnsafePointer(to: &copy) { queue.append(UnsafeBufferPointer(start: $0, count: 1)) }
    }

    @Test func stalledSinkNeverBlocksTheProducerAndDropsAreExactAndOrderKept() throws {
        let dir = MemoryDirectory()
        dir.fault = { $0 == 1 ? .stall : .none }      // write 0 is the header, write 1 the first chunk
        let counters = RecorderCounters(bufferCapacity: 100)
        let queue = DoubleBufferedQueue(blockCapacity: 100, policy: .drop)
        let writer = makeWriter(dir, counters)
        for i in 0..<50 { #expect(append(queue, row(.accelerometer, Double(i) / 100)) == 0) }
        // The writer takes the 50 rows and stalls writing them.
        let box = UncheckedBox(writer)
        let spare = queue.makeWriterBlock()
        let writerDone = DispatchSemaphore(value: 0)
        let thread = Thread {
            let (block, _) = queue.exchange(spare)
            box.value.write(block.rows)
            box.value.flushChunk()
            writerDone.signal()
        }
        thread.start()
        dir.stallEntered.wait()
        // While the sink is stalled the producer goes on: 100 rows fit, the next 50 are dropped.
        var dropped = 0
        for i in 50..<200 { dropped += append(queue, row(.accelerometer, Double(i) / 100)) }
        #expect(dropped == 50)
        dir.release.signal()
        writerDone.wait()
        queue.close()
        let (rest, closed) = queue.exchange(queue.makeWriterBlock())
        #expect(closed)
        writer.write(rest.rows)
        writer.finish(reason: "stopped")
        let file = try #require(dir.csvFiles.first)
        let (rows, problems) = try readRows(dir.text(file))
        #expect(problems.isEmpty)
        #expect(rows.map(\.when) == (0..<150).map { Double($0) / 100 })
    }

    @Test func waitPolicyLosesNothingWhenTheWriterIsSlow() throws {
        let dir = MemoryDirectory()
        let counters = RecorderCounters(bufferCapacity: 64)
        let queue = DoubleBufferedQueue(blockCapacity: 64, policy: .wait)
        let writer = makeWriter(dir, counters, chunkBytes: 512)
        let thread = WriterThread(queue: queue, writer: writer, fsyncIntervalSeconds: 1)
        thread.start { "stopped" }
        for i in 0..<10_000 { #expect(append(queue, row(.gyroscope, Double(i) / 1000)) == 0) }
        queue.close()
        thread.join()
        let (rows, problems) = try readRows(dir.text(try #require(dir.csvFiles.first)))
        #expect(problems.isEmpty)
        #expect(rows.count == 10_000)
        #expect(rows.map(\.when) == (0..<10_000).map { Double($0) / 1000 })
    }

    /// The first file's metadata is written as the writer thread starts, not at its first
    /// fsync: a recording killed in its first fsync interval keeps its board, clock and rate.
    @Test func firstMetadataIsWrittenBeforeTheFirstSync() throws {
        let dir = MemoryDirectory()
        let counters = RecorderCounters(bufferCapacity: 64)
        let queue = DoubleBufferedQueue(blockCapacity: 64, policy: .wait)
        let writer = makeWriter(dir, counters)
        try writer.open(firstWhen: 0)
        let csv = try #require(dir.csvFiles.first)
        let json = String(csv.dropLast(4)) + ".json"
        #expect(dir.contents(json).isEmpty)   // open leaves it to the writer thread
        let thread = WriterThread(queue: queue, writer: writer, fsyncIntervalSeconds: 3600)   // no sync for 30 min
        thread.start { "stopped" }
        var written = false
        let deadline = ContinuousClock.now + .seconds(30)
        while !written && ContinuousClock.now < deadline {   // a bounded wait for the state, not a timing
            written = !dir.contents(json).isEmpty
            if !written { usleep(1_000) }
        }
        #expect(written)
        let meta = try RecordingMetadata.decode(dir.contents(json))
        #expect(meta.recording.board == description().board && meta.endedCleanly == false)
        queue.close()
        thread.join()
    }

    @Test func failedWriteIsCutBackToARowBoundaryAndCountedAndWritingGoesOn() throws {
        let dir = MemoryDirectory()
        // Write 2 (second chunk, one row) fails after 7 bytes with ENOSPC: a partial row
        // must not remain. (A write that fails after its whole row keeps the row:
        // WriteFailureTests.aWriteCutShortByAFullCardKeepsTheWholeRowsThatFitted.)
        dir.fault = { $0 == 2 ? .fail(afterBytes: 7, errno: .noSpace) : .none }
        let counters = RecorderCounters(bufferCapacity: 100)
        let writer = makeWriter(dir, counters, chunkBytes: 1)   // one row per chunk
        let rows = (0..<5).map { row(.accelerometer, Double($0)) }
        rows.withUnsafeBufferPointer { writer.write($0) }
        writer.finish(reason: "stopped")
        let file = try #require(dir.csvFiles.first)
        let (back, problems) = try readRows(dir.text(file))
        #expect(problems.isEmpty)
        #expect(back.map(\.when) == [0, 2, 3, 4])
        #expect(counters.rowsLostToWriteErrors.load(ordering: .relaxed) == 1)
        #expect(counters.writeErrors.load(ordering: .relaxed) == 1)
        let meta = try RecordingMetadata.decode(dir.contents(String(file.dropLast(4)) + ".json"))
        #expect(meta.file.rows["A"] == 4)
        #expect(meta.counters.rowsLostToWriteErrors == 1)
        // The file is whole rows, but it lost one: it does not claim a clean end.
        #expect(!meta.endedCleanly && meta.endReason == "stopped, write-errors")
    }
}

/// Hands a non-Sendable object to a test thread that is its only user meanwhile.
final class UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
