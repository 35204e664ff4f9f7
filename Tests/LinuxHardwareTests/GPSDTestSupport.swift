import Foundation
import LinuxHardware
import Logging
import MotionSystem
import MotionCore
#if canImport(Glibc)
import Glibc
#endif

/// A test's failure to set up gpsd or to see what it waited for, with the reason.
struct GPSDHarnessError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The copied gpsd 3.22 regression logs (Tests/Fixtures/gpsd-3.22, see its README.md).
enum GPSDFixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/gpsd-3.22").path

    static func text(_ name: String) throws -> String {
        try String(contentsOfFile: directory + "/" + name, encoding: .utf8)
    }

    /// The NMEA sentences of a log (comments and blank lines left out).
    static func sentences(_ log: String) throws -> [String] {
        try text(log).split(whereSeparator: \.isNewline).map(String.init)
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }

    /// The fields of a gpsd TPV report the `L` rows use (absent: nil).
    struct TPV: Decodable {
        var `class`: String
        var mode: Int?
        var time: String?
        var lat: Double?, lon: Double?, altMSL: Double?, speed: Double?, track: Double?
        var climb: Double?, eph: Double?, epv: Double?
    }

    /// Every JSON TPV report in a `.chk`, parsed with Foundation's JSONDecoder (exact for
    /// every number; corelibs' JSONSerialization can miss the 17th digit).
    static func tpvReports(_ chk: String) throws -> [TPV] {
        struct Class: Decodable { var `class`: String }
        var reports: [TPV] = []
        let decoder = JSONDecoder()
        for line in try text(chk).split(whereSeparator: \.isNewline) where line.hasPrefix("{") {
            let data = Data(line.utf8)
            guard try decoder.decode(Class.self, from: data).class == "TPV" else { continue }
            reports.append(try decoder.decode(TPV.self, from: data))
        }
        return reports
    }

    /// What the `L` rows must be for a `.chk`: one row per fix time (TPVs of mode 2/3 with a
    /// time and a position), holding that time's latest value of each field.
    static func expectedFixes(_ chk: String) throws -> [LocationFix] {
        var order: [String] = []
        var byTime: [String: LocationFix] = [:]
        for r in try tpvReports(chk) {
            let mode = r.mode ?? 0
            guard mode >= 2, let time = r.time, let lat = r.lat, let lon = r.lon else { continue }
            guard let when = try? isoEpochSeconds(time) else { throw GPSDHarnessError("bad time \(time) in \(chk)") }
            var fix = byTime[time] ?? LocationFix(when: when, latitude: lat, longitude: lon, mode: mode)
            if byTime[time] == nil { order.append(time) }
            fix.latitude = lat; fix.longitude = lon; fix.mode = mode
            if let v = r.altMSL { fix.altitudeMSL = v }
            if let v = r.speed { fix.speed = v }
            if let v = r.track { fix.course = v }
            if let v = r.climb { fix.climb = v }
            if let v = r.eph { fix.eph = v }
            if let v = r.epv { fix.epv = v }
            byTime[time] = fix
        }
        return order.compactMap { byTime[$0] }
    }

    /// `2034-11-27T20:26:40.120Z` → epoch seconds: whole seconds with timegm, the fraction
    /// from its own digits (the Double nearest the decimal text).
    static func isoEpochSeconds(_ text: String) throws -> Double {
        let parts = text.dropLast().split(separator: "T")
        guard text.hasSuffix("Z"), parts.count == 2 else { throw GPSDHarnessError("not ISO UTC: \(text)") }
        let date = parts[0].split(separator: "-").compactMap { Int($0) }
        let clock = parts[1].split(separator: ":")
        guard date.count == 3, clock.count == 3, let h = Int(clock[0]), let m = Int(clock[1]) else {
            throw GPSDHarnessError("not ISO UTC: \(text)")
        }
        let secondParts = clock[2].split(separator: ".")
        guard let s = Int(secondParts[0]) else { throw GPSDHarnessError("not ISO UTC: \(text)") }
        var t = tm()
        t.tm_year = Int32(date[0] - 1900); t.tm_mon = Int32(date[1] - 1); t.tm_mday = Int32(date[2])
        t.tm_hour = Int32(h); t.tm_min = Int32(m); t.tm_sec = Int32(s)
        let whole = timegm(&t)
        let fraction = secondParts.count > 1 ? String(secondParts[1]) : "0"
        guard let value = Double("\(whole).\(fraction)") else { throw GPSDHarnessError("not ISO UTC: \(text)") }
        return value
    }
}

/// A real gpsd for one test: `gpsd -N -n -b -S TCP udp://127.0.0.1:UDP` on free loopback
/// ports, fed NMEA over UDP, stopped by PID.
final class GPSDDaemon {
    static let executable = "/usr/sbin/gpsd"
    let tcpPort: Int
    let udpPort: Int
    private var pid: pid_t?

