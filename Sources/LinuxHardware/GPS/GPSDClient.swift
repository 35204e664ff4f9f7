import Dispatch
import Foundation
import Logging
import MotionCore
import Synchronization

/// The gpsd client: a `LocationSource` (one `L` row per fix time) and a `GPSTimeSource`.
///
/// A dedicated thread connects to gpsd, enables a JSON watch and reads reports; TPVs go
/// through a `FixAssembler` (one fix per fix time, latest values, hold-off, backwards
/// dropped) into a queue that `poll` drains on the sampling thread without blocking.
///
/// gpsd may be absent at start or restart mid-recording: the thread retries with a
/// backoff (`initialBackoffNanos` doubling up to `maxBackoffNanos`), logs once per outage
/// and once on recovery, and counts each lost connection in `health.disconnects`. The
/// recording never waits for it. Clock and sleep are injected, so tests run the loop on
/// scripted sessions without real time passing.
public final class GPSDClient: LocationSource, GPSTimeSource, Sendable {
    /// Tunables (defaults suit a 1–10 Hz receiver on the same board).
    public struct Configuration: Sendable {
        public var holdOffNanos: Int64 = FixAssembler.defaultHoldOffNanos
        public var initialBackoffNanos: Int64 = 100_000_000
        /// Longest wait between connection attempts; short so `L` rows resume within a
        /// couple of seconds after gpsd comes back.
        public var maxBackoffNanos: Int64 = 500_000_000
        /// How long one wait for a report may block the reader thread (stop latency).
        public var readTimeoutMicroseconds: Int32 = 250_000
        /// Fixes kept for the sampling thread at most (oldest dropped beyond).
        public var queueCapacity = 4096
        public init() {}
    }

    public let address: GPSDAddress
    public let configuration: Configuration
    private let connector: GPSDConnector
    private let monotonicNanos: @Sendable () -> Int64
    private let sleep: @Sendable (Int64) -> Void
    private let log: Logger
    private let state: Mutex<State>
    /// `health`, kept in atomics: the sampling thread reads it every tick and must never
    /// wait for the reader thread's lock.
    private let backwardsFixes = Atomic<Int>(0)
    private let disconnects = Atomic<Int>(0)
    private let lastMode = Atomic<Int>(0)
    private let modeChanges = Atomic<Int>(0)
    private let sessions = Atomic<Int>(0)
    private let failedAttempts = Atomic<Int>(0)
    /// Receivers in gpsd's last device list; −1 while unknown.
    private let receivers = Atomic<Int>(-1)
    /// A session is open and gpsd has answered in it.
    private let answering = Atomic<Bool>(false)
    private let stopFlag = Atomic<Bool>(false)
    private let started = Atomic<Bool>(false)
    /// Signalled to cut a backoff sleep short at stop.
    private let wake = WakeSignal()
    /// Signalled when the reader thread has finished.
    private let exited = WakeSignal()

    struct State: Sendable {
        var assembler: FixAssembler
        var queue: [LocationFix] = []
        var queueDropped = 0
        var estimator = GPSTimeEstimator()
        var connected = false
        var statistics = Statistics()
    }

    /// What the reader thread has seen (diagnostics and tests).
    public struct Statistics: Sendable, Equatable {
        /// Sessions opened, and attempts that failed (the `health` counters, one source for both).
        public var connections = 0
        public var failedAttempts = 0
        /// Reports read in total, and TPV reports among them.
        public var reports = 0
        public var tpvReports = 0
        /// True once gpsd confirmed the watch on the current session.
        public var watching = false
    }

    /// - Parameters:
    ///   - monotonicNanos: the monotonic clock fix arrivals and hold-offs are measured on
    ///     (CLOCK_MONOTONIC, the recorder's tick clock, by default).
    ///   - sleep: waits between connection attempts; nil uses a wait that `finish` cuts short.
    public init(address: GPSDAddress = .default, configuration: Configuration = Configuration(),
                connector: GPSDConnector = LibGPSConnector(), log: Logger,
                monotonicNanos: @escaping @Sendable () -> Int64 = { SystemClock.monotonicNanos() },
                sleep: (@Sendable (Int64) -> Void)? = nil) {
        self.address = address; self.configuration = configuration; self.connector = connector
        self.log = log; self.monotonicNanos = monotonicNanos
        var s = State(assembler: FixAssembler(holdOffNanos: configuration.holdOffNanos))
        s.queue.reserveCapacity(min(configuration.queueCapacity, 1024))
        state = Mutex(s)
        if let sleep {
            self.sleep = sleep
        } else {
            let wake = self.wake
            self.sleep = { nanos in _ = wake.wait(timeout: Double(max(0, nanos)) / 1e9) }
        }
    }

    // MARK: LocationSource (sampling thread)

