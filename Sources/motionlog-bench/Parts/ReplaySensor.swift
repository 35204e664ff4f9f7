import MotionCore

/// A sensor that replays readings the simulated IMU produced beforehand (a table of
/// `count` ticks, cycled). It costs next to nothing per read, so a tick loop with it
/// measures the pipeline itself (rows, estimator, queue, encoding, writing) without the
/// simulator's physics, which a real board replaces with an I2C read.
final class ReplaySensor: MotionSensor {
    private let readings: [MotionReading]
    private let source: MotionSensor

    init(recordedFrom source: MotionSensor, rateHz: Int, count: Int = 4096) {
        self.source = source
        let timeline = TickTimeline(rateHz: rateHz, firstTick: 0, startMonotonic: 0, whenMode: .relative)
        readings = (0..<Int64(max(1, count))).map { source.read(at: timeline.tick($0)) }
    }

    var info: SensorInfo { source.info }
    var health: SensorHealth { SensorHealth() }
    func start(rateHz: Int) throws {}

    func read(at tick: Tick) -> MotionReading {
        readings[Int(tick.index % Int64(readings.count))]
    }
}
