/// Distance, moving time and per-fix speeds of one piece of a filtered track
/// (`TrackTimeline` cuts a long track at stops and gaps), with the running distance per fix
/// continued from the pieces before it. The maximum speed, elevation and bounding box are
/// the whole track's (`TrackTimeline`, `ElevationCounter`).
struct TrackStats {
    /// The track's distance and moving time up to the end of this piece (the pieces before
    /// it included), added up fix by fix in track order.
    var distance = 0.0
    var moving = 0.0
    /// Smoothed speed per fix, m/s.
    var speeds: [Double] = []
    /// Per fix, the lowest smoothed speed in the `heldSeconds` from it: the speed held
    /// for that long. The maximum speed is the highest of these, so the first fixes after
    /// GPS comes back (often 100–600 m off, one step of 40–120 m/s) do not make a bicycle
    /// ride's maximum 170 km/h.
    var heldSpeeds: [Double] = []
    /// Per fix, the track's distance up to it (see `credit`).
    var cumulative: [Double] = []
    /// The last point the distance was counted from at the piece's last fix (`credit`), for
    /// a piece that goes on in the same move.
    var lastCounted: Fix?

    /// Half-width of the speed smoothing window, seconds.
    static let halfWindow = 5.0
    /// Consecutive fixes further apart than this are not joined for speeds or moving time.
    static let joinSeconds = 60.0
    /// How long a speed must be held to be a maximum, seconds: longer than the ±5 s over
    /// which one wrong fix raises the smoothed speed.
    static let heldSeconds = 20.0

    /// `stays`: the timeline's stay points in this piece. What happens inside one (walking
    /// round a café, position jitter while standing) is neither distance nor moving time, so
    /// the track's distance is the sum of the moves'. `speeds` and `heldSpeeds` are the
    /// fixes' (computed with the fixes around the piece); `distanceBefore` and
    /// `movingBefore` are the track's up to the piece's first fix; `counted`, when the piece
    /// goes on with the move the piece before ended in, the point that piece's distance was
    /// last counted from (its `lastCounted`).
    init(_ fixes: [Fix], stays: [StayPoint], speeds: [Double], heldSpeeds: [Double],
         distanceBefore: Double = 0, movingBefore: Double = 0, counted: Fix? = nil, options: AnalysisOptions) {
        self.speeds = speeds
        self.heldSpeeds = heldSpeeds
        distance = distanceBefore
        moving = movingBefore
        guard !fixes.isEmpty else { return }
        var credited = [Double](repeating: 0, count: fixes.count)
        for range in Self.outside(stays, count: fixes.count) {
            lastCounted = Self.credit(fixes, range, from: range.lowerBound == 0 ? counted : nil,
                                      gapSeconds: options.gapSeconds, into: &credited)
            for i in range.dropFirst() where !fixes[i].jumped {
                let dt = fixes[i].time - fixes[i - 1].time
                if dt <= Self.joinSeconds {
                    if speeds[i] >= options.movingSpeedMps && speeds[i - 1] >= options.movingSpeedMps { moving += dt }
                } else if dt <= options.gapSeconds && fixes[i - 1].distance(to: fixes[i]) >= options.movingSpeedMps * dt {
                    // A loss (a tunnel) whose way is in the distance: its time is too, or
                    // the average speed counts the metres without the seconds.
                    moving += dt
                }
            }
        }
        cumulative.reserveCapacity(fixes.count)
        var sum = distanceBefore
        for c in credited { sum += c; cumulative.append(sum) }
        distance = sum
    }

    /// The maximum speed of a stretch: the highest speed held for `heldSeconds`, and never
    /// below the stretch's average, which it kept up: "avg 5.9 km/h, max 2.1 km/h" (a real
    /// 72-second walk whose speed dipped in every 20 s) or "avg 10 km/h, max 8 km/h" (an
    /// 8-second ride speeding up all along) reads as a bug.
    static func maximum(held: Double, distance: Double, seconds: Double) -> Double {
        seconds > 0 ? max(held, distance / seconds) : held
    }

    /// The index ranges of `count` fixes between the stay points (a stay point's moves end
    /// at its first fix and start again at the fix that left it), in order.
    static func outside(_ stays: [StayPoint], count: Int) -> [ClosedRange<Int>] {
        var ranges: [ClosedRange<Int>] = []
        var from = 0
        for stay in stays {
            if stay.first > from { ranges.append(from...stay.first) }
            from = stay.endIndex
        }
        if from < count - 1 { ranges.append(from...(count - 1)) }
        return ranges
    }

