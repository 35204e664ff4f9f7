import Foundation

/// The dedicated thread that drains the `DoubleBufferedQueue` into a `RotatingWriter`.
///
/// It wakes every `cycleSeconds` (half the fsync interval) or when the producer asks for a
/// swap, writes the full block, and fsyncs once per cycle in which data was written, so a
/// row is durable at most one fsync interval after it was produced. `finish` returns only
/// when every row handed to the queue before `close` is written, fsynced and closed.
public final class WriterThread: Sendable {
    private let queue: DoubleBufferedQueue
    private let box: WriterBox
    private let cycleSeconds: Double
    private let spare: BlockBox
    private let done = WakeSignal()

    /// The writer is used by the new thread only from `start()` on.
    public init(queue: DoubleBufferedQueue, writer: RotatingWriter, spare: RowBlock? = nil, fsyncIntervalSeconds: Double) {
        self.queue = queue
        self.box = WriterBox(writer: writer)
        self.spare = BlockBox(block: spare ?? queue.makeWriterBlock())
        self.cycleSeconds = max(0.005, fsyncIntervalSeconds / 2)
    }

    public func start(endReason: @escaping @Sendable () -> String) {
        let thread = Thread { [self] in
            self.loop(endReason: endReason)
            self.done.signal()
        }
        thread.name = "motionlog-writer"
        thread.start()
    }

    private func loop(endReason: () -> String) {
        let writer = box.writer
        var spare = self.spare.block
        var lastSync = SystemClock.monotonicNanos()
        writer.writeMetadataIfDue()   // the first file's, while the sampler takes its first ticks
        while true {
            queue.waitForWork(timeout: cycleSeconds)
            let (block, closed) = queue.exchange(spare)
            writer.notePeakBufferRows(queue.peakRows)
            writer.write(block.rows)
            writer.flushChunk()
            let now = SystemClock.monotonicNanos()
            if Double(now - lastSync) / 1e9 >= cycleSeconds * 0.999 || closed {
                writer.sync()
                lastSync = now
            }
            spare = block
            if closed { break }
        }
        writer.finish(reason: endReason())
    }

    /// Waits until the thread has written everything and closed the last file. Call after
    /// `queue.close()`.
    public func join() { done.wait() }
}

/// Moves the writer, which is not thread-safe, to the writer thread: after `start()` only
/// that thread touches it.
private final class WriterBox: @unchecked Sendable {
    let writer: RotatingWriter
    init(writer: RotatingWriter) { self.writer = writer }
}

private final class BlockBox: Sendable {
    let block: RowBlock
    init(block: RowBlock) { self.block = block }
}
