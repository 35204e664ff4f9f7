import Foundation
import Logging
import MotionCore
import Synchronization
import Testing
@testable import LinuxHardware

/// The client's reader loop on scripted gpsd sessions: no gpsd, no real time.
struct GPSDClientTests {
    /// One scripted connection attempt.
    enum Attempt {
        case refused
        /// A session delivering these events, then breaking (or, with `thenStop`, the test's end).
        case session([Event])
    }
    enum Event {
        /// A message arriving at monotonic `at` ns.
        case message(GPSDMessage, at: Int64)
        /// The connection breaks at `at` ns.
        case broken(at: Int64)
    }

    /// A monotonic clock the script sets.
    final class FakeClock: Sendable {
        let now = Atomic<Int64>(0)
        func read() -> Int64 { now.load(ordering: .relaxed) }
    }

    /// Scripted connector: hands out attempts in order; once they are used up it stops the client.
    final class ScriptedConnector: GPSDConnector, @unchecked Sendable {
        private var attempts: [Attempt]
        private let clock: FakeClock
        var onExhausted: () -> Void = {}
        init(_ attempts: [Attempt], clock: FakeClock) { self.attempts = attempts; self.clock = clock }

        func connect(to address: GPSDAddress) throws(GPSDError) -> GPSDSession {
            guard !attempts.isEmpty else {
                onExhausted()
                throw GPSDError(.connect, address: address, reason: "script finished")
            }
            switch attempts.removeFirst() {
            case .refused: throw GPSDError(.connect, address: address, reason: "Connection refused")
            case .session(let events): return ScriptedSession(events, clock: clock, address: address)
            }
        }
    }

    final class ScriptedSession: GPSDSession {
        private var events: [Event]
        private let clock: FakeClock
        private let address: GPSDAddress
        init(_ events: [Event], clock: FakeClock, address: GPSDAddress) {
            self.events = events; self.clock = clock; self.address = address
        }
        func next(timeoutMicroseconds: Int32) throws(GPSDError) -> GPSDMessage? {
            guard !events.isEmpty else { throw GPSDError(.read, address: address, reason: "gpsd closed the connection") }
            switch events.removeFirst() {
            case .message(let m, let at):
                clock.now.store(at, ordering: .relaxed)
                return m
            case .broken(let at):
                clock.now.store(at, ordering: .relaxed)
                throw GPSDError(.read, address: address, reason: "gpsd closed the connection")
            }
        }
        func close() {}
    }

    /// Collects log messages with their level.
    final class LogCapture: @unchecked Sendable {
        let lines = Mutex<[(Logger.Level, String)]>([])
        var logger: Logger {
            Logger(label: "test") { _ in CaptureHandler(capture: self) }
        }
        func count(_ level: Logger.Level) -> Int { lines.withLock { $0.filter { $0.0 == level }.count } }
        struct CaptureHandler: LogHandler {
            let capture: LogCapture
            var metadata: Logger.Metadata = [:]
            var logLevel: Logger.Level = .trace
            subscript(metadataKey key: String) -> Logger.Metadata.Value? {
                get { metadata[key] } set { metadata[key] = newValue }
            }
            func log(event: LogEvent) {
                capture.lines.withLock { $0.append((event.level, event.message.description)) }
            }
        }
    }

    static func tpv(_ second: Int64, _ lat: Double = 44.07, mode: Int = 3) -> GPSDMessage {
        .tpv(TPVReport(time: GPSFixTime(seconds: 2_048_272_000 + second, nanoseconds: 0), mode: mode,
                       latitude: lat, longitude: -121.31, altitudeMSL: 1127.7))
    }

    /// Runs the reader loop on the test's thread until the script is used up.
    static func run(_ attempts: [Attempt], log: LogCapture = LogCapture())
        -> (client: GPSDClient, sleeps: [Int64], clock: FakeClock) {
        let clock = FakeClock()
        let connector = ScriptedConnector(attempts, clock: clock)
        let sleeps = Mutex<[Int64]>([])
        let client = GPSDClient(address: .default, connector: connector, log: log.logger,
                                monotonicNanos: { clock.read() },
                                sleep: { nanos in sleeps.withLock { $0.append(nanos) } })
        connector.onExhausted = { client.stop() }
        client.run()
        return (client, sleeps.withLock { $0 }, clock)
    }

    static func drain(_ client: GPSDClient) -> [LocationFix] {
        var fixes: [LocationFix] = []
        client.poll(at: Tick(index: 0, monotonicNanos: 0, when: 0, elapsed: 0)) { fixes.append($0) }
        return fixes
    }

    @Test func gpsdAbsentAtStartRetriesWithBackoffAndLogsOnce() {
        let log = LogCapture()
        let (client, sleeps, _) = Self.run([
            .refused, .refused, .refused, .refused, .refused, .refused,
            .session([.message(.watch, at: 7_000_000_000), .message(Self.tpv(0), at: 7_100_000_000),
                      .message(Self.tpv(1), at: 8_100_000_000)]),
        ], log: log)
        // 0.1, 0.2, 0.4, then capped at 0.5 s.
        #expect(sleeps == [100_000_000, 200_000_000, 400_000_000, 500_000_000, 500_000_000, 500_000_000])
        #expect(log.count(.warning) == 2)  // the outage at start, and the scripted session's end
        #expect(log.count(.notice) == 1)   // "connected ... after ..."
        #expect(client.statistics.failedAttempts >= 6)
        #expect(client.statistics.connections == 1)
        #expect(Self.drain(client).map(\.when) == [2_048_272_000])
        var rest: [LocationFix] = []
        client.finish { rest.append($0) }
        #expect(rest.map(\.when) == [2_048_272_001])
    }