    /// Metres along `fixes[range]`, counting only steps that leave the noise radius of the
    /// last counted point (the fix's `eph`, 5–20 m), so that jitter while standing or
    /// walking slowly does not add up; not across a jump or a loss of data longer than the
    /// timeline's gap (where the way taken is unknown). Each counted step is credited to the
    /// fix that ends it; `cumulative` sums them, and a move's distance is the difference of
    /// its ends' sums, so the moves add up to the track exactly (measured apart, each move
    /// restarted from its first fix: a commute's moves added up to 6136.2 m of 6128.4).
    /// `counted`: the point counted from before the range (else its first fix). Returns the
    /// last point counted from.
    @discardableResult
    static func credit(_ fixes: [Fix], _ range: ClosedRange<Int>, from counted: Fix? = nil, gapSeconds: Double,
                       into credited: inout [Double]) -> Fix {
        var anchor = counted ?? fixes[range.lowerBound]
        for i in range.dropFirst() {
            let f = fixes[i]
            if breaksTrack(fixes, at: i, gapSeconds: gapSeconds) { anchor = f; continue }
            let d = anchor.distance(to: f)
            let noise = max(5, min(20, f.eph.isFinite ? f.eph : 5))
            if d >= noise { credited[i] += d; anchor = f }
        }
        return anchor
    }

    /// Whether the way to fix `i` is unknown (a jump, or a loss of data longer than the
    /// timeline's gap): neither distance nor elevation is counted across it.
    static func breaksTrack(_ fixes: [Fix], at i: Int, gapSeconds: Double) -> Bool {
        fixes[i].jumped || fixes[i].time - fixes[i - 1].time > gapSeconds
    }

    /// Metres of the track from fix `a` to fix `b` (outside stops, as `distance` counts them).
    func distance(from a: Int, to b: Int) -> Double { b > a ? cumulative[b] - cumulative[a] : 0 }

    /// Speed at each fix: the median of gpsd's speeds within ±5 s when gpsd reported them,
    /// else the displacement across ±5 s divided by the time (robust to position jitter,
    /// which a fix-to-fix difference turns into metres per second).
    static func smoothedSpeeds(_ fixes: [Fix], halfWindow: Double = TrackStats.halfWindow) -> [Double] {
        var out = [Double](repeating: 0, count: fixes.count)
        var lo = 0, hi = 0
        var window: [Double] = []
        for i in fixes.indices {
            let t = fixes[i].time
            while lo < i && (fixes[lo].time < t - halfWindow || Self.broken(fixes, lo + 1, i)) { lo += 1 }
            if hi < i { hi = i }
            while hi + 1 < fixes.count && fixes[hi + 1].time <= t + halfWindow && !fixes[hi + 1].jumped
                    && fixes[hi + 1].time - fixes[hi].time <= joinSeconds { hi += 1 }
            window.removeAll(keepingCapacity: true)
            for j in lo...hi where fixes[j].speed.isFinite && fixes[j].speed >= 0 { window.append(fixes[j].speed) }
            if window.count * 2 > hi - lo + 1 {
                window.sort()
                out[i] = window[window.count / 2]
                continue
            }
            var a = lo, b = hi
            if a == b {   // sparse fixes: use the neighbours
                if a > 0 && !fixes[a].jumped && fixes[a].time - fixes[a - 1].time <= joinSeconds * 5 { a -= 1 }
                if b + 1 < fixes.count && !fixes[b + 1].jumped && fixes[b + 1].time - fixes[b].time <= joinSeconds * 5 { b += 1 }
            }
            let dt = fixes[b].time - fixes[a].time
            out[i] = dt > 0 ? fixes[a].distance(to: fixes[b]) / dt : 0
        }
        return out
    }

    /// For each fix, the minimum of `speeds` over the fixes in the `heldSeconds` after it,
    /// or, where that window is cut short (the end, a jump, a break longer than
    /// `joinSeconds`) to no more than the 10 s one wrong fix can raise, the `heldSeconds`
    /// before it; where both are that short, over both.
    static func held(_ speeds: [Double], _ fixes: [Fix]) -> [Double] {
        func linked(_ k: Int) -> Bool { !fixes[k].jumped && fixes[k].time - fixes[k - 1].time <= joinSeconds }
        let enough = 2 * halfWindow
        var out = speeds
        for i in fixes.indices {
            var forward = speeds[i], j = i
            while j + 1 < fixes.count && fixes[j + 1].time - fixes[i].time <= heldSeconds && linked(j + 1) {
                j += 1; forward = min(forward, speeds[j])
            }
            if fixes[j].time - fixes[i].time > enough { out[i] = forward; continue }
            var backward = speeds[i], k = i
            while k > 0 && fixes[i].time - fixes[k - 1].time <= heldSeconds && linked(k) {
                k -= 1; backward = min(backward, speeds[k])
            }
            out[i] = fixes[i].time - fixes[k].time > enough ? backward : min(forward, backward)
        }
        return out
    }

    /// True when a jump or a long break lies between fixes `from` and `to` (inclusive of `to`'s link).
    private static func broken(_ fixes: [Fix], _ from: Int, _ to: Int) -> Bool {
        guard from <= to else { return false }
        for k in from...to where fixes[k].jumped || fixes[k].time - fixes[k - 1].time > joinSeconds { return true }
        return false
    }
}
