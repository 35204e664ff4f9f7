import Synchronization
import Testing
import MotionSystem

/// `ParallelWork.map`: every index computed exactly once, results in index order, whatever
/// the count (none, one, many more than processors) and however long each piece takes.
@Suite struct ParallelWorkTests {
    @Test(arguments: [0, 1, 2, 7, 10_000])
    func everyIndexOnceInOrder(count: Int) {
        let calls = Mutex([Int](repeating: 0, count: count))
        let out = ParallelWork.map(count: count) { k -> Int in
            calls.withLock { $0[k] += 1 }
            // Uneven work, so pieces finish out of order.
            var x = k
            for _ in 0..<(k % 7) * 50 { x = (x &* 31 &+ 7) % 1_000_003 }
            return k * 3 + (x == -1 ? 1 : 0)
        }
        #expect(out == (0..<count).map { $0 * 3 })
        #expect(calls.withLock { $0 }.allSatisfy { $0 == 1 })
    }

    /// Results that are nil stay in their places (the folder listing skips a vanished file).
    @Test func optionalResultsKeepTheirPlaces() {
        let out = ParallelWork.map(count: 100) { k -> Int? in k % 3 == 0 ? nil : k }
        #expect(out.count == 100)
        #expect(out.enumerated().allSatisfy { $0.element == ($0.offset % 3 == 0 ? nil : $0.offset) })
    }
}
