import MotionCore

/// The baseline for storage stalls: a logger that writes to the card inside its sampling
/// loop, as OpenLog Artemis does. Same scheduler, sensors and row encoding as motionlog, but
/// each tick's rows are encoded on the sampling thread and written as soon as a 4 KiB
/// buffer is full — so a stalled write stalls sampling, and the ticks it sleeps through are
/// missed (the scheduler counts them; this logger itself would not notice).
struct InlineWriterLoop {
    let rateHz: Int
    let seconds: Double
    let directory: OutputDirectory
    /// The real clock in benchmarks; tests pass the simulated clock the sink also uses.
    var clock: TickClock = SystemClock()
    static let flushBytes = 4096

    struct Outcome {
        var statistics: SchedulerStatistics
        var rowsProduced: Int64
        var rowsWritten: Int64
        var samplingPolicy: String
    }

    func run() throws(BenchError) -> Outcome {
        let sensor = BenchParts.makeSensor(), gps = BenchParts.makeLocation(), estimator = try BenchParts.makeEstimator()
        do { try sensor.start(rateHz: rateHz) } catch { throw BenchError("the simulated IMU did not start: \(error)") }
        if clock.isRealTime { _ = RealtimePriority.request() }
        let policy = CPUTime.currentPolicyName()
        let file: OutputFile
        do {
            file = try directory.createExclusive(base: "inline", ext: ".csv").file
        } catch { throw BenchError("\(error)") }
        var buffer: [UInt8] = []
        buffer.reserveCapacity(Self.flushBytes + CSVFormat.maxRowBytes * 8)
        buffer.append(contentsOf: CSVFormat.headerBytes)
        let timeline = TickTimeline.anchored(rateHz: rateHz, clock: clock, whenMode: .epoch, leadNanos: 20_000_000)
        var scheduler = TickScheduler(timeline: timeline, tickLimit: Int64((seconds * Double(rateHz)).rounded()))
        var produced: Int64 = 0, written: Int64 = 0, pending: Int64 = 0
        var lastNanos: Int64?
        let label = Label.defaultLetter

        func add(_ row: Row) {
            RowEncoder.append(row, to: &buffer)
            produced += 1
            pending += 1
        }
        while let tick = scheduler.waitForNextTick(clock: clock) {
            let r = sensor.read(at: tick)
            if let a = r.accel { add(Row(source: .accelerometer, label: label, when: tick.when, a.x, a.y, a.z)) }
            if let g = r.gyro { add(Row(source: .gyroscope, label: label, when: tick.when, g.x, g.y, g.z)) }
            if let m = r.mag { add(Row(source: .magnetometer, label: label, when: tick.when, m.x, m.y, m.z)) }
            if let a = r.accel, let g = r.gyro {
                let dt = lastNanos.map { Double(tick.monotonicNanos - $0) / 1e9 } ?? 1 / Double(rateHz)
                lastNanos = tick.monotonicNanos
                add(Row(deviceMotion: estimator.update(accel: a, gyro: g, mag: r.mag, dt: dt), label: label, when: tick.when))
            }
            gps.poll(at: tick) { fix in add(Row(fix: fix, label: label)) }
            if buffer.count >= Self.flushBytes {
                try flush(&buffer, to: file)
                written += pending
                pending = 0
            }
        }
        try flush(&buffer, to: file)
        written += pending
        return Outcome(statistics: scheduler.statistics, rowsProduced: produced, rowsWritten: written,
                       samplingPolicy: policy)
    }

    private func flush(_ buffer: inout [UInt8], to file: OutputFile) throws(BenchError) {
        let failure: OutputError? = buffer.withUnsafeBytes { bytes -> OutputError? in
            do throws(OutputError) { try file.write(bytes); return nil } catch { return error }
        }
        if let failure { throw BenchError("\(failure)") }
        buffer.removeAll(keepingCapacity: true)
    }
}
