import Foundation
import Logging
import MotionCore
import Synchronization
import Testing
@testable import LinuxHardware
#if canImport(Glibc)
import Glibc
#endif

/// A fake gpsd on a loopback TCP port that answers every connection with a script of raw
/// lines: what reaches libgps and our decoding when gpsd (or something pretending to be
/// gpsd) sends nonsense.
final class FakeGPSDServer: @unchecked Sendable {
    let port: Int
    private let fd: Int32
    private let lines: [[UInt8]]
    let connections = Atomic<Int>(0)

    init(lines: [[UInt8]]) throws {
        self.lines = lines
        let (listener, port) = try Self.listen()
        fd = listener
        self.port = port
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    /// A listening socket on a free loopback port.
    private static func listen() throws -> (Int32, Int) {
        let sock = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard sock >= 0 else { throw GPSDHarnessError("socket failed") }
        var yes: Int32 = 1
        setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &addr) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(sock, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, Glibc.listen(sock, 4) == 0 else { close(sock); throw GPSDHarnessError("bind/listen failed") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &addr) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(sock, $0, &length) }
        }
        return (sock, Int(UInt16(bigEndian: addr.sin_port)))
    }

    /// Accepts connections until the listening socket is closed; each gets the script.
    private func serve() {
        while true {
            let client = accept(fd, nil, nil)
            if client < 0 { return }
            connections.add(1, ordering: .relaxed)
            send(client, Array("{\"class\":\"VERSION\",\"release\":\"3.22\",\"proto_major\":3,\"proto_minor\":14}\r\n".utf8))
            // Wait for the watch request, then play the script.
            var buffer = [UInt8](repeating: 0, count: 512)
            _ = read(client, &buffer, buffer.count)
            send(client, Array("{\"class\":\"WATCH\",\"enable\":true,\"json\":true}\r\n".utf8))
            for line in lines { send(client, line) }
            // Keep the connection open until the client goes away.
            while read(client, &buffer, buffer.count) > 0 {}
            close(client)
        }
    }

    private func send(_ client: Int32, _ bytes: [UInt8]) {
        var done = 0
        while done < bytes.count {
            let n = bytes[done...].withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
            if n <= 0 { return }
            done += n
        }
    }

    func shutdown() { Glibc.shutdown(fd, Int32(SHUT_RDWR)); close(fd) }
}

struct GPSDMalformedInputTests {
    static func line(_ text: String) -> [UInt8] { Array((text + "\r\n").utf8) }

    @Test func nonsenseFromGPSDNeverCrashesAndGoodReportsStillCount() throws {
        var binary = [UInt8](repeating: 0xFF, count: 3000)
        binary[100] = 0; binary[200] = 0x7B
        let script: [[UInt8]] = [
            Self.line("garbage without braces"),
            Self.line("{\"class\":\"TPV\",\"mode\":3,\"time\":\"not a time\",\"lat\":\"x\",\"lon\":[1,2]}"),
            Self.line("{\"class\":\"TPV\",\"mode\":99,\"lat\":1e999,\"lon\":-1e999,\"time\":\"2034-13-45T99:99:99Z\"}"),
            Self.line("{\"class\":\"TPV\",\"mode\":3,\"time\":\"2034-11-27T20:26:39.000Z\""),
            binary + Self.line(""),
            Self.line("{\"class\":\"SKY\",\"satellites\":[{\"PRN\":\"x\"}]}"),
            Self.line("{\"class\":\"TPV\",\"mode\":3,\"time\":\"2034-11-27T20:26:40.000Z\",\"lat\":44.5,\"lon\":-121.5,\"altMSL\":1127.7}"),
            Self.line("{\"class\":\"TPV\",\"mode\":3,\"time\":\"2034-11-27T20:26:41.000Z\",\"lat\":44.6,\"lon\":-121.6,\"speed\":1.5}"),
        ]
        let server = try FakeGPSDServer(lines: script)
        defer { server.shutdown() }
        let client = GPSDClient(address: GPSDAddress(host: "127.0.0.1", port: server.port), log: Logger(label: "test"))
        client.start()
        var fixes: [LocationFix] = []
        let tick = Tick(index: 0, monotonicNanos: 0, when: 0, elapsed: 0)
        try waitUntil("the last good report") {
            client.poll(at: tick) { fixes.append($0) }
            return fixes.contains { $0.latitude == 44.5 }
        }
        client.finish { fixes.append($0) }
        // libgps skips what it cannot decode: no reconnect was needed.
        #expect(server.connections.load(ordering: .relaxed) == 1)
        #expect(client.health.disconnects == 0)
        // The two good reports are the only fixes, exactly.
        let good = fixes.filter { $0.latitude == 44.5 || $0.latitude == 44.6 }
        #expect(good.map(\.when) == [2_048_272_000, 2_048_272_001])
        #expect(fixes.allSatisfy { $0.when.isFinite && $0.latitude.isFinite && $0.longitude.isFinite && ($0.mode == 2 || $0.mode == 3) })
        #expect(zip(fixes, fixes.dropFirst()).allSatisfy { $0.when < $1.when })
    }

    @Test func garbageNMEAIntoARealGPSDGivesNoRowsAndNoCrash() throws {
        let daemon = try GPSDDaemon()
        try daemon.start()
        defer { daemon.stop() }
        let client = try daemon.watchingClient()
        var junk: [String] = [
            "$GPGGA,,,,,,,,,,,,,,*00", "$GPRMC,999999.000,A,9999.9999,N,99999.9999,W,abc,def,999999,,,D*00",
            "$GPRMC,202640.000,A,4404.1306,N,12118.8515,W,0.03,225.97,130415,,,D*FF",  // bad checksum
            String(repeating: "$", count: 200), "\u{01}\u{02}\u{7F}", "$GPZDA,99:99:99,,,,*",
        ]
        for i in 0..<50 { junk.append("$GPGGA,\(i)," + String(repeating: ",", count: i) + "*\(i % 10)\(i % 7)") }
        try daemon.send(junk)
        // gpsd answers a valid sentence after the junk: the stream still works.
        try daemon.send(try GPSDFixtures.sentences("mt3339.log"))
        try waitUntil("the TPVs of the valid log") { client.statistics.tpvReports >= 32 }
        var fixes: [LocationFix] = []
        client.finish { fixes.append($0) }
        #expect(fixes == (try GPSDFixtures.expectedFixes("mt3339.log.chk")))
    }
}
