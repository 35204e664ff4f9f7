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
    /// The longest raw interval since the last kept item.
    private var pendingGap = 0.0
    private var intervals = IntervalMedian()

    init(limit: Int, time: @escaping (T) -> Double) {
        self.limit = limit
        self.time = time
    }

    mutating func add(_ item: T) {
        if let dt = intervals.add(time(item)) { pendingGap = max(pendingGap, dt < 0 ? .infinity : dt) }
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

    /// The kept items, split at the gaps.
    var segments: [[T]] {
        let gap = LocationTrack.gapSeconds(medianInterval: intervals.median)
        var out: [[T]] = []
        for entry in kept {
            if entry.gapBefore > gap || out.isEmpty { out.append([]) }
            out[out.count - 1].append(entry.item)
        }
        return out
    }
}

/// The median interval between consecutive times of a series, in bounded memory: the
/// positive intervals in 0.1 s bins up to 10 min (the last bin holds the longer ones).
struct IntervalMedian {
    private var bins = [Int](repeating: 0, count: 6001)
    private var count = 0
    private var last: Double?

    /// Notes the next time; the interval since the time before (negative where time went
    /// back), nil for the first.
    mutating func add(_ t: Double) -> Double? {
        defer { last = t }
        guard let last else { return nil }
        let dt = t - last
        if dt > 0 {
            bins[min(Int(dt * 10), bins.count - 1)] += 1
            count += 1
        }
        return dt
    }

    /// The median positive interval (the middle of its bin), 0 without any.
    var median: Double {
        var below = 0
        for (bin, n) in bins.enumerated() {
            below += n
            if below * 2 > count { return (Double(bin) + 0.5) / 10 }
        }
        return 0
    }
}
