/// Removes outliers from a stream of fixes: a fix that implies an impossible speed from
/// the last good one is held back; if the next fixes agree with it (three in a row) the
/// track really moved (a new recording far away, a ferry, a flight) and continues from
/// there, marked `jumped`, without adding the jump to the distance; otherwise it is dropped.
struct FixFilter {
    let maxSpeed: Double
    private(set) var accepted: [Fix] = []
    private(set) var rejected = 0
    private var pending: [Fix] = []

    init(maxSpeed: Double) { self.maxSpeed = maxSpeed }

    private func plausible(_ a: Fix, _ b: Fix) -> Bool {
        let dt = b.time - a.time
        guard dt > 0 else { return false }
        // Allow the position error of both fixes on top of the speed limit.
        let slack = 2 * (a.eph.isFinite ? a.eph : 10) + 2 * (b.eph.isFinite ? b.eph : 10)
        return a.distance(to: b) <= maxSpeed * dt + slack
    }

    mutating func add(_ fix: Fix) {
        guard let last = accepted.last else { accepted.append(fix); return }
        if fix.time <= last.time { rejected += 1; return }
        if pending.isEmpty {
            if plausible(last, fix) { accepted.append(fix) } else { pending = [fix] }
            return
        }
        if plausible(last, fix) {
            rejected += pending.count; pending = []
            accepted.append(fix)
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

    /// Counts a fix refused before filtering (bad eph).
    mutating func reject() { rejected += 1 }

    mutating func finish() {
        rejected += pending.count
        pending = []
    }
}
