import Dispatch

/// Runs independent pieces of work on several processors at once and waits for all of
/// them (the system's thread pool through `DispatchQueue.concurrentPerform`; the caller's
/// thread takes part). For batch work such as reading files, never for the sampler's
/// real-time thread.
public enum ParallelWork {
    /// Calls `body(0)`, …, `body(count − 1)`, as many at a time as there are processors,
    /// and returns when all have returned. The caller guarantees what the compiler cannot
    /// check here: no two indices touch the same state (each index owns its part).
    public static func run(_ count: Int, _ body: (Int) -> Void) {
        withoutActuallyEscaping(body) { escapable in
            let work = Unchecked(body: escapable)
            DispatchQueue.concurrentPerform(iterations: count) { work.body($0) }
        }
    }

    /// Processors this process may use, at least 1.
    public static var processors: Int { max(1, SystemInfo.onlineProcessors) }

    /// The work, handed to the pool's threads (disjointness is the caller's promise).
    private struct Unchecked: @unchecked Sendable { let body: (Int) -> Void }
}
