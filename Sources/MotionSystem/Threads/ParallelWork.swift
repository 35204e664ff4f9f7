import Dispatch

/// How much batch work (reading files: `OrderedPipeline`, `map`) may run at once.
public enum ParallelWork {
    /// Processors this process may use, at least 1.
    public static var processors: Int { max(1, SystemInfo.onlineProcessors) }

    /// `body(k)` for every k in `0..<count`, in index order, computed on all processors at
    /// once (Dispatch's worker threads; the caller waits). For independent pieces of batch
    /// work such as reading many small files, never for real-time work. One processor, or
    /// one piece, runs on the caller's thread.
    public static func map<T: Sendable>(count: Int, _ body: @Sendable (Int) -> T) -> [T] {
        guard count > 1, processors > 1 else { return (0..<count).map(body) }
        let results = Results<T>(count: count)
        DispatchQueue.concurrentPerform(iterations: count) { k in results.set(k, body(k)) }
        return results.take()
    }

    /// One slot per piece, each written by exactly one iteration (so no lock), read after
    /// all of them are done.
    private final class Results<T>: @unchecked Sendable {
        private let slots: UnsafeMutableBufferPointer<T?>

        init(count: Int) {
            slots = .allocate(capacity: count)
            slots.initialize(repeating: nil)
        }

        deinit {
            _ = slots.deinitialize()
            slots.deallocate()
        }

        func set(_ k: Int, _ value: T) { slots[k] = value }

        /// The results in order (every slot is filled once `concurrentPerform` returns).
        func take() -> [T] { slots.compactMap { $0 } }
    }
}
