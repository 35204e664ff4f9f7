import Foundation
import LinuxHardware
import Logging
import MotionCore
import Synchronization

/// The headless logger: runs the `DaemonCore` state machine and carries out its actions —
/// starting a recording on its own thread, stopping it (waiting until the files are
/// closed), setting labels, running the shutdown command.
///
/// Inputs arrive from several threads (daemon loop: buttons and ticks; control socket;
/// signals; a recording that ends by itself) and are handled one at a time. Status is read
/// from a separately published snapshot plus the recording's atomic counters, so `status`
/// answers at once even while a stop is waiting for the writer.
final class Daemon: Sendable {
    struct Settings: Sendable {
        var core = DaemonCore.Settings()
        /// While recording, show "no GPS fix" on the LED.
        var ledShowsGPS = true
        /// Where `motionlog offload` writes its progress (nil: not followed).
        var offloadStatusFile: String?
    }

    private struct State: Sendable {
        var core: DaemonCore
        var session: RecordingSession?
        var lastFiles: [String] = []
        var recordings = 0
    }

    /// What `status` and the LED read without waiting for the handler.
    private struct Published: Sendable {
        var phase: DaemonPhase = .idle
        var message: String?
        var label: UInt8 = Label.defaultLetter
        var session: RecordingSession?
        var lastFiles: [String] = []
        var recordings = 0
        var nextDeadline: Int64?
    }

    let launcher: RecordingLauncher
    let settings: Settings
    private let shutdown: ShutdownRunner
    private let log: Logger
    private let state: Mutex<State>
    private let published = Mutex(Published())
    private let rates = Mutex(RateMeter())
    private let gpioProblem = Mutex<String?>(nil)
    let offload: OffloadWatch

    init(launcher: RecordingLauncher, settings: Settings, shutdown: ShutdownRunner, log: Logger) {
        self.launcher = launcher
        self.settings = settings
        self.shutdown = shutdown
        self.log = log
        offload = OffloadWatch(path: settings.offloadStatusFile)
        state = Mutex(State(core: DaemonCore(settings: settings.core)))
        published.withLock { $0.label = settings.core.baseLabel }
    }

    // MARK: Inputs

    /// Handles one input and everything it leads to; returns the reply for whoever asked.
    @discardableResult
    func handle(_ input: DaemonInput) -> DaemonStep {
        state.withLock { s in
            var first: DaemonStep?
            var queue = [input]
            while !queue.isEmpty {
                let step = s.core.handle(queue.removeFirst())
                if first == nil { first = step }
                publish(s)
                for action in step.actions {
                    if let next = execute(action, &s) { queue.append(next) }
                    publish(s)
                }
                // A failure that follows from the request (e.g. the start failed) is its answer.
                if let f = first, f.accepted, !step.accepted, step.message != nil { first = step }
            }
            return first ?? DaemonStep()
        }
    }

    /// Called on a recording's own thread when it ended (by itself or after a stop).
    private func sessionFinished(_ session: RecordingSession) {
        let isCurrent = state.withLock { $0.session === session }
        guard isCurrent else { return }      // a stop already collected it
        let end = session.waitUntilFinished()
        let files = state.withLock { s -> [String]? in
            guard s.session === session else { return nil }
            collect(session, &s)
            _ = s.core.handle(.recordingEnded(end))
            publish(s)
            return s.lastFiles
        }
        guard let files else { return }
        // Which files, as a stop asked for logs them (a recording that reached its
        // duration left "recording started" without an end in the journal).
        let written: Logger.Metadata = ["files": "\(files.joined(separator: " "))"]
        switch end {
        case .duration: log.notice("recording stopped: it reached its duration", metadata: written)
        case .stopped: log.notice("recording stopped", metadata: written)
        case .lowDiskSpace(let why), .failed(let why): log.error("\(why)", metadata: written)
        }
    }

