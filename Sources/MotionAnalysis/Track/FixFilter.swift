/// Removes outliers from a stream of fixes: a fix that implies an impossible speed from
/// the last good one is held back; if the next fixes agree with it (three in a row) the
/// track really moved (a new recording far away, a ferry, a flight) and continues from
/// there, marked `jumped`, without adding the jump to the distance; otherwise it is dropped.
/// A single fix that flies out and back (a multipath spike: far from both neighbours, which
/// agree with each other) is dropped too, although each step alone is possible. So is a
/// single fix whose time is far ahead of the fixes after it (a damaged When, a receiver's
/// glitch): three later fixes that go on from the fix before it outvote it, where before
/// every fix after it was dropped as out of order. And a single stale fix, the first after
/// a loss of signal that still gives a position from before it (`isStale`): the step from
/// it to the next fix is far faster than both the way around it and the step after.
///
/// Streaming: a fix is final once three later fixes were accepted (only the last three can
/// still be dropped); final fixes are put in `ready`, in time order, for the caller to take.
struct FixFilter {
    let maxSpeed: Double
    /// Final fixes not yet taken by the caller.
    var ready: [Fix] = []
    /// The last accepted fixes, at most two between calls: not final yet.
    private var accepted: [Fix] = []
    private(set) var rejected = 0
    /// Fixes not after the last accepted one in time (files out of order, a clock set back).
    private(set) var outOfOrder = 0
    /// Fixes dropped because the fixes after them went on from an earlier time.
    private(set) var aheadOfTime = 0
    private var pending: [Fix] = []
    /// Fixes before the last accepted one in time but after the one before it, in time
    /// order: evidence that the last accepted fix's time is wrong.
    private var behindLast: [Fix] = []
    /// How many fixes outvote a fix in time, as three in a row confirm a jump in space.
    static let confirmingFixes = 3

    init(maxSpeed: Double) { self.maxSpeed = maxSpeed }

    private func plausible(_ a: Fix, _ b: Fix) -> Bool {
        let dt = b.time - a.time
        guard dt > 0 else { return false }
        // Allow the position error of both fixes on top of the speed limit.
        let slack = 2 * (a.eph.isFinite ? a.eph : 10) + 2 * (b.eph.isFinite ? b.eph : 10)
        return a.distance(to: b) <= maxSpeed * dt + slack
    }

    /// A spike: the fix between two others that is out and back at least `spikeSpeed`
    /// faster than the way between its neighbours (and three times as fast), more than
    /// `spikeMinMetres` beyond both fixes' position error. No vehicle turns back that fast;
    /// a U-turn slows down first.
    static let spikeSpeed = 15.0
    static let spikeMinMetres = 50.0
    static let spikeMaxSeconds = 30.0

    static func isSpike(_ a: Fix, _ b: Fix, _ c: Fix) -> Bool {
        let t1 = b.time - a.time, t2 = c.time - b.time
        guard t1 > 0, t2 > 0, t1 + t2 <= 2 * spikeMaxSeconds, !b.jumped, !c.jumped else { return false }
        let out = a.distance(to: b), back = b.distance(to: c)
        let error = 2 * (b.eph.isFinite ? b.eph : 10)
        guard min(out, back) - error > spikeMinMetres else { return false }
        let through = a.distance(to: c) / (t1 + t2)
        let slowest = min(out / t1, back / t2)
        return slowest > through + spikeSpeed && slowest > 3 * through
    }

    /// The fix before the last accepted one, when it is a spike between its neighbours.
    private mutating func dropSpike() {
        let n = accepted.count
        guard n >= 3, Self.isSpike(accepted[n - 3], accepted[n - 2], accepted[n - 1]) else { return }
        accepted.remove(at: n - 2)
        rejected += 1
    }

