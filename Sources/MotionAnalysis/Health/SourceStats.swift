/// Rate and gaps of one source, streaming: counts, a histogram of the intervals between
/// consecutive rows, and the longest intervals with their times.
struct SourceStats {
    /// Upper edges of the gap histogram bins, seconds (the last bin is open).
    static let edges: [Double] = [0.002, 0.005, 0.011, 0.021, 0.051, 0.11, 0.21, 0.51, 1.1, 2.1, 5, 10, 30, 60, 300, 3600]
    static let keepLongest = 10

    var count = 0
    var first: Double?
    var last: Double?
    /// Intervals per bin of `edges`, except the current run (see `histogram`).
    private var counted = [Int](repeating: 0, count: SourceStats.edges.count + 1)
    /// The bin of the last interval, its edges, and how many intervals in a row fell in
    /// it: at a steady rate nearly every interval falls in the same bin, so the per-row
    /// work is two comparisons and an addition.
    private var runBin = 0, runCount = 0
    private var runLower = Double.infinity, runUpper = -Double.infinity
    /// Longest intervals, longest first.
    var longest: [AnalysisSummary.Gap] = []
    /// An interval must be longer than this to enter `longest` (−∞ until it is full).
    private var longestThreshold = -Double.infinity
    /// When went backwards (or stood still) between consecutive rows.
    var backwards = 0
    /// The row before `last` when the interval between them was counted (nil after time
    /// went backwards, and at a recording's first row): a row ahead of both its neighbours
    /// is taken back (`add`), as is one behind both (`beforeBackwards`).
    private var beforeLast: Double?
    /// After time went backwards: the row before and the span as they were, so a row behind
    /// both its neighbours can be taken back when the next row goes on from the one before.
    private var beforeBackwards: (previous: Double, earliest: Double, latest: Double)?
    /// The earliest and latest When where they are not `first` and `last` (kept only when
    /// time went backwards, so the per-row work stays one comparison).
    private var earliest = Double.infinity, latest = -Double.infinity
    /// The span of the rows: earliest to latest When (`first` to `last` when time only
    /// went forwards).
    var span: (start: Double, end: Double)? {
        guard let f = first, let l = last else { return nil }
        return (min(f, earliest), max(l, latest))
    }
    /// Set between two recordings (`startRecording`): the time from one recording's last
    /// row to the next one's first is not an interval of the source — the logger was off —
    /// so it is neither a gap nor in the rate.
    private var between: Double?
    /// The intervals left out that way, and how many.
    private var betweenSeconds = 0.0, betweenCount = 0

    /// Intervals per bin of `edges` (the last bin is open).
    var histogram: [Int] {
        var h = counted
        h[runBin] += runCount
        return h
    }

    /// The rows from now on are another recording's: the interval to its first row is left
    /// out when it is longer than `longerThan` seconds (0: always).
    mutating func startRecording(longerThan: Double) { between = longerThan }

    @inline(__always)
    mutating func add(_ when: Double) {
        count += 1
        guard var previous = last else { first = when; last = when; return }
        var d = when - previous
        if let limit = between {
            between = nil
            if d > limit { betweenSeconds += d; betweenCount += 1; beforeLast = nil; beforeBackwards = nil; last = when; return }
        }
        if d <= 0 {
            backwards += 1
            guard d < 0 else { return }
            if let b = beforeLast, when > b {
                // The row before was ahead of both its neighbours (a damaged When): its
                // interval is taken back and this row goes on from the one before it.
                takeBackLastInterval(from: b, previous - b)
                previous = b
                d = when - b
            } else {
                beforeBackwards = (previous, earliest, latest)
                latest = max(latest, previous); earliest = min(earliest, when); last = when
                beforeLast = nil
                return
            }
        } else if let (b, e, l) = beforeBackwards {
            beforeBackwards = nil
            if when > b {
                // The row before was behind both its neighbours (a GPS week rollover puts a
                // fix 19.6 years back): it is left out of the span, and this row goes on
                // from the one before it.
                earliest = e; latest = l
                previous = b
                d = when - b
            }
        }
        beforeLast = previous
        last = when
        if d > runLower && d <= runUpper {
            runCount += 1
        } else {
            newRun(d)
        }
        if d > longestThreshold { insertLongest(previous, d) }
    }