    public var health: LocationHealth {
        var h = LocationHealth()
        h.backwardsFixes = backwardsFixes.load(ordering: .relaxed)
        h.disconnects = disconnects.load(ordering: .relaxed)
        h.lastMode = lastMode.load(ordering: .relaxed)
        h.modeChanges = modeChanges.load(ordering: .relaxed)
        h.sessions = sessions.load(ordering: .relaxed)
        h.failedAttempts = failedAttempts.load(ordering: .relaxed)
        let n = receivers.load(ordering: .relaxed)
        h.receivers = n >= 0 ? n : nil
        h.connected = answering.load(ordering: .relaxed)
        return h
    }

    /// Starts the reader thread (once).
    public func start() {
        guard !started.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let thread = Thread { [self] in
            self.run()
            self.exited.signal()
        }
        thread.name = "gpsd-client"
        thread.start()
    }

    /// Hands over every complete fix. Never blocks: if the reader thread holds the lock at
    /// this instant, the fixes wait for the next tick.
    public func poll(at tick: Tick, _ emit: (LocationFix) -> Void) {
        let now = monotonicNanos()
        _ = state.withLockIfAvailable { s in
            if let fix = s.assembler.expire(nowNanos: now) { Self.enqueue(fix, &s, capacity: configuration.queueCapacity) }
            for fix in s.queue { emit(fix) }
            s.queue.removeAll(keepingCapacity: true)
        }
    }

    /// Stops the reader thread (waiting up to 2 s for it), then hands over the rest,
    /// including the held fix.
    public func finish(_ emit: (LocationFix) -> Void) {
        stop()
        state.withLock { s in
            if let fix = s.assembler.flush() { Self.enqueue(fix, &s, capacity: configuration.queueCapacity) }
            for fix in s.queue { emit(fix) }
            s.queue.removeAll(keepingCapacity: true)
        }
        let late = state.withLock { $0.assembler.lateDropped }
        if late > 0 {
            log.notice("GPS: \(late) report(s) arrived for a fix time already written (after its hold-off) and were dropped")
        }
    }

    /// Asks the reader thread to end and waits (bounded) until it has.
    public func stop() {
        stopFlag.store(true, ordering: .releasing)
        wake.signal()
        if started.load(ordering: .acquiring) {
            if exited.wait(timeout: 2) { exited.signal() }
        }
    }

    // MARK: GPSTimeSource

    public func gpsTimeEstimate() -> GPSTimeEstimate? {
        state.withLockIfAvailable { $0.estimator.estimate } ?? nil
    }

    /// True while a session with gpsd is open and gpsd has answered on it.
    public var isConnected: Bool { state.withLock { $0.connected } }

    public var statistics: Statistics {
        var s = state.withLock { $0.statistics }
        s.connections = sessions.load(ordering: .relaxed)
        s.failedAttempts = failedAttempts.load(ordering: .relaxed)
        return s
    }

    // MARK: The reader thread

    private var stopping: Bool { stopFlag.load(ordering: .acquiring) }

    /// How long a session without fixes must have lasted for its loss to be retried at once.
    static let steadySessionNanos: Int64 = 5_000_000_000

    /// The reader loop: connect, read, reconnect. Runs until `stop()`. Internal so tests
    /// can run it on their own thread with a scripted connector.
    ///
    /// A session counts as established once gpsd answered the watch request or sent a fix
    /// (a gpsd that is shutting down may still accept and then reset; a listener that sends
    /// a VERSION line and closes is not a working gpsd): only then does an outage end, and
    /// only the loss of an established session counts as a disconnect. A lost session is
    /// retried at once only when it sent fixes or lasted `steadySessionNanos`; another backs off
    /// like a failed attempt (a server that answered and closed at once was reconnected
    /// 12 000 times in 8 s, two log lines each).
    func run() {
        var backoff = configuration.initialBackoffNanos
        var outageSince: Int64?
        var attempts = 0
        var everEstablished = false
        while !stopping {
            attempts += 1
            var failure: GPSDError?
            var established = false, steady = false
            var opened: Int64 = 0
            func resumed() {
                if let since = outageSince {
                    let seconds = Double(monotonicNanos() - since) / 1e9
                    log.notice("connected to gpsd at \(address) after \(Self.text(seconds)) s (\(attempts) attempts); L rows resume with the next fixes")
                } else if !everEstablished {
                    log.info("connected to gpsd at \(address)")
                }
                everEstablished = true
                outageSince = nil
                attempts = 0
            }
            do {
                let session = try connector.connect(to: address)
                opened = monotonicNanos()
                failure = read(session, opened: opened, onFirst: {
                    established = true
                    // In an outage, only a steady session ends it (a listener that answers
                    // and closes at once would end and begin it again and again).
                    if outageSince == nil { resumed() }
                    // Connected means gpsd answered (a socket that accepts and says nothing —
                    // a gpsd shutting down, or a stray listener on its port — is not gpsd).
                    state.withLock { s in
                        s.connected = true
                    }
                    sessions.add(1, ordering: .relaxed)
                    answering.store(true, ordering: .relaxed)
                }, onSteady: {
                    steady = true
                    if outageSince != nil { resumed() }
                })
                session.close()
                // One step: whoever sees the disconnect counted also sees it disconnected.
                // What the last session said is not the state now: a status kept saying
                // "3D fix" (and the LED "fix") for as long as gpsd was gone.
                answering.store(false, ordering: .relaxed)
                lastMode.store(0, ordering: .relaxed)
                receivers.store(-1, ordering: .relaxed)
                state.withLock { s in
                    s.connected = false
                    s.statistics.watching = false
                    if established && !stopping { disconnects.add(1, ordering: .relaxed) }
                }
            } catch {
                failure = error
            }
            if stopping { break }
            if established {
                // A working session ended (counted above): log once per outage.
                if outageSince == nil {
                    outageSince = monotonicNanos()
                    log.warning("\(failure.map { "\($0)" } ?? "gpsd closed the connection") — reconnecting in the background; IMU recording continues")
                }
                // Retry at once after a session that worked for a while; after a short one,
                // wait as after a failed attempt.
                if steady {
                    backoff = configuration.initialBackoffNanos
                    continue
                }
                sleep(backoff)
                backoff = min(backoff * 2, configuration.maxBackoffNanos)
                continue
            }
            failedAttempts.add(1, ordering: .relaxed)
            if outageSince == nil {
                outageSince = monotonicNanos()
                log.warning("\(failure.map { "\($0)" } ?? "gpsd closed the connection") — recording continues without L rows; retrying in the background")
            }
            sleep(backoff)
            backoff = min(backoff * 2, configuration.maxBackoffNanos)
        }
    }

