import MotionCore

/// The GPS track thinned to at most `limit` points, as `Thinner` thins a chart, split at
/// the gaps the fixes themselves had (`LocationTrack.gapSeconds` of their median interval,
/// or time going back). The gaps are measured before thinning: thinned points of a long
/// day lie 16 s or more apart, and splitting them by their own spacing made every point a
/// segment of its own, so the map of a 14-hour recording drew no line at all.
struct TrackThinner {
    let limit: Int
    /// Each kept point with the longest interval between raw fixes since the kept point
    /// before it (infinity where time went back).
    private var items: [(point: TrackPoint, gapBefore: Double)] = []
    private var stride = 1
    private var seen = 0
    private var lastTime: Double?
    /// The longest raw interval since the last kept point.
    private var pendingGap = 0.0
    /// Raw intervals in 0.1 s bins up to 10 min (the last bin holds the longer ones), for
    /// their median in bounded memory.
    private var intervals = [Int](repeating: 0, count: 6001)
    private var intervalCount = 0

    init(limit: Int) { self.limit = limit }

    mutating func add(_ p: TrackPoint) {
        if let last = lastTime {
            let dt = p.time - last
            pendingGap = max(pendingGap, dt < 0 ? .infinity : dt)
            if dt > 0 {
                intervals[min(Int(dt * 10), intervals.count - 1)] += 1
                intervalCount += 1
            }
        }
        lastTime = p.time
        defer { seen += 1 }
        guard seen % stride == 0 else { return }
        items.append((p, pendingGap))
        pendingGap = 0
        guard items.count >= limit else { return }
        // Every other point goes; the gaps before a dropped point count for the next one kept.
        var kept: [(point: TrackPoint, gapBefore: Double)] = []
        kept.reserveCapacity(items.count / 2 + 1)
        var carried = 0.0
        for (k, item) in items.enumerated() {
            if k % 2 == 0 {
                kept.append((item.point, max(item.gapBefore, carried)))
                carried = 0
            } else {
                carried = max(carried, item.gapBefore)
            }
        }
        pendingGap = max(pendingGap, carried)
        items = kept
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

    /// The kept points, split at the gaps.
    var segments: [[TrackPoint]] {
        let gap = LocationTrack.gapSeconds(medianInterval: medianInterval)
        var out: [[TrackPoint]] = []
        for item in items {
            if item.gapBefore > gap || out.isEmpty { out.append([]) }
            out[out.count - 1].append(item.point)
        }
        return out
    }
}