    init() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.executable) else {
            throw GPSDHarnessError("\(Self.executable) is missing: these tests need a real gpsd. Install it with `sudo make deps` (or apt-get install gpsd gpsd-clients)")
        }
        tcpPort = try Self.freePort(type: SOCK_STREAM)
        udpPort = try Self.freePort(type: SOCK_DGRAM)
    }

    var address: GPSDAddress { GPSDAddress(host: "127.0.0.1", port: tcpPort) }

    /// A client of this gpsd, started and watching it (the opening the tests share).
    func watchingClient() throws -> GPSDClient {
        let client = GPSDClient(address: address, log: Logger(label: "test"))
        client.start()
        try waitUntil("the client's watch on gpsd") { client.statistics.watching }
        return client
    }

    /// Starts gpsd and waits (at most 10 s) until it lists the UDP device; with `receiver`
    /// false, a gpsd with no device at all, until it answers.
    func start(receiver: Bool = true) throws {
        // gpsd will not run with neither a device nor a control socket.
        let control = NSTemporaryDirectory() + "gpsd-\(tcpPort).sock"
        pid = try Self.spawn([Self.executable, "-N", "-n", "-b", "-S", "\(tcpPort)"]
                             + (receiver ? ["udp://127.0.0.1:\(udpPort)"] : ["-F", control]))
        try waitUntilReady(listing: receiver ? "udp://127.0.0.1:\(udpPort)" : "\"class\":\"DEVICES\"")
    }

    /// Stops gpsd by its PID (SIGTERM, or `signal`) and waits for it to exit.
    func stop(signal: Int32 = SIGTERM) {
        guard let p = pid else { return }
        pid = nil
        kill(p, signal)
        var status: Int32 = 0
        while waitpid(p, &status, 0) < 0 && errno == EINTR {}
    }

    /// True while the spawned gpsd has not exited.
    private var isRunning: Bool {
        guard let p = pid else { return false }
        var status: Int32 = 0
        return waitpid(p, &status, WNOHANG) == 0
    }

    /// Started as a shell starts a program (MotionSystem's `ChildProcesses`: an empty signal
    /// mask and default handlers — the test runner's threads block signals, and a child
    /// inheriting that mask would ignore SIGTERM), output discarded.
    private static func spawn(_ argv: [String]) throws -> pid_t {
        do {
            return try ChildProcesses.spawn(argv[0], Array(argv.dropFirst()), environment: ProcessInfo.processInfo.environment,
                                            stdout: "/dev/null", stderr: "/dev/null")
        } catch {
            throw GPSDHarnessError("cannot start \(argv[0]): \(error)")
        }
    }

    deinit { stop() }

    /// Sends sentences to gpsd's UDP device, one datagram each with CRLF, paced by 1 ms.
    func send(_ sentences: [String]) throws {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { throw GPSDHarnessError("socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var addr = Self.loopback(port: udpPort)
        for sentence in sentences {
            let bytes = Array((sentence + "\r\n").utf8)
            let sent = withUnsafePointer(to: &addr) { p in
                p.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                    sendto(fd, bytes, bytes.count, 0, sa, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard sent == bytes.count else { throw GPSDHarnessError("sendto: \(String(cString: strerror(errno)))") }
            usleep(1000)
        }
    }

    /// Connects, asks for a watch and reads until gpsd's DEVICES report names our UDP device.
    private func waitUntilReady(listing device: String) throws {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            guard isRunning else { throw GPSDHarnessError("gpsd exited at start (ports \(tcpPort)/\(udpPort))") }
            if let text = try? Self.exchange(port: tcpPort, request: "?WATCH={\"enable\":true,\"json\":true};\n",
                                             until: device), text.contains(device) {
                return
            }
            usleep(20_000)
        }
        throw GPSDHarnessError("gpsd did not list \(device) within 10 s")
    }

    private static func exchange(port: Int, request: String, until marker: String) throws -> String {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw GPSDHarnessError("socket failed") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var addr = loopback(port: port)
        let ok = withUnsafePointer(to: &addr) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard ok == 0 else { throw GPSDHarnessError("connect refused") }
        let bytes = Array(request.utf8)
        _ = write(fd, bytes, bytes.count)
        var text = ""
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !text.contains(marker) {
            let n = read(fd, &buffer, buffer.count)
            if n <= 0 { break }
            text += String(decoding: buffer[0..<n], as: UTF8.self)
        }
        return text
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        return addr
    }

    /// A port the kernel says is free on 127.0.0.1 (bind to port 0, read it back).
    private static func freePort(type: __socket_type) throws -> Int {
        let fd = socket(AF_INET, Int32(type.rawValue), 0)
        guard fd >= 0 else { throw GPSDHarnessError("socket failed") }
        defer { close(fd) }
        var addr = loopback(port: 0)
        let bound = withUnsafePointer(to: &addr) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw GPSDHarnessError("bind to a free port failed") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &addr) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: addr.sin_port))
    }
}

/// Waits until `condition` holds, checking every 5 ms, for at most `seconds`; throws with
/// `what` if it never does. A wait for a state, never a timing assertion.
func waitUntil(_ what: String, seconds: Double = 20, _ condition: () -> Bool) throws {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        if Date() > deadline { throw GPSDHarnessError("timed out after \(seconds) s waiting for \(what)") }
        usleep(5000)
    }
}

/// Compares fixes value for value (NaN equals NaN); returns a readable difference.
func fixDifferences(_ got: [LocationFix], _ expected: [LocationFix]) -> [String] {
    var out: [String] = []
    if got.count != expected.count { out.append("\(got.count) fixes, expected \(expected.count)") }
    for (i, (g, e)) in zip(got, expected).enumerated() where g != e {
        out.append("fix \(i): got \(g)\n   expected \(e)")
        if out.count > 5 { break }
    }
    return out
}
