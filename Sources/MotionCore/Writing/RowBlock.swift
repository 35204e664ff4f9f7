/// A preallocated, fixed-capacity array of rows: one of the writer's two buffers.
/// Owned by exactly one thread at a time (the queue hands it over under its lock).
/// The row count is kept in raw memory beside the rows, so counting needs no exclusivity
/// check (the owner alone reads and writes it).
public final class RowBlock: @unchecked Sendable {
    public let capacity: Int
    private let base: UnsafeMutablePointer<Row>
    @usableFromInline let countStorage: UnsafeMutablePointer<Int>

    public init(capacity: Int) {
        self.capacity = max(1, capacity)
        base = .allocate(capacity: self.capacity)
        // Touch every page now, so the sampling thread never page-faults on first use.
        base.initialize(repeating: Row(source: .accelerometer, label: 0, when: 0, 0, 0, 0), count: self.capacity)
        countStorage = .allocate(capacity: 1)
        countStorage.initialize(to: 0)
    }

    deinit {
        base.deallocate()
        countStorage.deallocate()
    }

    /// Rows held.
    @inlinable public var count: Int { countStorage.pointee }

    /// Free slots.
    @inlinable public var room: Int { capacity - countStorage.pointee }

    /// Appends rows; the caller checked `room`.
    func append(_ rows: UnsafeBufferPointer<Row>) {
        guard let src = rows.baseAddress else { return }
        let count = countStorage.pointee
        (base + count).update(from: src, count: rows.count)
        countStorage.pointee = count &+ rows.count
    }

    public var rows: UnsafeBufferPointer<Row> { UnsafeBufferPointer(start: base, count: countStorage.pointee) }

    public func removeAll() { countStorage.pointee = 0 }
}
