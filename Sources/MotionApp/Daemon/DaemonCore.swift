import MotionCore

/// What the daemon is doing.
enum DaemonPhase: String, Codable, Sendable {
    /// Waiting for the button or `motionlog start`.
    case idle
    case recording
    /// Flushing, closing and finishing the metadata.
    case stopping
    /// A recording failed or stopped for lack of space; the next start clears it.
    case error
    /// The shutdown command ran after a long press.
    case shuttingDown = "shutting-down"
}

/// How a recording ended.
enum RecordingEnd: Equatable, Sendable {
    /// Stopped on request (button, `motionlog stop`, SIGTERM).
    case stopped
    /// `--duration` reached.
    case duration
    /// The free-space guard stopped it (the message says how much was left).
    case lowDiskSpace(String)
    /// It could not start or failed (the message says why).
    case failed(String)
}

/// Everything that can happen to the daemon, with the time it happened where that matters
/// (CLOCK_MONOTONIC nanoseconds: the kernel's button timestamps and the loop's clock).
enum DaemonInput: Equatable, Sendable {
    case button(pressed: Bool, at: Int64)
    case labelButton(pressed: Bool)
    /// `motionlog start`.
    case start
    /// `motionlog stop`, SIGTERM.
    case stop
    /// `motionlog label L`.
    case label(UInt8)
    case recordingEnded(RecordingEnd)
    /// The shutdown command finished (nil: it succeeded).
    case shutdownFinished(failure: String?)
    /// Time passes (long-press detection).
    case tick(Int64)
}

/// What the daemon must do in response (executed in order by `Daemon`).
enum DaemonAction: Equatable, Sendable {
    case startRecording(label: UInt8)
    /// Stops and waits until every row is written and the files are closed.
    case stopRecording
    case setLabel(UInt8)
    case runShutdown(command: String)
}

/// The result of one input: actions, and a reply for whoever asked.
struct DaemonStep: Equatable, Sendable {
    var actions: [DaemonAction] = []
    /// False when the request could not be honoured (busy, refused).
    var accepted = true
    var message: String?
}

/// The daemon's state machine: idle → recording → stopping → idle, with error and
/// shutting-down. Pure: no threads, no clock, no I/O, so every transition is tested with
/// scripted inputs and times.
///
/// Button: a press shorter than the long-press time toggles recording when released; held
/// for the long-press time it stops the recording (if any) and then runs the shutdown
/// command (if configured) — while still held, so the LED answers at once.
struct DaemonCore: Sendable {
    struct Settings: Sendable, Equatable {
        var longPressNanos: Int64 = 3_000_000_000
        var shutdownCommand: String?
        var baseLabel: UInt8 = Label.defaultLetter
    }

    let settings: Settings
    private(set) var phase: DaemonPhase = .idle
    /// Why the daemon is in `error`, or how the last recording ended.
    private(set) var message: String?
    private(set) var baseLabel: UInt8
    private(set) var labelHeld = false
    private var pressedAt: Int64?
    private var longPressFired = false
    private var shutdownPending = false

    init(settings: Settings) {
        self.settings = settings
        baseLabel = settings.baseLabel
    }

    /// The label rows get now: `T` while the label button is held, else the base label.
    var effectiveLabel: UInt8 { labelHeld ? Label.turning : baseLabel }

    /// When `tick` must be called next (the long-press threshold of a held button).
    var nextDeadline: Int64? {
        guard let p = pressedAt, !longPressFired else { return nil }
        return p + settings.longPressNanos
    }

    mutating func handle(_ input: DaemonInput) -> DaemonStep {
        switch input {
        case .button(true, let t):
            pressedAt = t
            longPressFired = false
            return DaemonStep()
        case .button(false, let t):
            guard let p = pressedAt else { return DaemonStep() }   // held since before we started
            pressedAt = nil
            if longPressFired { return DaemonStep() }
            return t - p >= settings.longPressNanos ? longPress() : shortPress()
        case .tick(let now):
            guard let d = nextDeadline, now >= d else { return DaemonStep() }
            longPressFired = true
            return longPress()
        case .labelButton(let pressed):
            let before = effectiveLabel
            labelHeld = pressed
            return DaemonStep(actions: effectiveLabel != before ? [.setLabel(effectiveLabel)] : [])
        case .label(let letter):
            let before = effectiveLabel
            baseLabel = letter
            let actions: [DaemonAction] = effectiveLabel != before ? [.setLabel(effectiveLabel)] : []
            let note = labelHeld ? " (the label button holds T for now)" : ""
            return DaemonStep(actions: actions, message: "label \(Character(UnicodeScalar(letter)))\(note)")
        case .start:
            switch phase {
            case .idle, .error: return start()
            case .recording: return DaemonStep(message: "already recording")
            case .stopping: return DaemonStep(accepted: false, message: "busy: a recording is being stopped; try again in a moment")
            case .shuttingDown: return DaemonStep(accepted: false, message: "the system is shutting down")
            }
        case .stop:
            switch phase {
            case .recording: return stop()
            case .idle: return DaemonStep(message: "not recording")
            case .error:
                phase = .idle
                return DaemonStep(message: "error cleared: \(message ?? "")")
            case .stopping: return DaemonStep(message: "already stopping")
            case .shuttingDown: return DaemonStep(message: "the system is shutting down")
            }
        case .recordingEnded(let end):
            guard phase == .recording || phase == .stopping else { return DaemonStep() }
            var step = DaemonStep()
            switch end {
            case .stopped, .duration:
                phase = .idle
                message = end == .duration ? "the last recording reached its duration" : "the last recording was stopped"
                step.message = "recording stopped"
            case .lowDiskSpace(let why), .failed(let why):
                phase = .error
                message = why
                step.accepted = false
                step.message = why
            }
            if shutdownPending, let command = settings.shutdownCommand {
                shutdownPending = false
                phase = .shuttingDown
                step.actions.append(.runShutdown(command: command))
            }
            return step
        case .shutdownFinished(let failure):
            guard phase == .shuttingDown else { return DaemonStep() }
            if let failure {
                phase = .error
                message = failure
            }
            return DaemonStep()
        }
    }

    private mutating func start() -> DaemonStep {
        phase = .recording
        message = nil
        return DaemonStep(actions: [.startRecording(label: effectiveLabel)], message: "recording started")
    }

    private mutating func stop() -> DaemonStep {
        phase = .stopping
        return DaemonStep(actions: [.stopRecording], message: "recording stopped")
    }

    private mutating func shortPress() -> DaemonStep {
        switch phase {
        case .idle, .error: return start()
        case .recording: return stop()
        case .stopping, .shuttingDown: return DaemonStep(accepted: false)
        }
    }

    private mutating func longPress() -> DaemonStep {
        guard let command = settings.shutdownCommand else {
            // Without a shutdown command a long press just stops.
            return phase == .recording ? stop() : DaemonStep(message: "long press: no shutdown_command configured")
        }
        switch phase {
        case .recording:
            shutdownPending = true
            return stop()
        case .idle, .error:
            phase = .shuttingDown
            return DaemonStep(actions: [.runShutdown(command: command)], message: "shutting down")
        case .stopping:
            shutdownPending = true
            return DaemonStep(message: "shutting down after the stop")
        case .shuttingDown:
            return DaemonStep()
        }
    }
}
