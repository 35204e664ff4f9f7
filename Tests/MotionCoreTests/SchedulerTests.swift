import MotionCore
import Testing
import MotionTestSupport

@Suite("Fixed-rate scheduler on the simulated clock")
struct SchedulerTests {
    static let epoch: Int64 = 1_763_735_405_123_456_789

    @Test("no drift over a million ticks", arguments: [100, 300, 1000, 7])
    func noDrift(rate: Int) {
        let clock = SimulatedClock(epoch: Self.epoch)
        let timeline = TickTimeline.anchored(rateHz: rate, clock: clock, whenMode: .epoch)
        var scheduler = TickScheduler(timeline: timeline, tickLimit: 1_000_000)
        var last: Tick?
        var count: Int64 = 0
        while let t = scheduler.waitForNextTick(clock: clock) {
            #expect(t.index == count)
            count += 1
            last = t
        }
        #expect(count == 1_000_000)
        #expect(scheduler.statistics.overruns == 0 && scheduler.statistics.missedTicks == 0)
        let k: Int64 = 999_999
        // The deadline is exactly k·10⁹/rate after the start (integer arithmetic, no accumulation).
        let exact = (k * 1_000_000_000) / Int64(rate)
        #expect(last?.monotonicNanos == timeline.startMonotonic + exact)
        // When is the wall-clock-aligned grid value: (firstTick + k) / rate.
        #expect(last?.when == Double(timeline.firstTick + k) / Double(rate))
        #expect(clock.monotonicNow() == timeline.startMonotonic + exact)
    }

    @Test func firstTickIsAlignedToTheEpochGridAndInTheFuture() {
        let clock = SimulatedClock(epoch: Self.epoch)
        let t = TickTimeline.anchored(rateHz: 100, clock: clock, whenMode: .epoch)
        #expect(t.when(0) == 1_763_735_405.13)
        #expect(t.startMonotonic > clock.monotonicNow())
        // The anchor maps the tick's epoch time onto the monotonic clock consistently.
        #expect(t.startMonotonic - clock.monotonicNow() == 1_763_735_405_130_000_000 - Self.epoch)
        let rel = TickTimeline.anchored(rateHz: 100, clock: clock, whenMode: .relative)
        #expect(rel.when(0) == 0 && rel.when(250) == 2.5)
        #expect(rel.tick(250).epoch == 1_763_735_407.63)
    }

    @Test func overrunsAreCountedExactlyAndSkippedWithoutCatchUp() {
        let period: Int64 = 10_000_000
        var clockRef: SimulatedClock?
        var timelineStart: Int64 = 0
        // Late by 2.5 periods at tick 10, by 1.2 periods at tick 40, by half a period at tick 30.
        let clock = SimulatedClock(epoch: Self.epoch) { deadline in
            let k = (deadline - timelineStart) / period
            switch k {
            case 10: return period * 5 / 2
            case 30: return period / 2
            case 40: return period * 12 / 10
            default: return 0
            }
        }
        clockRef = clock
        let timeline = TickTimeline.anchored(rateHz: 100, clock: clock, whenMode: .relative)
        timelineStart = timeline.startMonotonic
        var scheduler = TickScheduler(timeline: timeline, tickLimit: 100)
        var taken: [Int64] = []
        while let t = scheduler.waitForNextTick(clock: clockRef!) { taken.append(t.index) }
        // Tick 10 woke at 12.5 periods: ticks 10, 11, 12 have no sample; sampling resumes at 13.
        // Tick 40 woke at 41.2 periods: ticks 40 and 41 are skipped. Tick 30 (half a period late) is taken.
        let missing = Set(0..<100).subtracting(taken.map(Int.init))
        #expect(missing == [10, 11, 12, 40, 41])
        #expect(scheduler.statistics.overruns == 2)
        #expect(scheduler.statistics.missedTicks == 5)
        #expect(scheduler.statistics.ticks == 95)
        #expect(scheduler.statistics.maxLatenessNanos == period / 2)
        #expect(taken == taken.sorted())
    }

    @Test func lateTicksKeepTheirIdealWhen() {
        let clock = SimulatedClock(epoch: Self.epoch) { _ in 3_000_000 }  // always 3 ms late (under one period)
        let timeline = TickTimeline.anchored(rateHz: 100, clock: clock, whenMode: .relative)
        var scheduler = TickScheduler(timeline: timeline, tickLimit: 50)
        var whens: [Double] = []
        while let t = scheduler.waitForNextTick(clock: clock) { whens.append(t.when) }
        #expect(whens == (0..<50).map { Double($0) / 100 })
        #expect(scheduler.statistics.overruns == 0)
    }
}

@Suite("Resuming after a long stall")
struct ResumeTests {
    @Test("the first future tick is computed exactly", arguments: [7, 100, 300, 1000])
    func firstTickAfter(rate: Int) {
        let t = TickTimeline(rateHz: rate, firstTick: 0, startMonotonic: 5_000_000_000, whenMode: .relative)
        var g = SplitMix(state: UInt64(rate))
        for _ in 0..<2000 {
            let now = t.startMonotonic + Int64(g.next() % 4_000_000_000_000)   // up to ~67 min later
            let k = t.firstTick(after: now)
            #expect(t.deadline(k) > now)
            #expect(k == 0 || t.deadline(k - 1) <= now)
        }
        #expect(t.firstTick(after: t.startMonotonic - 1) == 0)
        #expect(t.firstTick(after: t.startMonotonic) == 1)
    }
}
