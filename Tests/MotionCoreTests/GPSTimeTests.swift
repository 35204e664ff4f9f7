import MotionCore
import Testing
import MotionTestSupport

/// The pure time types: the estimate takes the minimum delay over a window; the mapper
/// steps forward, slews otherwise, and never lets When go back.
struct GPSTimeTests {
    static let theta: Int64 = 1_763_735_000_000_000_000  // true epoch − monotonic, ns

    /// Feeds fix k (1 Hz) arriving `delay(k)` ns late.
    static func feed(_ e: inout GPSTimeEstimator, _ range: Range<Int64>, delay: (Int64) -> Int64) {
        for k in range {
            let fix = theta + 10_000_000_000 + k * 1_000_000_000
            e.add(fixEpochNanos: fix, arrivalNanos: fix - theta + delay(k))
        }
    }

    @Test func estimateCarriesOnlyTheMinimumDelay() throws {
        // Report delays varying between 73 and 460 ms, the smallest at fix 17.
        let delays: [Int64] = (0..<30).map { k in k == 17 ? 73_000_000 : 100_000_000 + Int64(k * 7_919 % 360) * 1_000_000 }
        var e = GPSTimeEstimator()
        Self.feed(&e, 0..<2) { delays[Int($0)] }
        #expect(e.estimate == nil)  // fewer than 3 samples
        Self.feed(&e, 2..<30) { delays[Int($0)] }
        let estimate = try #require(e.estimate)
        #expect(estimate.offsetNanos == Self.theta - 73_000_000)
        #expect(estimate.samples == 30)
        #expect(estimate.delaySpreadNanos == (delays.max() ?? 0) - 73_000_000)
    }

    @Test func theWindowSlidesSoOldSamplesStopCounting() throws {
        var e = GPSTimeEstimator(windowNanos: 10_000_000_000)
        Self.feed(&e, 0..<1) { _ in 10_000_000 }       // an early, very fast report
        Self.feed(&e, 1..<5) { _ in 100_000_000 }
        #expect(try #require(e.estimate).offsetNanos == Self.theta - 10_000_000)
        Self.feed(&e, 5..<20) { _ in 100_000_000 }     // 19 s later it has left the window
        #expect(try #require(e.estimate).offsetNanos == Self.theta - 100_000_000)
        #expect(e.estimate?.samples == 11)
    }

    @Test func aJumpInGPSTimeRestartsTheWindow() throws {
        var e = GPSTimeEstimator()
        // A receiver's first fixes with a wrong date (a year early), then the right one.
        for k in Int64(0)..<3 {
            let fix = Self.theta - 31_536_000_000_000_000 + k * 1_000_000_000
            e.add(fixEpochNanos: fix, arrivalNanos: fix - Self.theta + 31_536_000_000_000_000 + 100_000_000)
        }
        #expect(e.estimate != nil)
        Self.feed(&e, 3..<5) { _ in 100_000_000 }
        #expect(e.estimate == nil)  // only two consistent samples since the jump
        #expect(e.jumps == 1)
        Self.feed(&e, 5..<6) { _ in 100_000_000 }
        #expect(try #require(e.estimate).offsetNanos == Self.theta - 100_000_000)
    }

    @Test func fixTimesNotAdvancingWithRealTimeGiveNoEstimate() {
        // A log replayed 100 times faster than recorded: 1 s of fix time every 10 ms.
        var e = GPSTimeEstimator()
        for k in Int64(0)..<50 {
            e.add(fixEpochNanos: Self.theta + k * 1_000_000_000, arrivalNanos: 5_000_000_000 + k * 10_000_000)
            #expect(e.estimate == nil, "fix \(k)")
        }
        // Delays varying by up to 900 ms are still one consistent clock.
        var live = GPSTimeEstimator()
        Self.feed(&live, 0..<10) { k in k % 2 == 0 ? 50_000_000 : 950_000_000 }
        #expect(live.estimate?.offsetNanos == Self.theta - 50_000_000)
        #expect(live.jumps == 0)
    }

    @Test func aLargeForwardCorrectionIsOneStep() {
        var m = SlewingEpochMapper()
        #expect(m.correction(at: 0) == 0)
        m.setTarget(56 * 31_536_000_000_000_000)  // a clock at 1970, GPS in 2026
        #expect(m.correction(at: 10_000_000) == 56 * 31_536_000_000_000_000)
        #expect(m.steps == 1)
        #expect(!m.isSlewing)
    }

    @Test func backwardAndSmallCorrectionsAreSlewedAtMost500ppm() {
        var m = SlewingEpochMapper()
        _ = m.correction(at: 0)
        m.setTarget(-2_000_000)  // clock 2 ms ahead
        #expect(m.correction(at: 1_000_000_000) == -500_000)   // 500 µs per second
        #expect(m.correction(at: 3_000_000_000) == -1_500_000)
        #expect(m.correction(at: 9_000_000_000) == -2_000_000)  // reached, no overshoot
        m.setTarget(-1_950_000)  // a small forward refinement: slewed, not stepped
        #expect(m.correction(at: 9_050_000_000) == -1_975_000)
        #expect(m.steps == 0)
    }

    @Test func whenNeverGoesBackAcrossAnySequenceOfTargets() {
        var rng = SplitMix(state: 42)
        var m = SlewingEpochMapper()
        let period: Int64 = 1_000_000  // 1 kHz ticks
        var previous = -Double.infinity
        var t: Int64 = 0
        for k in 0..<200_000 {
            if k % 997 == 0 {
                // Targets jumping anywhere within ±100 s, forward and backward.
                m.setTarget(Int64(rng.next() % 200_000_000_000) - 100_000_000_000)
            }
            t += period
            let when = Double(1_763_735_405_000_000_000 + t + m.correction(at: t)) / 1e9
            #expect(when > previous, "tick \(k)")
            if when <= previous { break }
            previous = when
        }
    }
}
