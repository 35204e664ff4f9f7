/// At most `capacity` elements of a stream of any length, evenly spread over all of it:
/// every element until full, then every 2nd, 4th, 8th, ... (each time it fills, every
/// other kept element is dropped and the stride doubles). Bounded memory for fits over a
/// whole recording (`calibrate --from`).
struct EvenSubset<Element> {
    let capacity: Int
    private(set) var kept: [Element] = []
    /// Elements offered so far.
    private(set) var seen = 0
    private var stride = 1

    init(capacity: Int) {
        self.capacity = max(2, capacity)
        kept.reserveCapacity(self.capacity)
    }

    mutating func add(_ element: Element) {
        defer { seen += 1 }
        guard seen % stride == 0 else { return }
        kept.append(element)
        if kept.count >= capacity {
            var i = 0
            kept.removeAll { _ in defer { i += 1 }; return i % 2 == 1 }
            stride *= 2
        }
    }
}
