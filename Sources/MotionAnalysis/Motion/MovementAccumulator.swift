import Foundation

/// The sleep tracker's measure and actigraphy counts, streaming.
///
/// * Movement per interval (default 10 min): the integral of |user acceleration| in g·s.
///   From `D` rows (the recording's own fusion) when there are any; otherwise from the
///   50 Hz bins of `A` with gravity removed by a 0.5 s one-pole low-pass per axis.
/// * Counts per 60 s epoch (actigraphy): |a| band-passed 0.25–2.5 Hz (one-pole high-pass
///   and low-pass, after ActiGraph's documented pass band), rectified and integrated, in
///   milli-g·s. They follow the same idea as ActiGraph counts but are not calibrated to
///   ActiGraph's units.
struct MovementAccumulator {
    let interval: Double
    let epoch: Double
    private var fromD = Buckets(), fromA = Buckets(), counts = Buckets(), dCounts = Buckets()
    // D integration.
    private var lastD: Double?
    private var dPeriod: Double?
    // A (50 Hz bins) state.
    private var gravity: (Double, Double, Double)?
    private var lastBin: Double?
    private var hp = 0.0, hpPrev = 0.0, lp = 0.0
    private var dHp = 0.0, dHpPrev = 0.0, dLp = 0.0
    private var dCoefficients = BandCoefficients()

    init(interval: Double, epoch: Double) { self.interval = interval; self.epoch = epoch }

    /// Another recording begins: its `D` rows' period is its own (read after a 100 Hz
    /// recording, a 10 Hz one's rows each counted 0.01 s: its movement a tenth of what it was).
    mutating func startRecording() {
        lastD = nil
        dPeriod = nil
    }

    mutating func addD(when: Double, ux: Double, uy: Double, uz: Double) {
        guard ux.isFinite, uy.isFinite, uz.isFinite else { lastD = nil; return }
        // A row before the one before (time went backwards) is left out, as A samples are.
        if let last = lastD, when < last { return }
        let m = (ux * ux + uy * uy + uz * uz).squareRoot()
        var dt = 0.0
        if let last = lastD {
            let step = when - last
            if step > 0 && step < 1 { dPeriod = dPeriod.map { min($0, step) } ?? step }
            dt = (step > 0 && step <= 4 * (dPeriod ?? step)) ? step : (dPeriod ?? 0)
        }
        lastD = when
        fromD.add(key(when, interval), m * dt)
        // Counts from D when there is no A: the same band on |user acceleration|.
        let (a1, alpha) = dCoefficients.forStep(dt)
        dHp = alpha * (dHp + m - dHpPrev); dHpPrev = m
        dLp += a1 * (dHp - dLp)
        dCounts.add(key(when, epoch), abs(dLp) * dt * 1000)
    }

    /// One 20 ms bin of A (mean vector), from `IMUWindowBuilder`.
    mutating func addABin(time: Double, x: Double, y: Double, z: Double, repeats: Int = 1) {
        for r in 0..<repeats { addOneBin(time: time + Double(r) / IMUWindowBuilder.binRate, x: x, y: y, z: z) }
    }

    private mutating func addOneBin(time: Double, x: Double, y: Double, z: Double) {
        let dt = 1 / IMUWindowBuilder.binRate
        if let last = lastBin, time - last > 1 { gravity = nil }   // after a gap, start over
        lastBin = time
        guard var g = gravity else {
            gravity = (x, y, z); hpPrev = (x * x + y * y + z * z).squareRoot(); hp = 0; lp = 0
            return
        }
        let a = 1 - exp(-dt / 0.5)
        g.0 += a * (x - g.0); g.1 += a * (y - g.1); g.2 += a * (z - g.2)
        gravity = g
        let ux = x - g.0, uy = y - g.1, uz = z - g.2
        fromA.add(key(time, interval), (ux * ux + uy * uy + uz * uz).squareRoot() * dt)
        let m = (x * x + y * y + z * z).squareRoot()
        let rc = 1 / (2 * Double.pi * 0.25)
        let alpha = rc / (rc + dt)
        hp = alpha * (hp + m - hpPrev); hpPrev = m
        lp += (1 - exp(-2 * Double.pi * 2.5 * dt)) * (hp - lp)
        counts.add(key(time, epoch), abs(lp) * dt * 1000)
    }

    private func key(_ t: Double, _ length: Double) -> Int64 { floorToInt64(t / length) }

    func result() -> AnalysisSummary.Movement {
        let useD = !fromD.isEmpty
        let sums = (useD ? fromD : fromA).series(interval)
        let epochs = (counts.isEmpty ? dCounts : counts).series(epoch)
        return AnalysisSummary.Movement(intervalS: interval, starts: sums.starts, sums: sums.values.map { Text.round($0, 3) },
                                         epochS: epoch, epochStarts: epochs.starts, counts: epochs.values.map { Text.round($0, 3) },
                                         source: useD ? "D" : (fromA.isEmpty ? nil : "A"))
    }
}

/// Sums per interval number; the current interval is kept aside so a stream in time order
/// touches the dictionary once per interval, not once per sample. Intervals without data
/// are absent (no data is not "no movement").
struct Buckets {
    private var current: Int64 = .min
    private var value = 0.0
    private var done: [Int64: Double] = [:]

    var isEmpty: Bool { current == .min && done.isEmpty }

    @inline(__always)
    mutating func add(_ key: Int64, _ v: Double) {
        if key != current {
            if current != .min { done[current, default: 0] += value }
            current = key; value = 0
        }
        value += v
    }

    func series(_ length: Double) -> (starts: [Double], values: [Double]) {
        var all = done
        if current != .min { all[current, default: 0] += value }
        let keys = all.keys.sorted()
        return (keys.map { Double($0) * length }, keys.map { all[$0] ?? 0 })
    }
}
