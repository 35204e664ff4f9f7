/// Counters of the scheduler (sampling thread only; published through `RecorderCounters`).
public struct SchedulerStatistics: Sendable, Equatable, Codable {
    /// Ticks whose sample was taken.
    public var ticks: Int64 = 0
    /// Wake-ups later than one period (each skips at least one tick).
    public var overruns: Int64 = 0
    /// Ticks skipped because of overruns: no sample exists for them (never fabricated).
    public var missedTicks: Int64 = 0
    /// Worst wake-up lateness seen on a tick that was taken, ns.
    public var maxLatenessNanos: Int64 = 0

    public init() {}
}

/// A fixed-rate scheduler: sleeps to absolute deadlines of a `TickTimeline`.
///
/// A tick woken more than one period late is an overrun: it is counted and skipped
/// together with every other tick whose deadline has already passed; sampling resumes at
/// the next future tick, so there is never a burst of catch-up reads.
public struct TickScheduler {
    public let timeline: TickTimeline
    public private(set) var statistics = SchedulerStatistics()
    private var next: Int64 = 0
    /// Total ticks to run (nil: until stopped).
    public let tickLimit: Int64?

    public init(timeline: TickTimeline, tickLimit: Int64? = nil) {
        self.timeline = timeline
        self.tickLimit = tickLimit
    }

    /// True once `tickLimit` ticks have passed (taken or skipped).
    public var isFinished: Bool {
        if let limit = tickLimit { return next >= limit }
        return false
    }

    /// Sleeps until the next tick that can be taken in time and returns it, or nil when
    /// the tick limit is reached.
    public mutating func waitForNextTick(clock: TickClock) -> Tick? {
        let period = timeline.periodNanos
        while !isFinished {
            let deadline = timeline.deadline(next)
            let woke = clock.sleep(until: deadline)
            let lateness = woke - deadline
            if lateness > period {
                // Skip every tick whose deadline has passed by now.
                var resume = max(next + 1, timeline.firstTick(after: woke))
                if let limit = tickLimit { resume = min(resume, limit) }
                statistics.overruns += 1
                statistics.missedTicks += resume - next
                next = resume
                continue
            }
            statistics.ticks += 1
            statistics.maxLatenessNanos = max(statistics.maxLatenessNanos, lateness)
            let tick = timeline.tick(next)
            next += 1
            return tick
        }
        return nil
    }
}
