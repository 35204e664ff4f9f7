import MotionCore

/// The GPS track thinned to at most `limit` points, as `Thinner` thins a chart, split where
/// the fixes themselves had a gap (more than `LocationTrack.defaultMaxGapSeconds` without
/// one, or time going back). The gaps are found before thinning: thinned points of a long
/// day lie 16 s or more apart, and splitting them by their own spacing made every point a
/// segment of its own, so the map of a 14-hour recording drew no line at all.
struct TrackThinner {
    let limit: Int
    private var items: [(point: TrackPoint, breakBefore: Bool)] = []
    private var stride = 1
    private var seen = 0
    private var lastTime: Double?
    /// A gap seen since the last kept point: the next kept point starts a segment.
    private var pendingBreak = false

    init(limit: Int) { self.limit = limit }

    mutating func add(_ p: TrackPoint) {
        if let last = lastTime, !(p.time >= last && p.time - last <= LocationTrack.defaultMaxGapSeconds) { pendingBreak = true }
        lastTime = p.time
        defer { seen += 1 }
        guard seen % stride == 0 else { return }
        items.append((p, pendingBreak))
        pendingBreak = false
        guard items.count >= limit else { return }
        // Every other point goes; a gap before a dropped point moves to the next one kept.
        var kept: [(point: TrackPoint, breakBefore: Bool)] = []
        kept.reserveCapacity(items.count / 2 + 1)
        var carried = false
        for (k, item) in items.enumerated() {
            if k % 2 == 0 {
                kept.append((item.point, item.breakBefore || carried))
                carried = false
            } else {
                carried = carried || item.breakBefore
            }
        }
        pendingBreak = carried
        items = kept
        stride *= 2
    }

    /// The kept points, split at the gaps.
    var segments: [[TrackPoint]] {
        var out: [[TrackPoint]] = []
        for item in items {
            if item.breakBefore || out.isEmpty { out.append([]) }
            out[out.count - 1].append(item.point)
        }
        return out
    }
}
