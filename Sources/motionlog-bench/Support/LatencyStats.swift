/// Order statistics of wake-up lateness samples (nanoseconds), reported in microseconds.
/// Percentiles use the nearest-rank definition: the smallest sample with at least q·n
/// samples at or below it, so p99.9 of 60 000 samples is the 59 940th smallest.
struct LatencyStats: Codable, Sendable {
    var samples: Int
    var p50Micros: Double
    var p99Micros: Double
    var p999Micros: Double
    var maxMicros: Double
    var meanMicros: Double

    init?(nanos: [Int64]) {
        guard !nanos.isEmpty else { return nil }
        let sorted = nanos.sorted()
        func rank(_ q: Double) -> Double {
            let index = min(sorted.count - 1, max(0, Int((q * Double(sorted.count)).rounded(.up)) - 1))
            return Double(sorted[index]) / 1000
        }
        samples = sorted.count
        p50Micros = rank(0.5)
        p99Micros = rank(0.99)
        p999Micros = rank(0.999)
        maxMicros = Double(sorted[sorted.count - 1]) / 1000
        meanMicros = Double(sorted.reduce(0, +)) / Double(sorted.count) / 1000
    }
}

/// The median of a few repeated measurements (the middle one; mean of the two middle ones).
func median(_ values: [Double]) -> Double? {
    guard !values.isEmpty else { return nil }
    let s = values.sorted()
    let mid = s.count / 2
    return s.count % 2 == 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2
}
