import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Items filled in order on the caller's thread, processed on worker threads several at a
/// time, and drained in the same order on the caller's thread again: a ring of `slots`
/// slots, each holding one item from `fill` until `drain` has taken it.
///
/// There is no round and no barrier: as soon as the oldest item is processed the caller
/// drains it and fills its slot with the next item, while the workers go on with the items
/// behind it, so every processor stays busy to the end (the rounds this replaces waited at
/// each round's end for its slowest piece). For batch work such as reading files, never for
/// the sampler's real-time thread. The workers are threads of their own (not the system's
/// pool, whose threads must not wait on each other) and are joined before `run` returns.
public enum OrderedPipeline {
    /// Runs the pipeline until `fill` returns false and everything filled has been drained.
    ///
    /// - `fill(slot)`: caller's thread; puts the next item into `slot`, false at the end.
    /// - `process(slot)`: a worker thread; works on the item in `slot` (each slot by one
    ///   worker at a time; the caller guarantees what the compiler cannot check here: the
    ///   slots' state is disjoint).
    /// - `drain(slot)`: caller's thread, in fill order, after `process(slot)` returned.
    ///
    /// Threads start only once a second item is there: a single item (a small file) is
    /// processed on the caller's thread. With no worker thread (none wanted, one slot, or
    /// none could be started) the caller processes each item itself, in order.
    public static func run(slots: Int, workers wanted: Int, fill: (Int) -> Bool,
                           process: (Int) -> Void, drain: (Int) -> Void) {
        func alone(filled: Int) {
            for slot in 0..<filled { process(slot); drain(slot) }
            while fill(0) { process(0); drain(0) }
        }
        guard fill(0) else { return }
        guard slots > 1, wanted > 0 else { alone(filled: 1); return }
        guard fill(1) else { process(0); drain(0); return }
        withoutActuallyEscaping(process) { escapable in
            let shared = Shared(slots: slots, process: escapable)
            let threads = (0..<wanted).compactMap { _ in WorkerThread.start(shared) }
            guard !threads.isEmpty else { alone(filled: 2); return }
            shared.submit(0)
            shared.submit(1)
            var inFlight = 2
            var ended = false
            for slot in 2..<slots {
                guard fill(slot) else { ended = true; break }
                shared.submit(slot)
                inFlight += 1
            }
            var next = 0
            while inFlight > 0 {
                shared.done[next].wait()
                drain(next)
                inFlight -= 1
                if !ended {
                    if fill(next) { shared.submit(next); inFlight += 1 } else { ended = true }
                }
                next = (next + 1) % slots
            }
            for _ in threads { shared.submit(-1) }
            for thread in threads { thread.join() }
        }
    }

    /// What the caller and the workers share: the queue of filled slots (in fill order),
    /// a count of them, and per slot the signal that it has been processed.
    private final class Shared: @unchecked Sendable {
        let queue = Mutex<[Int]>([])
        let queued = DispatchSemaphore(value: 0)
        let done: [DispatchSemaphore]
        let process: (Int) -> Void

        init(slots: Int, process: @escaping (Int) -> Void) {
            done = (0..<slots).map { _ in DispatchSemaphore(value: 0) }
            self.process = process
        }

        /// Queues `slot` for a worker; -1 tells one worker to stop.
        func submit(_ slot: Int) {
            queue.withLock { $0.append(slot) }
            queued.signal()
        }

        /// A worker's life: the oldest queued slot, processed, until told to stop.
        func work() {
            while true {
                queued.wait()
                let slot = queue.withLock { q in q.removeFirst() }
                guard slot >= 0 else { return }
                process(slot)
                done[slot].signal()
            }
        }
    }

    /// One POSIX thread running `Shared.work`.
    private struct WorkerThread {
        let id: pthread_t

        static func start(_ shared: Shared) -> WorkerThread? {
            var id = pthread_t()
            let context = Unmanaged.passRetained(shared).toOpaque()
            let status = pthread_create(&id, nil, { raw in
                guard let raw else { return nil }
                let shared = Unmanaged<Shared>.fromOpaque(raw).takeRetainedValue()
                shared.work()
                return nil
            }, context)
            guard status == 0 else {
                Unmanaged<Shared>.fromOpaque(context).release()
                return nil
            }
            return WorkerThread(id: id)
        }

        func join() { pthread_join(id, nil) }
    }
}
