import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import MotionCore
@testable import MotionWeb
import Synchronization

/// A temporary folder of small recordings (CSV + metadata) written by the test itself.
final class WebFixture: Sendable {
    let folder: String

    init() throws {
        folder = NSTemporaryDirectory() + "motionlog-web-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }

    /// Where the ride is `t` seconds after the start of its recording (`elapsed` is the
    /// file's offset within it): degrees north and east of the origin, and m/s.
    typealias Route = @Sendable (_ t: Double) -> (north: Double, east: Double, speed: Double)

    /// A ride: `seconds` of A rows at 10 Hz and L rows at 1 Hz moving north-east (or along
    /// `route`). `rotated`: the file is part `part` of recording `id` (after `previous`),
    /// starting `elapsed` seconds into it.
    @discardableResult
    func addRecording(_ name: String, start: Double = 1_790_000_000, seconds: Int = 20, endedCleanly: Bool = true,
                      endReason: String = "stopped", droppedRows: Int64 = 0, rowsLost: Int64 = 0, tornTail: Bool = false,
                      gps: Bool = true, clockBehindFor: (seconds: Double, until: Double)? = nil,
                      rotated: (id: String, part: Int, previous: String?, elapsed: Double)? = nil, route: Route? = nil) throws -> String {
        var csv = CSVFormat.headerLine + "\n"
        var rows: [String: Int] = ["A": 0, "L": 0]
        // With `clockBehindFor`, A rows before `until` are stamped that many seconds early
        // (a clock stepped to GPS time at `until`, recorded in the metadata).
        func stamped(_ t: Double) -> Double { clockBehindFor.map { t < $0.until ? t - $0.seconds : t } ?? t }
        for i in 0..<(seconds * 10) {
            let t = start + Double(i) / 10
            csv += "A,W,\(stamped(t)),0.01,-0.02,\(1.0 + Double(i % 7) / 10)\n"
            rows["A", default: 0] += 1
            if gps && i % 10 == 0 {
                let k = Double(i / 10)
                let at: (north: Double, east: Double, speed: Double) = route?(k + (rotated?.elapsed ?? 0)) ?? (k * 0.0001, k * 0.0001, 5.0 + k / 10)
                csv += "L,W,\(t),\(48.1 + at.north),\(11.5 + at.east),\(520.0 + k),\(at.speed),45.0,3.0,5.0,0.0,3\n"
                rows["L", default: 0] += 1
            }
        }
        if tornTail { csv += "A,W,\(start + 999),0.1,0.2" }
        try csv.write(toFile: folder + "/" + name + ".csv", atomically: false, encoding: .utf8)
        var counters = CounterSnapshot()
        counters.droppedRows = droppedRows
        counters.rowsLostToWriteErrors = rowsLost
        counters.writeErrors = rowsLost > 0 ? 4 : 0
        if let behind = clockBehindFor {
            var time = GPSTimeRecord(clock: "gps", systemClockSynchronised: false)
            time.steps = 1
            time.firstCorrectedWhen = behind.until
            time.firstStepSeconds = behind.seconds
            counters.time = time
        }
        let description = RecordingDescription(
            id: rotated?.id ?? "id-\(name)", board: "simulator", boardDescription: nil, sensor: SensorInfo(model: "fake"), gps: gps ? "simulated" : nil,
            deviceMotion: nil, rateHz: 10, sources: gps ? "AL" : "A", label: "W", whenMode: .epoch, startEpoch: start,
            started: TimeText.isoLocal(epochSeconds: start), clock: "simulated", rotateBytes: nil, rotateSeconds: nil,
            fsyncIntervalSeconds: 1, bufferRows: 1024, notes: [])
        var file = RecordingMetadata.FileSection(name: name + ".csv", index: rotated?.part ?? 1, previous: rotated?.previous.map { $0 + ".csv" })
        file.firstWhen = stamped(start)
        file.lastWhen = start + Double(seconds * 10 - 1) / 10
        file.startLocal = TimeText.isoLocal(epochSeconds: start)
        file.rows = rows
        file.bytes = Int64(csv.utf8.count)
        let meta = RecordingMetadata(software: .init(version: "test"), recording: description, file: file, counters: counters,
                                     endedCleanly: endedCleanly, endReason: endReason, ended: nil)
        try Data(meta.encoded()).write(to: URL(fileURLWithPath: folder + "/" + name + ".json"))
        return csv
    }

    func exists(_ file: String) -> Bool { FileManager.default.fileExists(atPath: folder + "/" + file) }

    /// `NAME.csv` as a file copied in (a converted GPX, a CSV without metadata): written an
    /// hour ago, so the page does not take it for one still being written.
    func addCopiedCSV(_ name: String, _ csv: String) throws {
        try csv.write(toFile: folder + "/" + name + ".csv", atomically: false, encoding: .utf8)
        try age(name + ".csv")
    }

    /// Dates `file`'s last change an hour back.
    func age(_ file: String) throws {
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: folder + "/" + file)
    }