    /// Reads reports until stop (nil) or until the connection breaks (the error).
    /// `onFirst` runs when gpsd has answered the watch request or sent a fix; `onSteady`
    /// once the session, opened at `opened`, sent a fix or has lasted `steadySessionNanos`.
    private func read(_ session: GPSDSession, opened: Int64, onFirst: () -> Void, onSteady: () -> Void) -> GPSDError? {
        var first = true, steady = false
        while !stopping {
            let message: GPSDMessage?
            do { message = try session.next(timeoutMicroseconds: configuration.readTimeoutMicroseconds) } catch {
                return error
            }
            guard let message else {
                if !first, !steady, monotonicNanos() - opened >= Self.steadySessionNanos { steady = true; onSteady() }
                continue
            }
            // gpsd's VERSION greeting alone does not make a session: its answer to the watch
            // request, or a fix, does.
            if first, message != .other {
                first = false
                onFirst()
            }
            // Steady: fixes came, or the session has lasted.
            if !first, !steady, message.isFix || monotonicNanos() - opened >= Self.steadySessionNanos { steady = true; onSteady() }
            switch message {
            case .tpv(let report):
                handle(report, arrivalNanos: monotonicNanos())
            case .watch:
                state.withLock { s in
                    s.statistics.reports += 1
                    s.statistics.watching = true
                }
            case .devices(let count):
                receivers.store(count ?? -1, ordering: .relaxed)
                state.withLock { $0.statistics.reports += 1 }
            case .other:
                state.withLock { $0.statistics.reports += 1 }
            }
        }
        return nil
    }

    /// Feeds one TPV to the assembler and the time estimator (reader thread).
    func handle(_ report: TPVReport, arrivalNanos: Int64) {
        let capacity = configuration.queueCapacity
        let (outcome, modeChanged, backwards) = state.withLock { s -> (FixAssembler.Outcome, Bool, Int) in
            let before = s.assembler.lastMode
            let (outcome, released) = s.assembler.add(report, arrivalNanos: arrivalNanos)
            if let fix = released { Self.enqueue(fix, &s, capacity: capacity) }
            if outcome == .newTime, let time = report.time {
                s.estimator.add(fixEpochNanos: time.epochNanoseconds, arrivalNanos: arrivalNanos)
            }
            s.statistics.reports += 1
            s.statistics.tpvReports += 1
            return (outcome, before != s.assembler.lastMode, s.assembler.backwardsDropped)
        }
        let (mode, changes) = state.withLock { ($0.assembler.lastMode, $0.assembler.modeChanges) }
        lastMode.store(mode, ordering: .relaxed)
        modeChanges.store(changes, ordering: .relaxed)
        backwardsFixes.store(backwards, ordering: .relaxed)
        if modeChanged { log.info("GPS fix mode: \(Self.modeName(report.mode))") }
        if outcome == .droppedBackwards && (backwards == 1 || backwards % 100 == 0) {
            log.warning("GPS fix time went backwards (\(report.time.map { "\($0)" } ?? "?")): dropped; \(backwards) so far")
        }
    }

    private static func enqueue(_ fix: LocationFix, _ s: inout State, capacity: Int) {
        if s.queue.count >= capacity {
            s.queue.removeFirst()
            s.queueDropped += 1
        }
        s.queue.append(fix)
    }

    static func modeName(_ mode: Int) -> String {
        switch mode {
        case 0: return "unknown (no mode seen)"
        case 1: return "no fix"
        case 2: return "2-D fix"
        case 3: return "3-D fix"
        default: return "mode \(mode)"
        }
    }

    private static func text(_ seconds: Double) -> String {
        String(format: "%.1f", seconds)
    }
}
