/// The text of one tick's rows, encoded straight into raw memory that the writer owns and
/// reuses (no `[UInt8]` appends, no uniqueness or exclusivity checks per row), and the text
/// of the last When written, which the next tick's rows reuse when they share it (in raw
/// memory too: changing it needs no exclusivity check). Grows when a tick has more rows than
/// any before; used by one thread (the writer's).
final class UnitBytes {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var capacity: Int
    /// The last When's text, across ticks.
    let when: UnsafeMutablePointer<WhenText>

    init(rows: Int = 16) {
        capacity = max(1, rows) * CSVFormat.maxRowBytes
        base = .allocate(capacity: capacity)
        when = .allocate(capacity: 1)
        when.initialize(to: WhenText())
    }

    deinit {
        base.deallocate()
        when.deinitialize(count: 1)
        when.deallocate()
    }

    /// Room for `rows` rows of at most `CSVFormat.maxRowBytes` each, from the start (what
    /// was there before is not kept: a unit is encoded from scratch).
    @inline(__always)
    func reserve(rows: Int) {
        let needed = rows * CSVFormat.maxRowBytes
        if needed > capacity { grow(to: needed) }
    }

    @inline(never)
    private func grow(to needed: Int) {
        base.deallocate()
        capacity = max(needed, capacity * 2)
        base = .allocate(capacity: capacity)
    }
}
