import MotionCore

/// A series thinned to at most `limit` items (every k-th kept, k doubled whenever the limit
/// is reached: bounded memory for any length, evenly spread over the whole recording), and
/// where the data itself had a gap (`LocationTrack.gapSeconds` of the median interval
/// between items, or time going back), so that a line is never drawn across one.
///
/// The gaps are measured before thinning: thinned points of a long day lie 16 s or more
/// apart, and splitting them by their own spacing made every point a segment of its own,
/// so the map of a 14-hour recording drew no line at all; and the speed and elevation
/// charts drew a straight line across an hour without data.
struct GapThinner<T> {
    let limit: Int
    private let time: (T) -> Double
    /// Each kept item with the longest interval between raw items since the kept item
    /// before it (infinity where time went back).
    private var kept: [(item: T, gapBefore: Double)] = []
    private var stride = 1
    private var seen = 0
    private var lastTime: Double?
    /// The longest raw interval since the last kept item.
    private var pendingGap = 0.0
    /// Raw intervals in 0.1 s bins up to 10 min (the last bin holds the longer ones), for
    /// their median in bounded memory.
    private var intervals = [Int](repeating: 0, count: 6001)
    private var intervalCount = 0

    init(limit: Int, time: @escaping (T) -> Double) {
        self.limit = limit
        self.time = time
    }

    mutating func add(_ item: T) {
        let t = time(item)
        if let last = lastTime {
            let dt = t - last
            pendingGap = max(pendingGap, dt < 0 ? .infinity : dt)
            if dt > 0 {
                intervals[min(Int(dt * 10), intervals.count - 1)] += 1
                intervalCount += 1
            }
        }
        lastTime = t
        defer { seen += 1 }
        guard seen % stride == 0 else { return }
        kept.append((item, pendingGap))
        pendingGap = 0
        guard kept.count >= limit else { return }
        // Every other item goes; the gaps before a dropped item count for the next one kept.
        var halved: [(item: T, gapBefore: Double)] = []
        halved.reserveCapacity(kept.count / 2 + 1)
        var carried = 0.0
        for (k, entry) in kept.enumerated() {
            if k % 2 == 0 {
                halved.append((entry.item, max(entry.gapBefore, carried)))
                carried = 0
            } else {
                carried = max(carried, entry.gapBefore)
            }
        }
        pendingGap = max(pendingGap, carried)
        kept = halved
        stride *= 2
    }

    /// The median raw interval (the middle of its 0.1 s bin), 0 without any.
    private var medianInterval: Double {
        var below = 0
        for (bin, n) in intervals.enumerated() {
            below += n
            if below * 2 > intervalCount { return (Double(bin) + 0.5) / 10 }
        }
        return 0
    }

    /// The kept items, split at the gaps.
    var segments: [[T]] {
        let gap = LocationTrack.gapSeconds(medianInterval: medianInterval)
        var out: [[T]] = []
        for entry in kept {
            if entry.gapBefore > gap || out.isEmpty { out.append([]) }
            out[out.count - 1].append(entry.item)
        }
        return out
    }
}
