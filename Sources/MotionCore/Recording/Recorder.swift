import Foundation
import Logging
import MotionMath
import Synchronization

/// Why a recording could not start.
public struct RecorderError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// What a finished recording produced.
public struct RecordingSummary: Sendable {
    public var directory: String
    public var files: [String]
    public var rowsWritten: [Source: Int64]
    public var counters: CounterSnapshot
    public var ticks: Int64
    public var startEpoch: Double
    public var endReason: String
    /// The first write failure (nil: every write succeeded).
    public var writeFailure: String? = nil
    /// Files deleted by someone else while they were being written (their rows are lost).
    public var removedFiles: [String] = []

    /// Rows lost to write errors, or a failure that halted writing: the recording did not
    /// keep everything it sampled, and must not be reported as a success.
    public var hadWriteFailures: Bool {
        counters.rowsLostToWriteErrors > 0 || counters.writeErrors > 0 || writeFailure != nil || !removedFiles.isEmpty
    }

    /// Fraction of the scheduled ticks that were missed (the machine could not keep up).
    public var missedFraction: Double {
        let all = ticks + counters.missedTicks
        return all > 0 ? Double(counters.missedTicks) / Double(all) : 0
    }
}

/// The recording pipeline: fixed-rate scheduler → sensor read → rows → double-buffered
/// writer → rotating files. The same pipeline runs on a Raspberry Pi and on the simulator;
/// only the clock, sensor and location source differ.
///
/// `run()` performs the sampling loop on the calling thread, which should be a dedicated
/// thread (the CLI uses the main thread). `stop.request()` may be called from any thread;
/// `run()` returns once every row produced before the stop is written, fsynced and closed.
public final class Recorder {
    /// `recording.clock` of a recording on the simulated clock (`--fast`).
    public static let simulatedClock = "simulated"
    public let configuration: RecorderConfiguration
    public let counters: RecorderCounters
    public let labels: LabelState
    private let clock: TickClock
    private let sensor: MotionSensor
    private let location: LocationSource?
    /// Where D rows come from: motionlog's fusion, or the chip's own passed through.
    private let estimator: DeviceMotionProvider?
    private let directory: OutputDirectory
    private let log: Logger
    private let timeBase: GPSTimeBase?
    /// GPS time, when the recording anchors When to it (`--gpsd` on a board whose clock no
    /// time service set): its `snapshot.clock` says `gps` once GPS time is known.
    public var gpsTime: GPSTimeBase? { timeBase }
    /// Raise it from any thread (signal handler, button, control socket) to stop.
    public let stop: StopSignal
    /// Called from the writer thread after each successful write with its size in bytes
    /// (the free-space guard checks by bytes written, so `--fast` cannot outrun it). Set before `run()`.
    public var onBytesWritten: (@Sendable (Int64) -> Void)?
    private let started = Mutex<TickTimeline?>(nil)

    public init(configuration: RecorderConfiguration, clock: TickClock, sensor: MotionSensor,
                location: LocationSource?, estimator: DeviceMotionProvider?, directory: OutputDirectory,
                log: Logger, timeBase: GPSTimeBase? = nil, stop: StopSignal = StopSignal()) {
        self.timeBase = timeBase
        self.stop = stop
        self.configuration = configuration
        self.counters = RecorderCounters(bufferCapacity: configuration.bufferRows)
        self.labels = LabelState(configuration.label)
        self.clock = clock; self.sensor = sensor; self.location = location
        self.estimator = estimator; self.directory = directory; self.log = log
    }

    /// The timeline once the recording has started (for status displays).
    public var timeline: TickTimeline? { started.withLock { $0 } }

