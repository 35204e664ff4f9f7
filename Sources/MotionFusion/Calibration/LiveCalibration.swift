import MotionCore

/// A live calibration run on the calling thread: `stillSeconds` of rest for the gyroscope
/// bias, then turning until the coverage is good (or `maxTurnSeconds`), with a progress
/// line every two seconds. The coverage shown is the one the result reports and is judged
/// by (`MagnetometerCalibrator.provisionalCoverage`), and the last line is on every sample
/// the result uses: the last live figure is the result's.
public struct LiveCalibration {
    public let sensor: MotionSensor
    public let clock: TickClock
    public let rate: Int
    public var stillSeconds = 6.0
    public var maxTurnSeconds = 120.0
    public var minTurnSeconds = 20.0
    public var targetCoverage = 0.9
    /// The field strength the result will be scaled to (`--field`), for the stopping test.
    public var fieldStrength: Double?

    public init(sensor: MotionSensor, clock: TickClock, rate: Int, maxTurnSeconds: Double = 120) {
        self.sensor = sensor; self.clock = clock; self.rate = rate; self.maxTurnSeconds = maxTurnSeconds
    }

    public func run(_ say: (String) -> Void) -> (GyroBiasCalibrator, MagnetometerCalibrator) {
        var gyro = GyroBiasCalibrator()
        var mag = MagnetometerCalibrator()
        let timeline = TickTimeline.anchored(rateHz: rate, clock: clock, whenMode: .relative)
        var scheduler = TickScheduler(timeline: timeline)
        var lastElapsed: Double?
        say("Step 1/2: put the device down and keep it still for \(Int(stillSeconds)) s...")
        var turning = false
        var nextReport = 2.0
        var shown = 0
        var lastTurned = 0.0
        var hints = CoverageHints(target: targetCoverage)
        while let tick = scheduler.waitForNextTick(clock: clock) {
            let reading = sensor.read(at: tick)
            let dt = lastElapsed.map { tick.elapsed - $0 } ?? 0
            lastElapsed = tick.elapsed
            if !turning {
                if let g = reading.gyro, let a = reading.accel { gyro.add(gyro: g, accel: a, dt: dt) }
                if tick.elapsed >= stillSeconds {
                    turning = true
                    say("Step 2/2: now turn the device slowly through all orientations: screen up, screen down, each edge up and down.")
                }
                continue
            }
            if let m = reading.mag { mag.add(m) }
            let turned = tick.elapsed - stillSeconds
            if turned >= nextReport {
                nextReport += 2
                let coverage = mag.provisionalCoverage
                say(hints.line(turned, coverage))
                shown = mag.samples.count
                // Stop once the result would be good: its coverage, and a fit it accepts.
                if coverage.fraction >= targetCoverage && turned >= minTurnSeconds,
                   case .success(let result) = mag.calibrate(fieldStrength: fieldStrength), result.quality.isUsable { break }
            }
            lastTurned = turned
            if turned >= maxTurnSeconds { break }
        }
        // Samples taken since the last line (the turning time ended between two lines, or
        // the clock stopped): the last figure shown covers them too.
        if turning && mag.samples.count != shown { say(hints.line(lastTurned, mag.provisionalCoverage)) }
        return (gyro, mag)
    }
}
