import Foundation
import Logging
@testable import MotionApp
import MotionCore
import MotionSystem
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The control socket: every command, the JSON status, stale and live sockets, files that
/// are not sockets, a missing daemon, bad requests and permissions.
@Suite("Daemon control socket", .serialized)
struct DaemonSocketTests {
    typealias S = DaemonTestSupport

    func serve(_ d: Daemon, at path: String) throws -> ControlServer {
        let server = try ControlServer(path: path, group: nil, log: Logger(label: "test")) { d.answer($0) }
        server.start()
        return server
    }

    func socketPath() -> String { Binary.temporaryDirectory() + "/control.sock" }

    @Test func everyCommandWorksThroughTheSocket() throws {
        let out = Binary.temporaryDirectory(), path = socketPath()
        let d = try S.daemon(out: out)
        let server = try serve(d, at: path)
        defer { server.close() }
        #expect(UnixSocket.fileInfo(path)?.mode == 0o660)

        let idle = try ControlClient.send(ControlRequest(command: .status), socket: path)
        #expect(idle.ok && idle.status?.state == "idle" && idle.status?.board == "simulator")
        // The status survives the trip through JSON unchanged.
        let status = try #require(idle.status)
        #expect(try ControlProtocol.decode(DaemonStatus.self, from: Array(ControlProtocol.encode(status).dropLast())) == status)

        let started = try ControlClient.send(ControlRequest(command: .start), socket: path)
        #expect(started.ok && started.message == "recording started" && started.status?.state == "recording")
        #expect(try ControlClient.send(ControlRequest(command: .start), socket: path).message == "already recording")
        #expect(S.eventually { S.written(d) >= 20 })
        let labelled = try ControlClient.send(ControlRequest(command: .label, label: "T"), socket: path)
        #expect(labelled.ok && labelled.status?.label == "T")
        let mark = S.written(d)
        #expect(S.eventually { S.written(d) >= mark + 30 })
        let bad = try ControlClient.send(ControlRequest(command: .label, label: "t"), socket: path)
        #expect(!bad.ok && bad.message?.contains("one uppercase letter") == true)

        let running = try #require(try ControlClient.send(ControlRequest(command: .status), socket: path).status)
        #expect(running.state == "recording" && running.currentFile?.hasPrefix(out) == true && running.rateHz == 50)
        #expect((running.elapsedSeconds ?? 0) > 0 && running.gps.fix != "no GPS" && running.clock.source == "system")

        let stopped = try ControlClient.send(ControlRequest(command: .stop), socket: path)
        #expect(stopped.ok && stopped.status?.state == "idle")
        let files = try #require(stopped.status?.lastFiles)
        #expect(files.count == 1 && files == Binary.csvFiles(in: out))
        #expect(try S.labelRuns(files[0]) == "WT")
        #expect(try S.metadata(files[0]).endedCleanly)
        #expect(try ControlClient.send(ControlRequest(command: .stop), socket: path).message == "not recording")

        server.close()
        #expect(UnixSocket.fileInfo(path) == nil)
    }