    /// A listener that greets like gpsd and closes at once (or sends only a VERSION line)
    /// was reconnected 12 000 times in 8 s with two log lines each: a greeting is no session,
    /// and a session without fixes that ends at once backs off and logs nothing more.
    @Test func aListenerThatClosesAtOnceIsRetriedWithBackoffAndLoggedOnce() {
        let log = LogCapture()
        var attempts: [Attempt] = []
        for k in 0..<4 { attempts.append(.session([.message(.other, at: Int64(k) * 1_000), .broken(at: Int64(k) * 1_000 + 10)])) }
        for k in 4..<8 { attempts.append(.session([.message(.watch, at: Int64(k) * 1_000), .broken(at: Int64(k) * 1_000 + 10)])) }
        let (client, sleeps, _) = Self.run(attempts, log: log)
        #expect(sleeps == [100_000_000, 200_000_000, 400_000_000, 500_000_000, 500_000_000, 500_000_000, 500_000_000, 500_000_000], "\(sleeps)")
        #expect(client.statistics.connections == 4)   // the WATCH answers only
        // What the metadata keeps (counters.locationHealth): a summary tells "never answered" by it.
        #expect(client.health.sessions == 4 && client.health.failedAttempts == 4, "\(client.health)")
        #expect(log.count(.warning) == 1, "\(log.count(.warning))")
        #expect(log.count(.notice) == 0)
    }

    @Test func aBrokenSessionIsCountedLoggedOnceAndFixesResume() {
        let log = LogCapture()
        let (client, _, _) = Self.run([
            .session([.message(Self.tpv(0), at: 1_000), .message(Self.tpv(1), at: 2_000), .broken(at: 3_000)]),
            .refused, .refused, .refused,
            // The restarted gpsd repeats an old time first: dropped; then new times.
            .session([.message(Self.tpv(1), at: 9_000), .message(Self.tpv(2), at: 10_000),
                      .message(Self.tpv(3), at: 11_000)]),
        ], log: log)
        #expect(client.health.disconnects == 2)  // the scripted break, and the end of the script
        #expect(client.health.sessions == 2 && client.health.failedAttempts == 3, "\(client.health)")
        #expect(log.count(.warning) == 2)        // once per outage, not once per failed attempt
        #expect(log.count(.notice) == 1)
        var fixes = Self.drain(client)
        client.finish { fixes.append($0) }
        #expect(fixes.map(\.when) == [2_048_272_000, 2_048_272_001, 2_048_272_002, 2_048_272_003])
        #expect(client.health.backwardsFixes == 0)
    }

    @Test func pollReleasesAFixAfterTheHoldOff() {
        let (client, _, clock) = Self.run([.session([.message(Self.tpv(0), at: 1_000_000_000)])])
        clock.now.store(1_000_000_000 + FixAssembler.defaultHoldOffNanos - 1, ordering: .relaxed)
        #expect(Self.drain(client).isEmpty)
        clock.now.store(1_000_000_000 + FixAssembler.defaultHoldOffNanos, ordering: .relaxed)
        #expect(Self.drain(client).map(\.latitude) == [44.07])
        var rest: [LocationFix] = []
        client.finish { rest.append($0) }
        #expect(rest.isEmpty)
    }

    @Test func modeChangesAreCountedAndLogged() {
        let log = LogCapture()
        let (client, _, _) = Self.run([
            .session([.message(Self.tpv(0, mode: 1), at: 1), .message(Self.tpv(1), at: 2),
                      .message(Self.tpv(2, mode: 1), at: 3), .message(Self.tpv(3, mode: 2), at: 4)]),
        ], log: log)
        // The script's end closes the session: its last mode (2) is no longer the state.
        #expect(client.health.lastMode == 0 && client.health.connected == false)
        #expect(client.health.modeChanges == 3)
        #expect(log.lines.withLock { $0.filter { $0.1.hasPrefix("GPS fix mode") }.count } == 4)
        var fixes: [LocationFix] = []
        client.finish { fixes.append($0) }
        #expect(fixes.map(\.mode) == [3, 2])
    }

    @Test func theTimeEstimateComesFromTheEarliestArrivals() throws {
        // Fix k arrives 80 ms + (k % 4) · 100 ms after its fix time; monotonic = epoch − 1e18.
        var events: [Event] = []
        for k in Int64(0)..<20 {
            let epoch = (2_048_272_000 + k) * 1_000_000_000
            events.append(.message(Self.tpv(k), at: epoch - 1_000_000_000_000_000_000 + 80_000_000 + (k % 4) * 100_000_000))
        }
        let (client, _, _) = Self.run([.session(events)])
        let estimate = try #require(client.gpsTimeEstimate())
        // Only the minimum delay (80 ms) remains; the varying part does not leak in.
        #expect(estimate.offsetNanos == 1_000_000_000_000_000_000 - 80_000_000)
        #expect(estimate.delaySpreadNanos == 300_000_000)
        client.finish { _ in }
    }
}
