import Foundation
import Logging
@testable import MotionApp
import MotionCore
import MotionSystem
import Synchronization
import SystemPackage
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Attacks on the control socket (issue 10, major 9), with scripted clients and a clock the
/// test moves: idle and trickling clients, more clients than slots, huge requests whose
/// replies are never read, a busy daemon closing early, and the socket's mode before it
/// accepts connections.
@Suite("Control socket under abuse", .serialized)
struct ControlSocketAbuseTests {
    typealias S = DaemonTestSupport

    /// A monotonic clock the test sets.
    final class ManualClock: Sendable {
        let now = Atomic<Int64>(1_000_000_000)
        func advance(seconds: Double) { now.add(Int64(seconds * 1e9), ordering: .relaxed) }
        var read: @Sendable () -> Int64 { { [self] in now.load(ordering: .relaxed) } }
    }

    func serve(_ d: Daemon, clock: ManualClock, limits: ControlServer.Limits = .init()) throws -> (ControlServer, String) {
        let path = Binary.temporaryDirectory() + "/control.sock"
        let server = try ControlServer(path: path, group: nil, log: Logger(label: "test"), limits: limits, clock: clock.read) { d.answer($0) }
        server.start()
        return (server, path)
    }

    /// A connected client that sends what the test says, when it says.
    struct RawClient {
        let fd: Int32
        init(_ path: String) throws {
            fd = try UnixSocket.connect(path)
            UnixSocket.setTimeouts(fd, seconds: 30)
        }
        func send(_ text: String) { _ = text.withCString { Glibc.send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) } }
        /// The reply line, nil at end of file or on a reset.
        func reply() -> ControlReply? {
            guard let line = try? UnixSocket.readLine(fd, limit: 1 << 16, path: "test") else { return nil }
            return try? ControlProtocol.decode(ControlReply.self, from: line)
        }
        func close() { Glibc.close(fd) }
    }

    /// A script's request without `protocolVersion` is version 1's (it was refused with
    /// "keyNotFound").
    @Test func aRequestFromAScriptNeedsNoProtocolVersion() throws {
        let clock = ManualClock()
        let (server, path) = try serve(try S.daemon(out: Binary.temporaryDirectory()), clock: clock)
        defer { server.close() }
        let script = try RawClient(path)
        defer { script.close() }
        script.send("{\"command\":\"status\"}\n")
        let reply = try #require(script.reply())
        #expect(reply.ok && reply.status != nil, "\(reply)")
        #expect(try ControlProtocol.decode(ControlRequest.self, from: Array(#"{"command":"label","label":"B"}"#.utf8))
                == ControlRequest(command: .label, label: "B"))
    }

    @Test func tricklingClientsAreCutOffAtTheirTotalDeadline() throws {
        let clock = ManualClock()
        let (server, path) = try serve(try S.daemon(out: Binary.temporaryDirectory()), clock: clock)
        defer { server.close() }
        // 16 clients each send a byte now and then, as in the report (one byte every 8 s
        // used to reset a 10 s timeout for ever).
        let clients = try (0..<16).map { _ in try RawClient(path) }
        defer { clients.forEach { $0.close() } }
        for c in clients { c.send("{") }
        #expect(S.eventually { server.openConnections == 16 })
        // Meanwhile status and stop get through.
        #expect(try ControlClient.send(ControlRequest(command: .status), socket: path).ok)
        #expect(try ControlClient.send(ControlRequest(command: .stop), socket: path).message == "not recording")
        for _ in 0..<3 {
            clock.advance(seconds: 1.5)
            for c in clients { c.send(" ") }
            server.wake()
        }
        // 4.5 s after accept: still within the 5 s for the whole request.
        #expect(S.eventually { server.bufferedBytes == 16 * 4 })
        #expect(server.openConnections == 16)
        clock.advance(seconds: 1)
        for c in clients { c.send(" ") }
        server.wake()
        #expect(S.eventually { server.openConnections == 0 })
        for c in clients {
            let reply = c.reply()
            #expect(reply == nil || reply?.message?.contains("not sent within 5 s") == true)
        }
        #expect(try ControlClient.send(ControlRequest(command: .status), socket: path).ok)
    }

    @Test func moreIdleClientsThanSlotsCannotStarveStop() throws {
        let clock = ManualClock()
        var limits = ControlServer.Limits()
        limits.maxConnections = 8
        let out = Binary.temporaryDirectory()
        let d = try S.daemon(out: out)
        let (server, path) = try serve(d, clock: clock, limits: limits)
        defer { server.close() }
        #expect(try ControlClient.send(ControlRequest(command: .start), socket: path).ok)
        // Twice as many idle clients as slots; the clock does not move, so no deadline helps.
        var idle: [RawClient] = []
        defer { idle.forEach { $0.close() } }
        for _ in 0..<16 {
            idle.append(try RawClient(path))
        }
        #expect(S.eventually { server.evictedConnections == 8 && server.openConnections == 8 })
        #expect(S.eventually { S.written(d) >= 10 })
        let status = try ControlClient.send(ControlRequest(command: .status), socket: path)
        #expect(status.ok && status.status?.state == "recording")
        let stopped = try ControlClient.send(ControlRequest(command: .stop), socket: path)
        #expect(stopped.ok && stopped.status?.state == "idle")
        #expect(try S.metadata(try #require(Binary.csvFiles(in: out).first)).endedCleanly)
        // The evicted ones were told why.
        #expect(idle.prefix(2).allSatisfy { $0.reply()?.message?.hasPrefix("daemon busy, try again") == true })
    }

    @Test func hugeRequestsWhoseRepliesAreNeverReadHoldLittleMemory() throws {
        let clock = ManualClock()
        let (server, path) = try serve(try S.daemon(out: Binary.temporaryDirectory()), clock: clock)
        defer { server.close() }
        // 16 clients send 1 MB `label` requests and never read (the report: 27 → 177 MB).
        let big = "{\"command\":\"label\",\"label\":\"" + String(repeating: "W", count: 1 << 20) + "\"}\n"
        let clients = try (0..<16).map { _ in try RawClient(path) }
        defer { clients.forEach { $0.close() } }
        for c in clients {
            _ = fcntl(c.fd, F_SETFL, fcntl(c.fd, F_GETFL) | O_NONBLOCK)
            c.send(big)        // as much as the socket takes; the rest fails
        }
        #expect(S.eventually { server.openConnections == 0 })
        #expect(server.bufferedBytes == 0)
        for c in clients {
            _ = fcntl(c.fd, F_SETFL, fcntl(c.fd, F_GETFL) & ~O_NONBLOCK)
            let reply = try #require(c.reply())
            #expect(!reply.ok && reply.message == "bad request: longer than 1024 bytes")
        }
        // A reply never read is dropped at its deadline, not kept.
        let lazy = try (0..<4).map { _ in try RawClient(path) }
        defer { lazy.forEach { $0.close() } }
        for c in lazy { c.send("{\"command\":\"status\"}\n") }
        #expect(S.eventually { server.openConnections == 0 })   // small replies fit the socket: sent and closed
        #expect(try ControlClient.send(ControlRequest(command: .status), socket: path).ok)
    }

    @Test func aBusyDaemonThatClosesEarlyIsReportedAsBusyNotBrokenPipe() throws {
        var pair: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer { close(pair[0]) }
        // The daemon answers "busy" and closes before reading the request.
        try UnixSocket.writeAll(pair[1], ControlProtocol.encode(ControlReply(ok: false, message: "daemon busy, try again (32 requests in progress)")), path: "test")
        close(pair[1])
        let reply = try ControlClient.exchange(ControlRequest(command: .stop), on: pair[0], path: "test", timeoutSeconds: 5)
        #expect(!reply.ok && reply.message?.hasPrefix("daemon busy, try again") == true)

        // Closed without any answer: still "busy", not the errno of the write.
        var pair2: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair2) == 0)
        defer { close(pair2[0]) }
        close(pair2[1])
        #expect {
            _ = try ControlClient.exchange(ControlRequest(command: .stop), on: pair2[0], path: "test", timeoutSeconds: 5)
        } throws: { error in
            let message = (error as? CommandFailure)?.message ?? ""
            return message.hasPrefix("daemon busy, try again") && !message.contains("Broken pipe")
        }
    }

    @Test func theSocketHasItsModeBeforeItAcceptsConnections() throws {
        let path = Binary.temporaryDirectory() + "/control.sock"
        let seen = Mutex<(mode: mode_t?, refused: Bool)>((nil, false))
        // The worst case of the report: umask 000 would leave a fresh socket file 0777.
        let saved = umask(0)
        let server: ControlServer
        do {
            defer { umask(saved) }
            server = try ControlServer(path: path, group: nil, log: Logger(label: "test"), beforeListen: {
                let refused: Bool
                do { close(try UnixSocket.connect(path)); refused = false } catch { refused = (error as? SocketError)?.errno == .connectionRefused }
                seen.withLock { $0 = (UnixSocket.fileInfo(path)?.mode, refused) }
            }) { _ in ControlReply(ok: true) }
        }
        server.start()
        defer { server.close() }
        let at = seen.withLock { $0 }
        #expect(at.mode == 0o660)
        #expect(at.refused)
        #expect(UnixSocket.fileInfo(path)?.mode == 0o660)
        #expect(try ControlClient.send(ControlRequest(command: .status), socket: path).ok)
    }
}
