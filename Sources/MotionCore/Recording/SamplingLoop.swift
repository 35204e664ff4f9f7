import MotionMath
import Synchronization

/// The work of one tick on the sampling thread: read the sensor, build the rows, hand
/// them to the queue. No allocation, no I/O, no locks held across calls.
struct SamplingLoop {
    let configuration: RecorderConfiguration
    let timeline: TickTimeline
    let sensor: MotionSensor
    let location: LocationSource?
    let estimator: DeviceMotionProvider?
    let queue: DoubleBufferedQueue
    let counters: RecorderCounters
    let labels: LabelState
    /// Anchors When to GPS time when the system clock is unsynchronised (nil: no GPS time).
    var timeCorrector: GPSTimeCorrector?

    private let wantA: Bool, wantG: Bool, wantM: Bool, wantD: Bool, wantL: Bool
    private var rows: UnsafeMutableBufferPointer<Row>
    private var count = 0
    private var lastMotionNanos: Int64?
    /// When of the last tick given to the D-row estimator (fix ages are measured from it).
    private var lastMotionWhen: Double?
    private var lastLocationWhen = -Double.infinity
    private var lastHealth = SensorHealth()
    private var lastLocationHealth: LocationHealth?
    private static let capacity = 64

    init(configuration: RecorderConfiguration, timeline: TickTimeline, sensor: MotionSensor,
         location: LocationSource?, estimator: DeviceMotionProvider?, queue: DoubleBufferedQueue,
         counters: RecorderCounters, labels: LabelState, timeCorrector: GPSTimeCorrector? = nil) {
        self.configuration = configuration; self.timeline = timeline; self.sensor = sensor
        self.timeCorrector = timeCorrector
        self.location = location; self.estimator = estimator; self.queue = queue
        self.counters = counters; self.labels = labels
        let s = configuration.sources
        wantA = s.contains(.accelerometer); wantG = s.contains(.gyroscope); wantM = s.contains(.magnetometer)
        wantD = s.contains(.deviceMotion) && estimator != nil
        wantL = s.contains(.location) && location != nil
        rows = .allocate(capacity: Self.capacity)
    }

    private mutating func add(_ row: Row) {
        // More rows than the tick buffer holds (e.g. many GPS fixes after a pause): hand
        // over what is there and go on; nothing is discarded here.
        if count == Self.capacity { hand(); count = 0 }
        rows[count] = row
        count += 1
    }

    mutating func sample(_ scheduled: Tick) {
        let tick = timeCorrector?.adjust(scheduled) ?? scheduled
        count = 0
        let label = labels.current
        let reading = sensor.read(at: tick)
        if wantA, let a = reading.accel { add(Row(source: .accelerometer, label: label, when: tick.when, a.x, a.y, a.z)) }
        if wantG, let g = reading.gyro { add(Row(source: .gyroscope, label: label, when: tick.when, g.x, g.y, g.z)) }
        if wantM, let m = reading.mag { add(Row(source: .magnetometer, label: label, when: tick.when, m.x, m.y, m.z)) }
        // dt runs from the last tick with A and G (the filter's measured sample period).
        if wantD, let estimator, reading.accel != nil && reading.gyro != nil || reading.chipFusion != nil {
            let dt = lastMotionNanos.map { Double(tick.monotonicNanos - $0) / 1e9 } ?? 1 / Double(timeline.rateHz)
            lastMotionNanos = tick.monotonicNanos
            lastMotionWhen = tick.when
            if let motion = estimator.deviceMotion(for: reading, dt: dt) {
                add(Row(deviceMotion: motion, label: label, when: tick.when))
            }
        }
        if wantL, let location, !holdLocationRows {
            location.poll(at: tick) { fix in addFix(fix, label: label) }
        }
        hand()
    }

    private mutating func addFix(_ fix: LocationFix, label: UInt8) {
        // Defence in depth: When (as written) strictly increases per source, whatever the source does.
        var row = Row(fix: fix, label: label)
        row.when = RelativeWhen.of(epochSeconds: fix.when, offset: locationWhenOffset)
        guard row.when > lastLocationWhen, fix.mode == 2 || fix.mode == 3 else {
            _ = counters.rejectedFixes.add(1, ordering: .relaxed)
            return
        }
        lastLocationWhen = row.when
        add(row)
        // The fusion takes the vehicle's acceleration from the fixes (after this tick's D row,
        // as `motionlog fuse` sees them in the file).
        if wantD, let estimator, let last = lastMotionWhen { estimator.observe(fix, age: last - row.when) }
    }

    /// Subtracted from fix times: 0 in epoch mode; in relative mode the first tick's epoch,
    /// corrected to GPS time when that applies.
    private var locationWhenOffset: Double {
        guard timeline.whenMode == .relative, let c = timeCorrector, c.applies else { return timeline.whenOffset }
        return timeline.whenOffset + c.correctionSeconds
    }

    /// Relative When on an unsynchronised clock: fixes wait in the source until GPS time is
    /// known, so their When is measured from the true start.
    private var holdLocationRows: Bool {
        timeline.whenMode == .relative && timeCorrector?.applies == true && timeCorrector?.base.isProvisional == true
    }

    private mutating func hand() {
        guard count > 0 else { return }
        for i in 0..<count { counters.produced.add(rows[i].source) }
        let dropped = queue.append(UnsafeBufferPointer(rebasing: rows[0..<count]))
        if dropped > 0 { _ = counters.droppedRows.add(Int64(dropped), ordering: .relaxed) }
    }

    /// Publishes scheduler and sensor counters (cheap relaxed stores; locks only on change).
    /// While sampling (`final` false) the health is published only if its lock is free at
    /// that instant, else on a later tick: the status and the web page read it from other
    /// threads, and the sampling thread never waits for them. At the stop it waits.
    mutating func publish(_ stats: SchedulerStatistics, final: Bool = false) {
        counters.ticks.store(stats.ticks, ordering: .relaxed)
        counters.overruns.store(stats.overruns, ordering: .relaxed)
        counters.missedTicks.store(stats.missedTicks, ordering: .relaxed)
        counters.maxLatenessNanos.store(stats.maxLatenessNanos, ordering: .relaxed)
        let health = sensor.health
        if health != lastHealth, Self.store(health, in: counters.sensorHealth, waiting: final) {
            lastHealth = health
        }
        if let location {
            // Read once: a source's health getter may be a dynamic (exclusivity-checked) access.
            let h = location.health
            if h != lastLocationHealth, Self.store(h, in: counters.locationHealth, waiting: final) {
                lastLocationHealth = h
            }
        }
    }

    /// Stores `value`; without `waiting`, only if the lock is free now (true when stored).
    private static func store<T: Sendable>(_ value: T, in box: borrowing Mutex<T>, waiting: Bool) -> Bool {
        if waiting { box.withLock { $0 = value }; return true }
        return box.withLockIfAvailable { $0 = value } != nil
    }

    /// At stop: the location source hands over its held fix; then the buffer is released.
    mutating func finish() {
        if wantL, let location {
            count = 0
            let label = labels.current
            location.finish { fix in addFix(fix, label: label) }
            hand()
        }
        rows.deallocate()
    }
}