    private func execute(_ action: DaemonAction, _ s: inout State) -> DaemonInput? {
        switch action {
        case .startRecording(let label):
            if let g = launcher.freeSpace {
                let verdict = g.check()
                if verdict.isLow { return .recordingEnded(.lowDiskSpace(verdict.description)) }
            }
            let session: RecordingSession
            do { session = try launcher.makeSession(label: label) } catch {
                return .recordingEnded(.failed(error.message))
            }
            s.session = session
            s.recordings += 1
            rates.withLock { $0.reset() }
            session.start { [weak self] finished in self?.sessionFinished(finished) }
            guard session.waitUntilRunning() else {
                let end = session.waitUntilFinished()
                collect(session, &s)
                return .recordingEnded(end)
            }
            log.notice("recording started", metadata: ["label": "\(Character(UnicodeScalar(label)))", "folder": "\(launcher.outputFolder)"])
            return nil
        case .stopRecording:
            guard let session = s.session else { return .recordingEnded(.stopped) }
            session.requestStop()
            let end = session.waitUntilFinished()
            collect(session, &s)
            log.notice("recording stopped", metadata: ["files": "\(s.lastFiles.joined(separator: " "))"])
            return .recordingEnded(end)
        case .setLabel(let letter):
            s.session?.labels.set(letter)
            return nil
        case .runShutdown(let command):
            log.notice("long press: running the shutdown command", metadata: ["command": "\(command)"])
            let runner = shutdown
            let thread = Thread { [weak self] in
                let failure = runner.run(command)
                if let failure { self?.log.error("\(failure)") }
                self?.handle(.shutdownFinished(failure: failure))
            }
            thread.name = "motionlog-shutdown"
            thread.start()
            return nil
        }
    }

    private func collect(_ session: RecordingSession, _ s: inout State) {
        if s.session === session { s.session = nil }
        if let summary = session.summary {
            s.lastFiles = summary.files.map { summary.directory + "/" + $0 }
        }
    }

    private func publish(_ s: State) {
        published.withLock { p in
            p.phase = s.core.phase
            p.message = s.core.message
            p.label = s.core.effectiveLabel
            p.session = s.session
            p.lastFiles = s.lastFiles
            p.recordings = s.recordings
            p.nextDeadline = s.core.nextDeadline
        }
    }

    /// Stops a running recording (SIGTERM, shutdown of the daemon) and waits for its files.
    func stopForExit() {
        handle(.stop)
    }

    // MARK: Observation

    var phase: DaemonPhase { published.withLock { $0.phase } }
    /// When the loop must deliver a `.tick` (a held button reaching the long-press time).
    var nextDeadline: Int64? { published.withLock { $0.nextDeadline } }

    func noteGPIOProblem(_ problem: String?) { gpioProblem.withLock { $0 = problem } }

    /// Samples the row counters for rows/s (the daemon loop calls this about once a second).
    func sampleRates(now: Int64) {
        guard let session = published.withLock({ $0.session }) else { return }
        let produced = session.counters.produced.all
        rates.withLock { $0.sample(produced, at: now) }
    }

    /// The LED pattern for the current state.
    var ledPattern: LEDPattern {
        let p = published.withLock { $0 }
        // A USB offload says how it goes (the recording, if any, is unaffected).
        if p.phase != .error, let o = offload.progress {
            switch o.state {
            case .copying: return .offloading
            case .done: return .offloadDone
            case .incomplete: return .offloadIncomplete
            case .error: return .error
            }
        }
        switch p.phase {
        case .idle: return .idle
        case .recording:
            // Rows lost to write errors: the LED must not say all is well.
            if let session = p.session, session.counters.rowsLostToWriteErrors.load(ordering: .relaxed) > 0 { return .error }
            guard settings.ledShowsGPS, let session = p.session, session.locationDescription != nil else { return .recording }
            let mode = session.counters.locationHealth.withLock { $0?.lastMode ?? 0 }
            return mode >= 2 ? .recording : .recordingNoFix
        case .stopping: return .busy
        case .shuttingDown: return .busy
        case .error: return .error
        }
    }

