/// Rate and gaps of one source, streaming: counts, a histogram of the intervals between
/// consecutive rows, and the longest intervals with their times.
struct SourceStats {
    /// Upper edges of the gap histogram bins, seconds (the last bin is open).
    static let edges: [Double] = [0.002, 0.005, 0.011, 0.021, 0.051, 0.11, 0.21, 0.51, 1.1, 2.1, 5, 10, 30, 60, 300, 3600]
    static let keepLongest = 10

    var count = 0
    var first: Double?
    var last: Double?
    var histogram = [Int](repeating: 0, count: SourceStats.edges.count + 1)
    /// Longest intervals, longest first.
    var longest: [AnalysisSummary.Gap] = []
    /// When went backwards (or stood still) between consecutive rows.
    var backwards = 0

    @inline(__always)
    mutating func add(_ when: Double) {
        count += 1
        guard let previous = last else { first = when; last = when; return }
        let d = when - previous
        if d <= 0 { backwards += 1; if d < 0 { last = when }; return }
        last = when
        var bin = 0
        while bin < Self.edges.count && d > Self.edges[bin] { bin += 1 }
        histogram[bin] += 1
        if longest.count < Self.keepLongest || d > longest[longest.count - 1].durationS { insertLongest(previous, d) }
    }

    private mutating func insertLongest(_ start: Double, _ d: Double) {
        let gap = AnalysisSummary.Gap(start: start, durationS: d)
        let i = longest.firstIndex { $0.durationS < d } ?? longest.count
        longest.insert(gap, at: i)
        if longest.count > Self.keepLongest { longest.removeLast() }
    }

    /// Rows per second between the first and the last row.
    var achievedHz: Double? {
        guard count >= 2, let f = first, let l = last, l > f else { return nil }
        return Double(count - 1) / (l - f)
    }

    func report(_ letter: String, configuredHz: Double?) -> AnalysisSummary.SourceHealth {
        AnalysisSummary.SourceHealth(source: letter, rows: count, configuredHz: configuredHz,
                                      achievedHz: achievedHz.map { ($0 * 1000).rounded() / 1000 },
                                      gapEdgesS: Self.edges, gapCounts: histogram, longestGaps: longest)
    }
}

/// A value distribution kept as a fine log-spaced histogram, for percentiles in bounded
/// memory (relative resolution about 2 %).
struct LogHistogram {
    private var bins = [Int](repeating: 0, count: 600)
    private(set) var count = 0
    private static let lo = 0.01, step = 1.02

    mutating func add(_ v: Double) {
        guard v.isFinite, v >= 0 else { return }
        let i = v <= Self.lo ? 0 : min(bins.count - 1, Int(log(v / Self.lo) / log(Self.step)) + 1)
        bins[i] += 1; count += 1
    }

    func percentile(_ p: Double) -> Double? {
        guard count > 0 else { return nil }
        let target = Int((p * Double(count)).rounded(.up))
        var seen = 0
        for (i, n) in bins.enumerated() {
            seen += n
            if seen >= max(1, target) { return i == 0 ? Self.lo : Self.lo * pow(Self.step, Double(i) - 0.5) }
        }
        return nil
    }
}

import Foundation

/// Magnetometer field strength with the hard-iron offset removed, streaming: the offset
/// is the centre of the per-axis extremes, and the mean and spread of |m − c|² follow from
/// running moments of m (so no second pass is needed).
struct MagneticFieldStats {
    private var n = 0.0
    private var lo = [Double](repeating: .infinity, count: 3), hi = [Double](repeating: -.infinity, count: 3)
    private var s1 = [0.0, 0.0, 0.0]              // Σ m
    private var s2 = 0.0                          // Σ |m|²
    private var s3 = [0.0, 0.0, 0.0]              // Σ |m|² m
    private var s4 = 0.0                          // Σ |m|⁴
    private var mm = [Double](repeating: 0, count: 9)   // Σ m mᵀ

    @inline(__always)
    mutating func add(_ x: Double, _ y: Double, _ z: Double) {
        guard x.isFinite, y.isFinite, z.isFinite else { return }
        let m = [x, y, z]
        let q = x * x + y * y + z * z
        n += 1; s2 += q; s4 += q * q
        for i in 0..<3 {
            lo[i] = min(lo[i], m[i]); hi[i] = max(hi[i], m[i])
            s1[i] += m[i]; s3[i] += q * m[i]
            for j in 0..<3 { mm[i * 3 + j] += m[i] * m[j] }
        }
    }

    /// Mean and standard deviation of |m − c| (µT) and c; nil with fewer than 10 samples.
    func field() -> (mean: Double, std: Double, offset: [Double])? {
        guard n >= 10 else { return nil }
        let c = (0..<3).map { (lo[$0] + hi[$0]) / 2 }
        let cc = c[0] * c[0] + c[1] * c[1] + c[2] * c[2]
        let cS1 = (0..<3).reduce(0) { $0 + c[$1] * s1[$1] } / n
        let cS3 = (0..<3).reduce(0) { $0 + c[$1] * s3[$1] } / n
        var cMc = 0.0
        for i in 0..<3 { for j in 0..<3 { cMc += c[i] * mm[i * 3 + j] * c[j] } }
        cMc /= n
        let eq = s2 / n - 2 * cS1 + cc
        let eq2 = s4 / n + 2 * cc * s2 / n + cc * cc - 4 * (cS3 + cc * cS1) + 4 * cMc
        let variance = max(0, eq2 - eq * eq)
        let r = eq.squareRoot()
        return (r, r > 0 ? variance.squareRoot() / (2 * r) : 0, c)
    }
}