    /// Undoes the last interval `d`, from `start` (in the current run, perhaps in `longest`).
    private mutating func takeBackLastInterval(from start: Double, _ d: Double) {
        runCount -= 1
        if let i = longest.firstIndex(where: { $0.start == start && $0.durationS == d }) {
            longest.remove(at: i)
            longestThreshold = longest.count == Self.keepLongest ? longest[longest.count - 1].durationS : -.infinity
        }
    }

    /// The interval `d` falls outside the current run's bin: count the run, start another.
    private mutating func newRun(_ d: Double) {
        counted[runBin] += runCount
        var bin = 0
        while bin < Self.edges.count && d > Self.edges[bin] { bin += 1 }
        runBin = bin
        runCount = 1
        runLower = bin == 0 ? -Double.infinity : Self.edges[bin - 1]
        runUpper = bin == Self.edges.count ? Double.infinity : Self.edges[bin]
    }

    private mutating func insertLongest(_ start: Double, _ d: Double) {
        let gap = AnalysisSummary.Gap(start: start, durationS: d)
        let i = longest.firstIndex { $0.durationS < d } ?? longest.count
        longest.insert(gap, at: i)
        if longest.count > Self.keepLongest { longest.removeLast() }
        if longest.count == Self.keepLongest { longestThreshold = longest[longest.count - 1].durationS }
    }

    /// Rows per second between the first and the last row, leaving out the time between
    /// recordings.
    var achievedHz: Double? {
        guard count >= 2, let f = first, let l = last, l - f - betweenSeconds > 0, count - 1 > betweenCount else { return nil }
        return Double(count - 1 - betweenCount) / (l - f - betweenSeconds)
    }

    func report(_ letter: String, configuredHz: Double?) -> AnalysisSummary.SourceHealth {
        AnalysisSummary.SourceHealth(source: letter, rows: count, configuredHz: configuredHz,
                                      // Sparse sources keep their digits: 0.009 Hz made "one every 1 min 51 s" of 110 s.
                                      achievedHz: achievedHz.map { Text.round($0, $0 < 0.1 ? 6 : 3) },
                                      gapEdgesS: Self.edges, gapCounts: histogram,
                                      longestGaps: longest.map { .init(start: $0.start, durationS: Text.round($0.durationS, 3)) })
    }
}

/// A value distribution kept as a fine log-spaced histogram, for percentiles in bounded
/// memory (relative resolution about 2 %) from 0.01 to about 3 900 000 (m of eph: far
/// beyond any fix). A percentile among larger values is the largest value seen, not the
/// top bin's edge (an eph of 1e308 read "median 1403.5 m").
struct LogHistogram {
    private var bins = [Int](repeating: 0, count: 1000)
    private(set) var count = 0
    private var largest = 0.0
    private static let lo = 0.01, step = 1.02

    mutating func add(_ v: Double) {
        guard v.isFinite, v >= 0 else { return }
        // log(v) − log(lo), not log(v / lo): v / lo overflows to infinity above 1.8e306.
        let position = (log(v) - log(Self.lo)) / log(Self.step) + 1
        let i = v <= Self.lo ? 0 : Int(min(Double(bins.count - 1), position))
        bins[i] += 1; count += 1
        largest = max(largest, v)
    }

    func percentile(_ p: Double) -> Double? {
        guard count > 0 else { return nil }
        let target = Int((p * Double(count)).rounded(.up))
        var seen = 0
        for (i, n) in bins.enumerated() {
            seen += n
            guard seen >= max(1, target) else { continue }
            if i == 0 { return Self.lo }
            return i == bins.count - 1 ? largest : Self.lo * pow(Self.step, Double(i) - 0.5)
        }
        return nil
    }
}

import Foundation

/// Magnetometer field strength |m| (raw: the device's own hard-iron offset included, so a
/// device that turns sees some variation even in a clean field), streaming.
struct MagneticFieldStats {
    private(set) var count = 0
    private var sum = 0.0, sumSquares = 0.0

    @inline(__always)
    mutating func add(_ x: Double, _ y: Double, _ z: Double) {
        guard x.isFinite, y.isFinite, z.isFinite else { return }
        let m = (x * x + y * y + z * z).squareRoot()
        count += 1; sum += m; sumSquares += m * m
    }

    /// Mean and standard deviation of |m|, µT; nil with fewer than 10 samples.
    func field() -> (mean: Double, std: Double)? {
        guard count >= 10 else { return nil }
        let mean = sum / Double(count)
        return (mean, max(0, sumSquares / Double(count) - mean * mean).squareRoot())
    }
}