    /// A 30-minute ride rotated every 10 minutes into three files (`names`, part order):
    /// 6 minutes of riding north, a stop of 8 minutes from 6:00 to 14:00 (across the end
    /// of the first part, so each part alone holds only 4 minutes of it), then on north.
    /// `present` chooses which parts are written; the last part ends as `lastEnd`, the
    /// others as `partEnd`.
    static let rotatedNames = ["20260101080000", "20260101081000", "20260101082000"]
    static let rotatedStart = 1_767_254_400.0
    func addRotatedRide(present: Set<Int> = [1, 2, 3], lastEndedCleanly: Bool = true, lastEnd: String = "stopped",
                        partEnd: String = FileEnding.rotatedReason) throws {
        let names = Self.rotatedNames
        let route: Route = { t in
            let riding = t < 360 ? t : t < 840 ? 360 : t - 480
            return (riding * 0.0001, 0, t >= 360 && t < 840 ? 0 : 11)
        }
        for part in 1...3 where present.contains(part) {
            let last = part == 3
            try addRecording(names[part - 1], start: Self.rotatedStart + Double(part - 1) * 600, seconds: 600,
                             endedCleanly: last ? lastEndedCleanly : true, endReason: last ? lastEnd : partEnd,
                             rotated: ("ride-uuid", part, part > 1 ? names[part - 2] : nil, Double(part - 1) * 600), route: route)
        }
    }
}

/// A scripted recorder: answers the control protocol from a status the test sets.
final class FakeLive: LiveControl, Sendable {
    let state = Mutex<(status: String, currentFile: String?, commands: [String])>(("idle", nil, []))

    func exchange(_ request: [UInt8]) throws -> [UInt8] {
        let r = try JSONDecoder().decode(LiveRequest.self, from: Data(request))
        let (status, file) = state.withLock { s -> (String, String?) in
            if r.command != "status" { s.commands.append(r.command + (r.label.map { " " + $0 } ?? "")) }
            if r.command == "start" { s.status = "recording" }
            if r.command == "stop" { s.status = "idle"; s.currentFile = nil }
            return (s.status, s.currentFile)
        }
        let fileJSON = file.map { "\"\($0)\"" } ?? "null"
        let json = "{\"ok\":true,\"message\":\"done\",\"status\":{\"state\":\"\(status)\",\"currentFile\":\(fileJSON),\"elapsedSeconds\":12.5,\"rowsPerSecond\":{\"A\":100},\"gps\":{\"fix\":\"3D fix\"},\"clock\":{\"source\":\"system\",\"synchronized\":true},\"freeSpace\":{\"availableBytes\":1000000},\"label\":\"W\"}}"
        return Array(json.utf8)
    }
}

/// A clock the test sets.
final class TestClock: Sendable {
    let now = Mutex<Double>(1_800_000_000)
    var function: @Sendable () -> Double { { [self] in now.withLock { $0 } } }
}

extension WebFixture {
    /// The router of a server on this folder.
    /// `summaryRounds` turns background summaries on and hears each round's count;
    /// `stalled` shortens the stalled-client timeout and hears each stalled download's end;
    /// `requestTimeout` the time a client has to send a request; `events` the events stream;
    /// `zipHeld` runs in each ZIP download once it holds its names, before it opens files;
    /// `maxConnections` caps open connections, and `connectionEvents` hears the cap's events;
    /// `log` hears what the server logs; `exports` hears each computed download start;
    /// `refusalMethodWait` is how long a connection over the cap may take to send its method;
    /// `availableMemory` the bytes of memory the server is told are free.
    func app(password: String? = nil, live: (any LiveControl)? = nil, maxDownloads: Int = 8,
             clock: TestClock = TestClock(), summaryRounds: (@Sendable (Int) -> Void)? = nil,
             stalled: (timeout: Duration, hook: @Sendable () -> Void)? = nil, requestTimeout: Duration? = nil,
             events: (count: Int, interval: Duration) = (2, .zero),
             zipHeld: (@Sendable () async -> Void)? = nil, linger: Duration? = nil,
             deadlineEvents: (@Sendable (RequestDeadline.Event) -> Void)? = nil, maxConnections: Int = 64,
             connectionEvents: (@Sendable (ConnectionLimit.Event) -> Void)? = nil,
             log: Logger = Logger(label: "test"), exports: (@Sendable (String) -> Void)? = nil,
             refusalMethodWait: Duration? = nil, availableMemory: Int? = nil,
             heldTrackPoints: Int? = nil, memory: (@Sendable () -> Int?)? = nil) throws -> some ApplicationProtocol {
        let listen = ListenAddress(host: password == nil ? "127.0.0.1" : "0.0.0.0", port: 0)
        var c = WebConfiguration(folder: folder, listen: listen, passwordHash: password.map { "hash:" + $0 }, live: live)
        c.maxDownloads = maxDownloads
        if let heldTrackPoints { c.heldTrackPoints = heldTrackPoints }
        c.maxConnections = maxConnections
        c.onConnection = connectionEvents
        if let refusalMethodWait { c.refusalMethodWait = refusalMethodWait }
        c.onExport = exports
        c.backgroundSummaries = summaryRounds != nil
        c.onSummaryRound = summaryRounds
        if let stalled {
            c.stalledClientTimeout = stalled.timeout
            c.onStalledClient = stalled.hook
        }
        c.eventsPerConnection = events.count
        c.eventInterval = events.interval
        if let requestTimeout { c.requestTimeout = requestTimeout }
        c.onZipHeld = zipHeld
        if let linger { c.lingerTimeout = linger }
        c.onRequestDeadline = deadlineEvents
        c.clock = clock.function
        // Memory free: as given, else plenty (the test machine's own would make tests depend on it).
        c.availableMemory = memory ?? { availableMemory ?? 1 << 40 }
        // A plain comparison stands in for bcrypt (its own tests are hummingbird-auth's).
        let server = try WebServer(configuration: c, log: log, verify: { pw, hash in "hash:" + pw == hash })
        return server.application()
    }
}

/// The CSRF token a page carries.
func csrfToken(in html: String) -> String? {
    guard let r = html.range(of: "<meta name=\"csrf\" content=\"") else { return nil }
    return String(html[r.upperBound...].prefix { $0 != "\"" })
}