    /// The clock When is based on now: once GPS time set it (`gps`), the kernel's flag no
    /// longer says anything about the rows (the status said "NOT synchronised" after GPS time
    /// had set When and renamed the file).
    private func clockStatus(_ session: RecordingSession?) -> DaemonStatus.ClockStatus {
        if session?.gpsTime?.snapshot.clock == GPSTimeRecord.gpsClock { return .init(source: GPSTimeRecord.gpsClock, synchronized: true) }
        return .init(source: session?.clockSource ?? "system", synchronized: SystemClockStatus.current().synchronised)
    }

    func status() -> DaemonStatus {
        let p = published.withLock { $0 }
        let session = p.session
        let c = session?.counters
        var rowsWritten: [String: Int64] = [:]
        var perSecond: [String: Double] = [:]
        var elapsed: Double?
        if let session, let c {
            for (s, n) in c.written.all where n > 0 { rowsWritten[String(s.letter)] = n }
            let r = rates.withLock { $0.rates }
            for (s, v) in r where v > 0 || (c.produced.value(s) > 0) { perSecond[String(s.letter)] = v }
            let ticks = c.ticks.load(ordering: .relaxed) + c.missedTicks.load(ordering: .relaxed)
            elapsed = Double(ticks) / Double(session.rateHz)
        }
        let gps: DaemonStatus.GPSStatus
        if let session, session.locationDescription == nil {
            gps = .init(fix: "no GPS", mode: nil, source: nil)
        } else if session == nil && !launcher.hasGPS {
            gps = .init(fix: "no GPS", mode: nil, source: nil)
        } else if let c, let health = c.locationHealth.withLock({ $0 }) {
            gps = .init(fix: health.statusText ?? "waiting", mode: health.lastMode, source: session?.locationDescription)
        } else {
            gps = .init(fix: session == nil ? "not recording" : "waiting", mode: nil, source: session?.locationDescription)
        }
        let free = launcher.freeSpace?.check()
        var message = p.message
        if p.phase == .recording, let lost = c?.rowsLostToWriteErrors.load(ordering: .relaxed), lost > 0 {
            message = "WRITE ERRORS: \(lost) rows lost so far (see the daemon's log)"
        }
        return DaemonStatus(
            state: p.phase.rawValue, message: message, board: launcher.boardName, outputFolder: launcher.outputFolder,
            currentFile: session == nil ? nil : c?.currentFile.withLock { $0 },
            elapsedSeconds: elapsed, rateHz: launcher.rateHz, rowsPerSecond: perSecond, rowsWritten: rowsWritten,
            droppedRows: c?.droppedRows.load(ordering: .relaxed) ?? 0,
            rowsLostToWriteErrors: c?.rowsLostToWriteErrors.load(ordering: .relaxed) ?? 0,
            overruns: c?.overruns.load(ordering: .relaxed) ?? 0, missedTicks: c?.missedTicks.load(ordering: .relaxed) ?? 0,
            gps: gps, clock: clockStatus(session),
            freeSpace: .init(availableBytes: free?.availableBytes ?? (try? StatvfsFileSystemStats().space(at: launcher.outputFolder).availableBytes),
                             minimumBytes: launcher.freeSpace?.minimumFreeBytes ?? 0,
                             stopsBelowBytes: launcher.freeSpace.map { $0.minimumFreeBytes + $0.headroomBytes } ?? 0),
            label: String(Character(UnicodeScalar(p.label))), lastFiles: p.lastFiles, recordings: p.recordings,
            gpio: gpioProblem.withLock { $0 } ?? "ok", offload: offload.progress, pid: ProcessInfo.processInfo.processIdentifier, version: MotionLogCommand.version)
    }

    // MARK: Control requests

    /// Answers one control-socket request.
    func answer(_ request: ControlRequest) -> ControlReply {
        let step: DaemonStep
        switch request.command {
        case .status:
            return ControlReply(ok: true, message: nil, status: status())
        case .start:
            step = handle(.start)
        case .stop:
            step = handle(.stop)
        case .label:
            guard let text = request.label, let letter = Label.parse(text) else {
                return ControlReply(ok: false, message: "label \"\(request.label ?? "")\": use one uppercase letter, e.g. W or T", status: status())
            }
            step = handle(.label(letter))
        }
        return ControlReply(ok: step.accepted, message: step.message, status: status())
    }
}
