import Glibc
import Synchronization
import Testing
import MotionSystem

/// `OrderedPipeline`: every item filled is processed once and drained in fill order,
/// whatever the number of slots and workers.
@Suite struct OrderedPipelineTests {
    /// Runs `count` items (item k's value is k) through the pipeline; returns what was
    /// drained (each item's value times three, computed by `process`) and the largest
    /// number of processings that overlapped on one slot.
    func run(count: Int, slots: Int, workers: Int) -> (drained: [Int], overlap: Int, onCaller: Int) {
        let item = UnsafeMutableBufferPointer<Int>.allocate(capacity: slots)
        let result = UnsafeMutableBufferPointer<Int>.allocate(capacity: slots)
        defer { item.deallocate(); result.deallocate() }
        let busy = Mutex<[Int]>(Array(repeating: 0, count: slots))
        let overlap = Mutex(0)
        let caller = pthread_self()
        let onCaller = Mutex(0)
        var next = 0
        var drained: [Int] = []
        OrderedPipeline.run(slots: slots, workers: workers, fill: { slot in
            guard next < count else { return false }
            item[slot] = next
            result[slot] = -1
            next += 1
            return true
        }, process: { slot in
            let now = busy.withLock { $0[slot] += 1; return $0[slot] }
            overlap.withLock { $0 = max($0, now) }
            if pthread_equal(pthread_self(), caller) != 0 { onCaller.withLock { $0 += 1 } }
            // Uneven work, so that later items often finish before earlier ones.
            var x = item[slot]
            for _ in 0..<((item[slot] * 7919) % 2000) { x = (x &* 31 &+ 7) % 1_000_003 }
            result[slot] = item[slot] * 3 + (x < 0 ? 1 : 0)
            busy.withLock { $0[slot] -= 1 }
        }, drain: { slot in
            drained.append(result[slot])
        })
        return (drained, overlap.withLock { $0 }, onCaller.withLock { $0 })
    }

    @Test("items come out processed, once each, in fill order",
          arguments: [(1, 1), (1, 4), (3, 2), (8, 2), (16, 8), (5, 0)])
    func inOrder(slots: Int, workers: Int) {
        let (drained, overlap, onCaller) = run(count: 2_000, slots: slots, workers: workers)
        let wrong = zip(drained, 0...).first { $0.0 != $0.1 * 3 }
        #expect(drained.count == 2_000 && wrong == nil, "\(drained.count) drained; first wrong: \(String(describing: wrong))")
        #expect(overlap <= 1, "a slot was processed twice at once")
        // With workers and room for two items, the caller only fills and drains.
        #expect(onCaller == (workers == 0 || slots == 1 ? 2_000 : 0))
    }

    @Test("fewer items than slots, and none at all; a single item starts no thread")
    func shortRuns() {
        let one = run(count: 1, slots: 8, workers: 2)
        #expect(one.drained == [0] && one.onCaller == 1)
        #expect(run(count: 3, slots: 8, workers: 2).drained == [0, 3, 6])
        #expect(run(count: 0, slots: 8, workers: 2).drained == [])
        #expect(run(count: 0, slots: 4, workers: 0).drained == [])
    }
}