    @Test func aStaleSocketIsReportedAndReplaced() throws {
        let path = socketPath()
        // A daemon that died without cleaning up leaves a socket nobody listens on.
        close(try UnixSocket.listen(path))
        #expect(UnixSocket.fileInfo(path)?.isSocket == true)
        #expect {
            _ = try ControlClient.send(ControlRequest(command: .status), socket: path)
        } throws: { error in
            (error as? CommandFailure)?.message.contains("is a stale socket that nobody listens on") ?? false
        }
        let server = try serve(try S.daemon(out: Binary.temporaryDirectory()), at: path)
        defer { server.close() }
        #expect(try ControlClient.send(ControlRequest(command: .status), socket: path).ok)
    }

    /// A regular file at the socket path is not called a stale socket (the daemon refuses
    /// to replace it, so "start the daemon; it replaces the stale file" was wrong).
    @Test func aFileWhereTheSocketShouldBeIsNamedAsSuch() throws {
        let path = socketPath()
        try Data("not a socket".utf8).write(to: URL(fileURLWithPath: path))
        #expect {
            _ = try ControlClient.send(ControlRequest(command: .status), socket: path)
        } throws: { error in
            (error as? CommandFailure)?.message.contains("is not a socket but a file") ?? false
        }
    }

    @Test func aLiveSocketMeansAnotherDaemonRuns() throws {
        let path = socketPath()
        let first = try serve(try S.daemon(out: Binary.temporaryDirectory()), at: path)
        defer { first.close() }
        #expect {
            _ = try ControlServer(path: path, group: nil, log: Logger(label: "test")) { _ in ControlReply(ok: true) }
        } throws: { error in
            (error as? ControlSocketError)?.description.contains("another motionlog daemon is already running") ?? false
        }
        #expect(try ControlClient.send(ControlRequest(command: .status), socket: path).ok)
    }

    @Test func somethingElseAtTheSocketPathIsLeftAlone() throws {
        let path = socketPath()
        try "precious".write(toFile: path, atomically: false, encoding: .utf8)
        #expect {
            _ = try ControlServer(path: path, group: nil, log: Logger(label: "test")) { _ in ControlReply(ok: true) }
        } throws: { error in
            (error as? ControlSocketError)?.description.contains("exists and is not a socket") ?? false
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "precious")
        #expect {
            _ = try ControlServer(path: "/nonexistent-motionlog/control.sock", group: nil, log: Logger(label: "test")) { _ in ControlReply(ok: true) }
        } throws: { error in
            (error as? ControlSocketError)?.description.contains("folder /nonexistent-motionlog does not exist") ?? false
        }
    }

    @Test func withoutADaemonTheClientSaysSo() {
        #expect {
            _ = try ControlClient.send(ControlRequest(command: .start), socket: Binary.temporaryDirectory() + "/none.sock")
        } throws: { error in
            (error as? CommandFailure)?.message.contains("no motionlog daemon is running: there is no control socket") ?? false
        }
    }

    @Test func aBadRequestGetsAnAnswerNotACrash() throws {
        let path = socketPath()
        let server = try serve(try S.daemon(out: Binary.temporaryDirectory()), at: path)
        defer { server.close() }
        let fd = try UnixSocket.connect(path)
        defer { close(fd) }
        try UnixSocket.writeAll(fd, Array("{\"command\":\"explode\"}\n".utf8), path: path)
        let line = try #require(try UnixSocket.readLine(fd, limit: 1 << 20, path: path))
        let reply = try ControlProtocol.decode(ControlReply.self, from: line)
        #expect(!reply.ok && reply.message?.hasPrefix("bad request") == true)
        #expect(try ControlClient.send(ControlRequest(command: .status), socket: path).ok)
    }

    @Test func permissionDeniedNamesTheGroupToJoin() throws {
        let path = socketPath()
        let server = try serve(try S.daemon(out: Binary.temporaryDirectory()), at: path)
        defer { server.close() }
        let result: Binary.Result
        if getuid() == 0 {
            // Root passes every permission check: ask as user nobody, outside the socket's group.
            result = try Binary.run(via: "/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", Binary.path,
                                                             "status", "--socket", path])
        } else {
            #expect(chmod(path, 0) == 0)
            result = try Binary.run(["status", "--socket", path])
        }
        #expect(result.status == 1)
        let gid = UnixSocket.fileInfo(path)?.group ?? 0
        let group = UnixSocket.groupName(gid)
        #expect(result.stderr.contains("permission denied on \(path)"))
        if gid == 0 {
            // A daemon run by hand as root: joining group root is no advice to give.
            #expect(result.stderr.contains("belongs to group root") && !result.stderr.contains("usermod"))
        } else {
            #expect(result.stderr.contains("members of group \(group)") && result.stderr.contains("usermod -aG \(group)"))
        }
    }

    @Test(.enabled(if: getuid() == 0)) func aSocketGivenToAGroupNamesThatGroup() throws {
        let path = socketPath()
        let server = try ControlServer(path: path, group: "nogroup", log: Logger(label: "test")) { _ in ControlReply(ok: true) }
        server.start()
        defer { server.close() }
        let gid = try #require(UnixSocket.groupID("nogroup"))
        #expect(UnixSocket.fileInfo(path)?.group == gid && UnixSocket.fileInfo(path)?.mode == 0o660)
        #expect(ControlClient.permissionHint(path).contains("usermod -aG nogroup"))
    }
}
