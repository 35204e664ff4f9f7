import Synchronization

/// What the producer does when both buffers are full.
public enum OverflowPolicy: Sendable {
    /// Real time: drop the new rows and count them. Never block, never grow.
    case drop
    /// Simulated time (`--fast`): wait for the writer, so the file has exactly the content
    /// a real-time run would. Nothing is late when time itself is simulated.
    case wait
}

/// The hand-over point between the sampling thread and the writer thread.
///
/// The sampling thread appends rows to the front block under a short lock; the writer
/// thread swaps the front block for its own empty one (under the same lock) and writes the
/// full one with no lock held. So the sampling thread never waits on file I/O. When the
/// front block is full while the writer is still busy, new rows are dropped: `append`
/// says how many, and its caller counts them (`RecorderCounters.droppedRows`, one owner);
/// with `.wait` the producer waits for the swap instead.
public final class DoubleBufferedQueue: Sendable {
    private struct State: @unchecked Sendable {
        var front: RowBlock
        var closed = false
        var peakRows = 0
        var wakeRequested = false
        var producerWaiting = false
    }

    public let blockCapacity: Int
    public let policy: OverflowPolicy
    private let state: Mutex<State>
    private let writerWake = WakeSignal()
    private let spaceAvailable = WakeSignal()

    /// Creates the front block; the writer brings the second one (`makeWriterBlock`).
    public init(blockCapacity: Int, policy: OverflowPolicy) {
        self.blockCapacity = blockCapacity
        self.policy = policy
        state = Mutex(State(front: RowBlock(capacity: blockCapacity)))
    }

    /// The writer's block, preallocated like the front one.
    public func makeWriterBlock() -> RowBlock { RowBlock(capacity: blockCapacity) }

    /// Appends one tick's rows, all or none. Returns the number of rows dropped (0 normally).
    @discardableResult
    public func append(_ rows: UnsafeBufferPointer<Row>) -> Int {
        if rows.isEmpty { return 0 }
        while true {
            let (accepted, wake, mustWait) = state.withLock { s -> (Bool, Bool, Bool) in
                if s.closed { return (false, false, false) }
                if s.front.room >= rows.count {
                    s.front.append(rows)
                    s.peakRows = max(s.peakRows, s.front.count)
                    var wake = false
                    if !s.wakeRequested && s.front.count * 2 >= s.front.capacity {
                        s.wakeRequested = true
                        wake = true
                    }
                    return (true, wake, false)
                }
                if policy == .wait && rows.count <= s.front.capacity {
                    s.producerWaiting = true
                    return (false, true, true)
                }
                return (false, !s.wakeRequested, false)
            }
            if wake { writerWake.signal() }
            if accepted { return 0 }
            if mustWait { spaceAvailable.wait(); continue }
            return rows.count
        }
    }

    /// Writer side: gives the (empty) `spare` block and takes the front one. Also says
    /// whether the queue was closed before the swap (then nothing more will come).
    public func exchange(_ spare: RowBlock) -> (block: RowBlock, closed: Bool) {
        spare.removeAll()
        let (block, closed, resume) = state.withLock { s -> (RowBlock, Bool, Bool) in
            let full = s.front
            s.front = spare
            s.wakeRequested = false
            let resume = s.producerWaiting
            s.producerWaiting = false
            return (full, s.closed, resume)
        }
        if resume { spaceAvailable.signal() }
        return (block, closed)
    }

    /// Writer side: waits until the producer asks for a swap, the queue closes, or `timeout`
    /// (seconds of real time) passes.
    public func waitForWork(timeout seconds: Double) {
        writerWake.wait(timeout: seconds)
    }

    /// Producer side: no more rows will come. Wakes the writer for the final drain.
    public func close() {
        state.withLock { $0.closed = true }
        writerWake.signal()
    }

    /// The most rows the front block held at once.
    public var peakRows: Int { state.withLock { $0.peakRows } }
}
