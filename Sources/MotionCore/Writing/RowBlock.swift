/// A preallocated, fixed-capacity array of rows: one of the writer's two buffers.
/// Owned by exactly one thread at a time (the queue hands it over under its lock).
public final class RowBlock: @unchecked Sendable {
    public let capacity: Int
    public private(set) var count = 0
    private let base: UnsafeMutablePointer<Row>

    public init(capacity: Int) {
        self.capacity = max(1, capacity)
        base = .allocate(capacity: self.capacity)
        // Touch every page now, so the sampling thread never page-faults on first use.
        base.initialize(repeating: Row(source: .accelerometer, label: 0, when: 0, 0, 0, 0), count: self.capacity)
    }

    deinit { base.deallocate() }

    /// Free slots.
    @inlinable public var room: Int { capacity - count }

    /// Appends rows; the caller checked `room`.
    func append(_ rows: UnsafeBufferPointer<Row>) {
        guard let src = rows.baseAddress else { return }
        (base + count).update(from: src, count: rows.count)
        count += rows.count
    }

    public var rows: UnsafeBufferPointer<Row> { UnsafeBufferPointer(start: base, count: count) }

    public func removeAll() { count = 0 }
}