    /// A stale fix `b`: the step from it to `c` is at least `spikeSpeed` faster than both the
    /// way from `a` to `c` and the step from `c` to `d` (and three times as fast), more than
    /// `spikeMinMetres` beyond its position error, where `c` and `d` follow within
    /// `spikeMaxSeconds`. A receiver that comes back after a loss often gives the position
    /// it last had first, then catches up: a GeoLife ride at 3–4 m/s read as a vehicle for
    /// one such step of 46 m/s after a 65 s loss. Unlike a spike it does not come back, so
    /// the fixes after it (`c`, `d`) say which one is off.
    static func isStale(_ a: Fix, _ b: Fix, _ c: Fix, _ d: Fix) -> Bool {
        let t1 = b.time - a.time, t2 = c.time - b.time, t3 = d.time - c.time
        guard t1 > 0, t2 > 0, t3 > 0, t2 <= spikeMaxSeconds, t3 <= spikeMaxSeconds,
              !b.jumped, !c.jumped, !d.jumped else { return false }
        let step = b.distance(to: c)
        guard step - 2 * (b.eph.isFinite ? b.eph : 10) > spikeMinMetres else { return false }
        let around = max(a.distance(to: c) / (t1 + t2), c.distance(to: d) / t3)
        let speed = step / t2
        return speed > around + spikeSpeed && speed > 3 * around
    }

    /// A spike among the last three accepted fixes, then a stale fix among the last four.
    private mutating func dropOutliers() {
        dropSpike()
        dropStale()
    }

    /// The third fix from the end, when it is stale.
    private mutating func dropStale() {
        let n = accepted.count
        guard n >= 4, Self.isStale(accepted[n - 4], accepted[n - 3], accepted[n - 2], accepted[n - 1]) else { return }
        accepted.remove(at: n - 3)
        rejected += 1
    }

    mutating func add(_ fix: Fix) {
        accept(fix)
        if accepted.count > 3 {
            ready.append(contentsOf: accepted.dropLast(3))
            accepted.removeFirst(accepted.count - 3)
        }
    }

    private mutating func accept(_ fix: Fix) {
        guard let last = accepted.last else { accepted.append(fix); return }
        if fix.time <= last.time {
            if !holdBehindLast(fix) { outOfOrder += 1 }
            return
        }
        // The last fix was followed in time after all: what was held behind it is dropped.
        outOfOrder += behindLast.count
        behindLast = []
        if pending.isEmpty {
            if plausible(last, fix) { accepted.append(fix); dropOutliers() } else { pending = [fix] }
            return
        }
        if plausible(last, fix) {
            rejected += pending.count; pending = []
            accepted.append(fix)
            dropOutliers()
        } else if let p = pending.last, plausible(p, fix) {
            pending.append(fix)
            if pending.count >= 3 {
                pending[0].jumped = true
                accepted += pending
                pending = []
            }
        } else {
            rejected += pending.count
            pending = [fix]
        }
    }

    /// Holds `fix`, before the last accepted fix in time, when it goes on from the fix before
    /// that one; with `confirmingFixes` of them the last accepted fix was the one out of
    /// time: it is dropped and they are taken. False (nothing held) for any other fix.
    private mutating func holdBehindLast(_ fix: Fix) -> Bool {
        let n = accepted.count
        let before = n >= 2 ? accepted[n - 2].time : -Double.infinity
        guard pending.isEmpty, fix.time > before, fix.time > behindLast.last?.time ?? before else { return false }
        behindLast.append(fix)
        guard behindLast.count >= Self.confirmingFixes else { return true }
        accepted.removeLast()
        aheadOfTime += 1
        let held = behindLast
        behindLast = []
        for f in held { accept(f) }
        return true
    }

    /// Counts a fix refused before filtering (bad eph).
    mutating func reject() { rejected += 1 }

    mutating func finish() {
        rejected += pending.count
        pending = []
        outOfOrder += behindLast.count
        behindLast = []
        ready += accepted
        accepted = []
    }
}
