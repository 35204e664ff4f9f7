import Foundation
import LinuxHardware
import Logging
import MotionCore
import MotionSystem
import Synchronization

/// One recording of the daemon: the `Recorder` running on its own dedicated thread (the
/// sampling thread), plus the free-space monitor. Other threads only touch the recorder's
/// thread-safe parts: its stop signal, label, counters and timeline.
final class RecordingSession: Sendable {
    let counters: RecorderCounters
    let labels: LabelState
    let rateHz: Int
    let locationDescription: String?
    let clockSource: String
    /// GPS time of the recording, if it anchors When to it.
    let gpsTime: GPSTimeBase?
    private let stopSignal: StopSignal
    private let recorder: RecorderBox
    private let monitor: FreeSpaceMonitor?
    private let finished = WakeSignal()
    private let outcome = Mutex<(end: RecordingEnd, summary: RecordingSummary?)?>(nil)

    init(recorder: Recorder, freeSpace: FreeSpaceGuard?, locationDescription: String?, clockSource: String) {
        self.counters = recorder.counters
        self.labels = recorder.labels
        self.stopSignal = recorder.stop
        self.rateHz = recorder.configuration.rateHz
        self.locationDescription = locationDescription
        self.clockSource = clockSource
        self.gpsTime = recorder.gpsTime
        self.recorder = RecorderBox(recorder)
        let stop = recorder.stop
        let monitor = freeSpace.map { g in
            FreeSpaceMonitor(guard: g) { _ in stop.request(reason: FreeSpaceGuard.endReason) }
        }
        if let monitor { recorder.onBytesWritten = { monitor.noteWritten($0) } }
        self.monitor = monitor
    }

    /// Starts the sampling thread. `onFinish` runs on it after the files are closed.
    func start(onFinish: @escaping @Sendable (RecordingSession) -> Void) {
        monitor?.start()
        let thread = Thread { [self] in
            let result: (RecordingEnd, RecordingSummary?)
            do {
                let summary = try recorder.recorder.run()
                if summary.hadWriteFailures, let why = RecordGuards.failureMessage(summary, lowSpace: monitor?.lastVerdict) {
                    // Rows were lost or writing halted: the daemon shows the error (status, LED).
                    result = (.failed("the recording failed: \(why)"), summary)
                } else {
                    switch summary.endReason {
                    case "duration": result = (.duration, summary)
                    case FreeSpaceGuard.endReason:
                        result = (.lowDiskSpace(monitor?.lastVerdict?.description ?? "the card is nearly full"), summary)
                    default: result = (.stopped, summary)
                    }
                }
            } catch {
                result = (.failed("the recording could not start: \(error)"), nil)
            }
            monitor?.stop()
            outcome.withLock { $0 = result }
            finished.signal()
            onFinish(self)
        }
        thread.name = "motionlog-sampling"
        thread.start()
    }

    /// True once the first tick is scheduled (the sensor started and the timeline is anchored).
    var isRunning: Bool { recorder.recorder.timeline != nil }

    /// The outcome, once `run()` returned.
    var end: RecordingEnd? { outcome.withLock { $0?.end } }
    var summary: RecordingSummary? { outcome.withLock { $0?.summary } }

    /// Waits (bounded) until the recording runs or already ended; true when it runs.
    func waitUntilRunning(timeoutSeconds: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while Date() < deadline {
            if end != nil { return false }
            if isRunning { return true }
            SystemClocks.sleep(nanos: 5_000_000)
        }
        return isRunning
    }

    /// Asks the recording to stop after the current tick.
    func requestStop() { stopSignal.request() }

    /// Waits until every row is written, fsynced and the files are closed.
    func waitUntilFinished() -> RecordingEnd {
        finished.wait()
        finished.signal()   // later waiters return at once
        return end ?? .stopped
    }
}

/// Hands the recorder to its sampling thread. Only the thread-safe members (`timeline`,
/// `stop`, `counters`, `labels`) are used from other threads.
private final class RecorderBox: @unchecked Sendable {
    let recorder: Recorder
    init(_ recorder: Recorder) { self.recorder = recorder }
}

/// Makes the daemon's recordings: a fresh sensor, GPS source and recorder per start.
protocol RecordingLauncher: Sendable {
    var boardName: String { get }
    var outputFolder: String { get }
    var rateHz: Int { get }
    /// The free-space rule (nil: no guard).
    var freeSpace: FreeSpaceGuard? { get }
    /// A GPS source is configured.
    var hasGPS: Bool { get }
    func makeSession(label: UInt8) throws(CommandFailure) -> RecordingSession
}

/// The real launcher: the board and options resolved once at daemon start.
struct SetupLauncher: RecordingLauncher {
    let setup: RecordingSetup
    let freeSpace: FreeSpaceGuard?
    let log: Logger

    var boardName: String { setup.board.name }
    var outputFolder: String { setup.outputPath }
    var rateHz: Int { setup.configuration.rateHz }
    var hasGPS: Bool { setup.hasGPS }

    func makeSession(label: UInt8) throws(CommandFailure) -> RecordingSession {
        // What a `record` killed meanwhile left unfinished is repaired now, as at daemon
        // start (until then offload kept saying "copied after the next start recovers them").
        StartupRecovery.run(folder: setup.outputPath, log: log)
        var setup = self.setup
        setup.configuration.label = label
        setup.fast = false    // the daemon always records on the real clock
        let (recorder, locationDescription) = try SensorFactory.makeRecorder(setup, log: log)
        return RecordingSession(recorder: recorder, freeSpace: freeSpace, locationDescription: locationDescription, clockSource: "system")
    }
}
