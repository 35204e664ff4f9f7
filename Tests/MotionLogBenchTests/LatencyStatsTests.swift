import Testing
@testable import motionlog_bench

@Suite struct LatencyStatsTests {
    @Test func nearestRankPercentilesOfAKnownSet() throws {
        // 1000 samples of 1...1000 µs, shuffled: the q-th percentile is the ceil(q·n)-th smallest.
        var nanos = (1...1000).map { Int64($0) * 1000 }
        nanos.reverse()
        let s = try #require(LatencyStats(nanos: nanos))
        #expect(s.samples == 1000)
        #expect(s.p50Micros == 500)
        #expect(s.p99Micros == 990)
        #expect(s.p999Micros == 999)
        #expect(s.maxMicros == 1000)
        #expect(s.meanMicros == 500.5)
    }

    @Test func fewSamplesUseTheLargestForHighPercentiles() throws {
        let s = try #require(LatencyStats(nanos: [3000, 1000, 2000]))
        #expect(s.p50Micros == 2)
        #expect(s.p99Micros == 3)
        #expect(s.p999Micros == 3)
    }

    @Test func noSamplesNoStatistics() {
        #expect(LatencyStats(nanos: []) == nil)
    }

    @Test func medianOfOddAndEvenCounts() {
        #expect(median([5, 1, 3]) == 3)
        #expect(median([4, 1, 3, 2]) == 2.5)
        #expect(median([]) == nil)
    }
}
