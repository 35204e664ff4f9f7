/// Anchors When to GPS time on the sampling thread when the system clock is not
/// synchronised (see docs/GPS.md).
///
/// Once per second of monotonic time it asks the GPS source for its estimate
/// (`GPSTimeEstimator`) and sets the mapper's target: GPS offset − the offset the
/// timeline was anchored with at start. Every tick then gets the mapper's correction, so
/// When steps forward once when GPS time becomes known and is slewed (≤ 500 ppm) after
/// that; it never goes back. With a synchronised clock the offset is only measured and
/// recorded, never applied.
public struct GPSTimeCorrector {
    public let source: GPSTimeSource
    public let base: GPSTimeBase
    public let applies: Bool
    private let anchorOffsetNanos: Int64
    private let whenMode: WhenMode
    public private(set) var mapper: SlewingEpochMapper
    private var nextCheck: Int64 = .min
    private var lastSteps = 0
    /// The record for the metadata, published to `base` without waiting.
    private var record: GPSTimeRecord
    private var unpublished = false
    /// When of the previous tick (the last uncorrected one when a step happens).
    private var previousWhen = -Double.infinity

    /// - Parameters:
    ///   - timeline: the recording's timeline (its anchor is the system clock at start).
    ///   - applies: true when the system clock is unsynchronised (GPS time then wins).
    public init(source: GPSTimeSource, base: GPSTimeBase, timeline: TickTimeline, applies: Bool,
                mapper: SlewingEpochMapper = SlewingEpochMapper()) {
        self.source = source; self.base = base; self.applies = applies; self.mapper = mapper
        whenMode = timeline.whenMode
        record = base.snapshot
        let startEpochNanos = TickTimeline.epochNanos(ofAbsoluteTick: timeline.firstTick, rate: Int64(timeline.rateHz))
        anchorOffsetNanos = startEpochNanos - timeline.startMonotonic
    }

    /// The correction applied now, seconds.
    public var correctionSeconds: Double { Double(mapper.appliedNanos) / 1e9 }

    /// The tick with its When (epoch mode) and epoch corrected. Allocation- and wait-free.
    public mutating func adjust(_ tick: Tick) -> Tick {
        if tick.monotonicNanos >= nextCheck {
            nextCheck = tick.monotonicNanos + 1_000_000_000
            check()
        }
        var t = tick
        if applies {
            let c = mapper.correction(at: tick.monotonicNanos)
            if c != 0 {
                t.epoch = tick.epoch + Double(c) / 1e9
                if whenMode == .epoch { t.when = t.epoch }
            }
            if mapper.steps != lastSteps {
                lastSteps = mapper.steps
                base.endProvisional(correctionNanos: mapper.appliedNanos, stepBoundaryWhen: previousWhen)
                record.steps = mapper.steps
                if record.firstCorrectedWhen == nil {
                    record.firstCorrectedWhen = t.when
                    record.firstStepSeconds = Double(mapper.steppedNanos) / 1e9
                }
                noteCorrection()
            }
        }
        if unpublished { unpublished = !base.tryPublish(record) }
        previousWhen = t.when
        return t
    }

    /// Reads the GPS estimate and updates the target and the record.
    private mutating func check() {
        guard let estimate = source.gpsTimeEstimate() else { return }
        let target = estimate.offsetNanos - anchorOffsetNanos
        record.gpsMinusSystemSeconds = Double(target) / 1e9
        record.gpsDelaySpreadSeconds = Double(estimate.delaySpreadNanos) / 1e9
        if applies {
            mapper.setTarget(target)
            record.clock = GPSTimeRecord.gpsClock
            // A target the mapper slews rather than steps (a clock ahead of GPS) also ends
            // the provisional period: GPS time is known and being applied.
            if base.isProvisional && target - mapper.appliedNanos <= mapper.stepThresholdNanos {
                base.endProvisional(correctionNanos: target)
            }
            noteCorrection()
        }
        unpublished = true
    }

    private mutating func noteCorrection() {
        record.correctionSeconds = Double(mapper.appliedNanos) / 1e9
        record.slewRemainingSeconds = Double(mapper.remainingNanos) / 1e9
        unpublished = true
    }
}
