import Synchronization

/// A recording's counters. Each has one writer: the sampling thread (`SamplingLoop`) or the
/// writer thread (`RotatingWriter`), as marked; everyone else (the metadata snapshot, the
/// status line, the daemon's status, the web page) only reads. Lock-free where it matters.
public final class RecorderCounters: Sendable {
    // Written by the sampling thread.
    public let ticks = Atomic<Int64>(0)
    public let overruns = Atomic<Int64>(0)
    public let missedTicks = Atomic<Int64>(0)
    public let maxLatenessNanos = Atomic<Int64>(0)
    /// Rows produced per source (index: position in `Source.canonicalOrder`).
    public let produced = PerSourceCounter()
    /// Rows the double buffer refused (both blocks full): the only count of them.
    public let droppedRows = Atomic<Int64>(0)
    /// GPS fixes refused by the recorder (time not increasing, or no 2-D/3-D fix).
    public let rejectedFixes = Atomic<Int64>(0)
    public let sensorHealth = Mutex(SensorHealth())
    public let locationHealth = Mutex<LocationHealth?>(nil)

    // Written by the writer thread.
    /// Rows written per source.
    public let written = PerSourceCounter()
    public let rowsLostToWriteErrors = Atomic<Int64>(0)
    public let writeErrors = Atomic<Int64>(0)
    public let peakBufferRows = Atomic<Int>(0)
    public let worstWriteLatencyNanos = Atomic<Int64>(0)
    public let fsyncs = Atomic<Int64>(0)
    public let currentFile = Mutex<String?>(nil)
    public let bufferCapacity: Int

    public init(bufferCapacity: Int) {
        self.bufferCapacity = bufferCapacity
    }

    public func snapshot() -> CounterSnapshot {
        var c = CounterSnapshot()
        c.overruns = overruns.load(ordering: .relaxed)
        c.missedTicks = missedTicks.load(ordering: .relaxed)
        c.droppedRows = droppedRows.load(ordering: .relaxed)
        c.rejectedFixes = rejectedFixes.load(ordering: .relaxed)
        c.rowsLostToWriteErrors = rowsLostToWriteErrors.load(ordering: .relaxed)
        c.writeErrors = writeErrors.load(ordering: .relaxed)
        c.peakBufferRows = peakBufferRows.load(ordering: .relaxed)
        c.peakBufferFill = Double(c.peakBufferRows) / Double(max(1, bufferCapacity))
        c.worstWriteLatencyMs = Double(worstWriteLatencyNanos.load(ordering: .relaxed)) / 1e6
        c.fsyncs = fsyncs.load(ordering: .relaxed)
        c.sensorHealth = sensorHealth.withLock { $0 }
        c.locationHealth = locationHealth.withLock { $0 }
        return c
    }

    func raiseMax(_ a: borrowing Atomic<Int64>, _ v: Int64) {
        var cur = a.load(ordering: .relaxed)
        while v > cur {
            let (exchanged, original) = a.compareExchange(expected: cur, desired: v, ordering: .relaxed)
            if exchanged { return }
            cur = original
        }
    }
}

/// One atomic row counter per source.
public final class PerSourceCounter: Sendable {
    private let a = Atomic<Int64>(0), g = Atomic<Int64>(0), m = Atomic<Int64>(0)
    private let d = Atomic<Int64>(0), l = Atomic<Int64>(0)

    public init() {}

    @inlinable public func add(_ s: Source, _ n: Int64 = 1) {
        counter(s) { _ = $0.add(n, ordering: .relaxed) }
    }

    public func value(_ s: Source) -> Int64 { counter(s) { $0.load(ordering: .relaxed) } }

    public var all: [Source: Int64] {
        Dictionary(uniqueKeysWithValues: Source.canonicalOrder.map { ($0, value($0)) })
    }

    @usableFromInline @discardableResult func counter<R>(_ s: Source, _ body: (borrowing Atomic<Int64>) -> R) -> R {
        switch s {
        case .accelerometer: return body(a)
        case .gyroscope: return body(g)
        case .magnetometer: return body(m)
        case .deviceMotion: return body(d)
        case .location: return body(l)
        }
    }
}
