import MotionCore

/// A `MotionSensor` wrapper that measures the real pipeline from outside: at each read it
/// notes how late the sampling thread is relative to the tick's ideal time
/// (`now − tick.monotonicNanos`) into a preallocated buffer, then reads the wrapped sensor.
///
/// The first read also notes the thread's scheduling policy and the CPU clocks, so a probe
/// can report CPU time per tick over exactly the ticks taken.
final class LatenessProbe: MotionSensor {
    private let inner: MotionSensor
    private let buffer: UnsafeMutableBufferPointer<Int64>
    /// Samples noted (one per tick read, up to the capacity).
    private(set) var count = 0
    /// Reads beyond the capacity (not noted).
    private(set) var overflow = 0
    /// The sampling thread's policy at the first tick (after the recorder asked for real time).
    private(set) var policyAtFirstTick = "not started"
    /// Thread CPU, process CPU and monotonic time at the first tick, ns.
    private(set) var atFirstTick: (thread: Int64, process: Int64, monotonic: Int64)?

    init(wrapping inner: MotionSensor, capacity: Int) {
        self.inner = inner
        buffer = .allocate(capacity: max(1, capacity))
        buffer.initialize(repeating: 0)  // fault the pages in before the first tick
    }

    deinit { buffer.deallocate() }

    var info: SensorInfo { inner.info }
    var health: SensorHealth { inner.health }

    func start(rateHz: Int) throws { try inner.start(rateHz: rateHz) }

    func read(at tick: Tick) -> MotionReading {
        let lateness = SystemClock.monotonicNanos() - tick.monotonicNanos
        if count < buffer.count {
            buffer[count] = lateness
            count += 1
        } else {
            overflow += 1
        }
        if atFirstTick == nil {
            policyAtFirstTick = CPUTime.currentPolicyName()
            atFirstTick = (CPUTime.threadNanos(), CPUTime.processNanos(), SystemClock.monotonicNanos())
        }
        return inner.read(at: tick)
    }

    /// The noted lateness samples, ns.
    var samples: UnsafeBufferPointer<Int64> { UnsafeBufferPointer(rebasing: buffer[0..<count]) }
}