    /// Records until the duration is reached or `stop` is raised.
    public func run() throws(RecorderError) -> RecordingSummary {
        let cfg = configuration
        guard RecorderConfiguration.rateRange.contains(cfg.rateHz) else {
            throw RecorderError("rate \(cfg.rateHz) Hz is outside \(RecorderConfiguration.rateRange)")
        }
        do { try sensor.start(rateHz: cfg.rateHz) } catch {
            throw RecorderError("the IMU (\(sensor.info.model)) could not be started: \(error)")
        }
        // Allocate the buffers before anchoring, so the first tick is not late.
        let queue = DoubleBufferedQueue(blockCapacity: cfg.bufferRows, policy: clock.isRealTime ? .drop : .wait)
        let writerBlock = queue.makeWriterBlock()
        // The first file is created between anchoring and the first tick (a create and a
        // header write, well under the 20 ms lead; the writer thread writes its metadata as
        // it starts).
        let timeline = TickTimeline.anchored(rateHz: cfg.rateHz, clock: clock, whenMode: cfg.whenMode,
                                             leadNanos: 20_000_000)
        var tickLimit: Int64?
        if let d = cfg.duration {
            let ticks = (d * Double(cfg.rateHz)).rounded()
            guard ticks.isFinite, ticks >= 1, ticks < 1e15 else {
                throw RecorderError("duration \(d) s at \(cfg.rateHz) Hz is not a usable number of samples")
            }
            tickLimit = Int64(ticks)
        }
        var scheduler = TickScheduler(timeline: timeline, tickLimit: tickLimit)

        var notes: [String] = []
        if cfg.sources.contains(.deviceMotion) && estimator == nil {
            notes.append("D rows requested but no device-motion source is available: none recorded")
        }
        if cfg.sources.contains(.location) && location == nil {
            notes.append("L rows requested but no GPS source is configured: none recorded")
        }
        for n in notes { log.warning("\(n)") }
        let description = RecordingDescription(
            id: UUID().uuidString, board: cfg.boardName, boardDescription: cfg.boardDescription,
            sensor: sensor.info, gps: cfg.sources.contains(.location) ? cfg.gpsDescription : nil,
            deviceMotion: cfg.sources.contains(.deviceMotion) ? estimator?.info : nil,
            rateHz: cfg.rateHz, sources: cfg.sources.letters, label: String(UnicodeScalar(cfg.label)),
            whenMode: cfg.whenMode, startEpoch: timeline.startEpochSeconds,
            started: TimeText.isoUTC(epochSeconds: timeline.startEpochSeconds),
            clock: !clock.isRealTime ? Self.simulatedClock : cfg.systemClockSynchronised == false ? GPSTimeRecord.unsynchronisedClock : "system",
            rotateBytes: cfg.rotation.maxBytes, rotateSeconds: cfg.rotation.maxSeconds,
            fsyncIntervalSeconds: cfg.fsyncIntervalSeconds, bufferRows: cfg.bufferRows, notes: notes,
            calibration: cfg.sources.contains(.deviceMotion) ? estimator?.calibrationRecord : nil)

        let writer = RotatingWriter(directory: directory, description: description,
                                    configuration: .init(rotation: cfg.rotation, softwareVersion: cfg.softwareVersion,
                                                         numberText: cfg.numberText),
                                    counters: counters, whenOffset: timeline.whenOffset, log: log,
                                    timeBase: timeBase)
        let stop = self.stop
        writer.onFatal = { reason, _ in stop.request(reason: reason) }
        writer.onWritten = onBytesWritten
        // Before the first tick: a folder that cannot be written fails the start, not the
        // recording (no "successful" empty recording).
        if stop.isRequested {
            return RecordingSummary(directory: directory.path, files: [], rowsWritten: [:], counters: counters.snapshot(),
                                    ticks: 0, startEpoch: timeline.startEpochSeconds, endReason: stop.reason ?? "stopped")
        }
        do { try writer.open(firstWhen: timeline.when(0)) } catch {
            throw RecorderError("\(error)")
        }
        started.withLock { $0 = timeline }
        let writerThread = WriterThread(queue: queue, writer: writer, spare: writerBlock,
                                        fsyncIntervalSeconds: cfg.fsyncIntervalSeconds)
        // The end reason is decided once, when the sampling loop ends, before the final drain.
        let endReason = EndReason()
        writerThread.start { endReason.value.withLock { $0 } }
        location?.start()

        // GPS time: applied to When when the system clock is unsynchronised, else only measured.
        let corrector = timeBase.flatMap { base in
            (location as? GPSTimeSource).map {
                GPSTimeCorrector(source: $0, base: base, timeline: timeline, applies: base.isProvisional)
            }
        }
        var loop = SamplingLoop(configuration: cfg, timeline: timeline, sensor: sensor, location: location,
                                estimator: estimator, queue: queue, counters: counters, labels: labels,
                                timeCorrector: corrector)
        // Real-time priority for the sampling thread only: asked for after the writer and GPS
        // threads exist, so they do not inherit SCHED_FIFO (on one core an equal-priority
        // FIFO writer would hold the sampler off while it encodes a block).
        let scheduling = RealtimePriority.current()
        if clock.isRealTime, let refused = RealtimePriority.request() {
            log.notice("real-time scheduling not available: \(refused)")
        }
        while !stop.isRequested, let tick = scheduler.waitForNextTick(clock: clock) {
            loop.sample(tick)
            loop.publish(scheduler.statistics)
        }
        if clock.isRealTime { RealtimePriority.restore(scheduling) }
        let reason = stop.isRequested ? (stop.reason ?? "stopped") : "duration"
        endReason.value.withLock { $0 = reason }
        loop.publish(scheduler.statistics, final: true)
        loop.finish()
        queue.close()
        writerThread.join()

        // A halted writer may have asked to stop after the loop ended: its reason wins.
        let finalReason = writer.halted ?? reason
        return RecordingSummary(directory: directory.path, files: writer.files, rowsWritten: counters.written.all,
                                counters: counters.snapshot(), ticks: scheduler.statistics.ticks,
                                startEpoch: timeline.startEpochSeconds,
                                endReason: finalReason, writeFailure: writer.firstFailure, removedFiles: writer.removedFiles)
    }
}

/// A stop request that any thread may raise and the sampling thread polls once per tick.
public final class StopSignal: Sendable {
    private let flag = Atomic<Bool>(false)
    private let why = Mutex<String?>(nil)
    public init() {}
    public func request() { flag.store(true, ordering: .relaxed) }
    /// Stops with an end reason for the metadata (e.g. `low-disk-space`); the first reason wins.
    public func request(reason: String) {
        why.withLock { if $0 == nil { $0 = reason } }
        flag.store(true, ordering: .releasing)
    }
    public var isRequested: Bool { flag.load(ordering: .relaxed) }
    /// The reason given to `request(reason:)`, if any.
    public var reason: String? { why.withLock { $0 } }
}

/// The end reason, decided by the sampling thread and read by the writer for the metadata.
private final class EndReason: Sendable {
    let value = Mutex("duration")
}
