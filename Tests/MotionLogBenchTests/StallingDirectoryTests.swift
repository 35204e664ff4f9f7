import MotionCore
import Testing
@testable import motionlog_bench

@Suite struct StallingDirectoryTests {
    static let second: Int64 = 1_000_000_000

    /// Writes one byte at simulated time `at` (seconds after the clock's start).
    func write(_ file: OutputFile, _ clock: SimulatedClock, at seconds: Double, start: Int64) throws {
        let target = start + Int64(seconds * 1e9)
        clock.advance(by: target - clock.monotonicNow())
        try [UInt8(0x41)].withUnsafeBytes { try file.write($0) }
    }

    @Test func stallsOnScheduleAndCountsThem() throws {
        let start: Int64 = 5 * Self.second
        let clock = SimulatedClock(start: start, epoch: 1_700_000_000 * Self.second)
        let sink = StallingDirectory(schedule: StallSchedule(length: 2, firstAfter: 1, interval: 3, count: 2), clock: clock)
        let file = try sink.createExclusive(base: "x", ext: ".csv").file

        try write(file, clock, at: 0, start: start)      // first write: starts the schedule
        try write(file, clock, at: 0.9, start: start)    // before the first stall is due
        #expect(sink.stalls == 0)
        #expect(clock.monotonicNow() == start + 900_000_000)

        try write(file, clock, at: 1.0, start: start)    // due: blocks 2 s
        #expect(sink.stalls == 1)
        #expect(clock.monotonicNow() == start + 3 * Self.second)

        try write(file, clock, at: 5.9, start: start)    // next is due 3 s after the stall ended
        #expect(sink.stalls == 1)
        try write(file, clock, at: 6.0, start: start)
        #expect(sink.stalls == 2)
        #expect(clock.monotonicNow() == start + 8 * Self.second)

        try write(file, clock, at: 20, start: start)     // count reached: no third stall
        #expect(sink.stalls == 2)
        #expect(sink.bytesWritten == 6)
        #expect(sink.longestWriteNanos == 2 * Self.second)
    }

    @Test func metadataReplacesNeverStall() throws {
        let clock = SimulatedClock(start: 0, epoch: 0)
        let sink = StallingDirectory(schedule: StallSchedule(length: 5, firstAfter: 0, interval: 0, count: 10), clock: clock)
        try sink.replace(name: "x.json", contents: [1, 2, 3])
        #expect(sink.stalls == 0)
        #expect(clock.monotonicNow() == 0)
    }

    @Test func inlineWriterMissesTheTicksAStallSleepsThrough() throws {
        // 1 kHz for 3 s; one 0.5 s stall 1 s in. Writing on the sampling thread sleeps through
        // about 500 ticks, which the scheduler skips as one overrun.
        let clock = SimulatedClock(start: Self.second, epoch: 1_763_735_405 * Self.second)
        let sink = StallingDirectory(schedule: StallSchedule(length: 0.5, firstAfter: 1, interval: 10, count: 1), clock: clock)
        let outcome = try InlineWriterLoop(rateHz: 1000, seconds: 3, directory: sink, clock: clock).run()
        #expect(sink.stalls == 1)
        #expect(outcome.statistics.overruns == 1)
        #expect((499...501).contains(outcome.statistics.missedTicks))
        #expect(outcome.statistics.ticks + outcome.statistics.missedTicks == 3000)
        #expect(outcome.rowsWritten == outcome.rowsProduced)
        // A, G, M and D on every tick taken, plus the 1 Hz L rows.
        #expect(outcome.rowsProduced >= 4 * outcome.statistics.ticks)
        #expect(outcome.rowsProduced <= 4 * outcome.statistics.ticks + 4)
    }
}
