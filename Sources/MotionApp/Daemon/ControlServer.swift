import Foundation
import MotionCore
import Logging
import MotionSystem
import Synchronization
import SystemPackage

/// Why the control socket could not be set up.
struct ControlSocketError: Error, CustomStringConvertible {
    var description: String
}

/// The daemon's control socket: a Unix stream socket (mode 0660, optionally given to a
/// group, set before it accepts connections) answering one JSON request per connection.
///
/// One thread runs a `poll` loop over the listening socket, a wake pipe and every open
/// connection (non-blocking), so an idle or slow client costs a slot and a few bytes, never
/// a thread: each request has a total deadline from accept, requests are at most
/// `Limits.maxRequestBytes`, and when every slot is taken the oldest connection still
/// sending its request is dropped for the new one (`ControlConnections`), so `status` and
/// `stop` always get through. `status` is answered on the loop thread (it reads a published
/// snapshot); `start`, `stop` and `label` go to one worker thread in order, so a `stop` that
/// waits for the files to close never delays a `status`.
final class ControlServer: Sendable {
    typealias Limits = ControlConnections.Limits
    let path: String
    private let listenFD: Int32
    private let wakePipe: WakePipe
    private let handler: @Sendable (ControlRequest) -> ControlReply
    private let log: Logger
    private let limits: Limits
    private let clock: @Sendable () -> Int64
    private let stopped = Atomic<Bool>(false)
    private let started = Atomic<Bool>(false)
    private let done = WakeSignal()
    private let workerDone = WakeSignal()
    private let work = Mutex<[(id: Int, request: ControlRequest)]>([])
    private let workReady = WakeSignal()
    private let finished = Mutex<[(id: Int, reply: ControlReply)]>([])
    private let openCount = Atomic<Int>(0)
    private let heldBytes = Atomic<Int>(0)
    private let evictions = Atomic<Int>(0)

    /// Binds `path`: a stale socket file (nobody listening) is replaced, a live one means
    /// another daemon runs, anything else at that path is left alone and reported.
    /// `clock` (monotonic ns) times the deadlines; tests pass their own and call `wake()`.
    init(path: String, group: String?, log: Logger, limits: Limits = Limits(),
         clock: @escaping @Sendable () -> Int64 = { SystemClock.monotonicNanos() },
         beforeListen: (() -> Void)? = nil,
         handler: @escaping @Sendable (ControlRequest) -> ControlReply) throws(ControlSocketError) {
        self.path = path
        self.log = log
        self.handler = handler
        self.limits = limits
        self.clock = clock
        try Self.clearStale(path, log: log)
        // connect(2) needs write permission on the socket: owner and group only, set before listen.
        var groupID: UInt32?
        if let group {
            if let gid = UnixSocket.groupID(group) { groupID = gid } else {
                log.warning("socket_group \(group): no such group; the socket keeps the daemon's group")
            }
        }
        do {
            listenFD = try UnixSocket.listen(path, mode: 0o660, group: groupID, warn: { problem in
                log.warning("\(problem); members of group \(group ?? "?") may not control the daemon")
            }, beforeListen: beforeListen)
        } catch {
            let folder = (path as NSString).deletingLastPathComponent
            switch error.errno {
            case .noSuchFileOrDirectory?:
                throw ControlSocketError(description: "cannot create the control socket \(path): folder \(folder) does not exist — pass --socket PATH, or run as the service (systemd creates /run/motionlog)")
            case .permissionDenied?, .readOnlyFileSystem?:
                throw ControlSocketError(description: "cannot create the control socket \(path): \(error.errno.map { "\($0)" } ?? "") — pass --socket PATH in a folder you may write to, or run as the service")
            default:
                throw ControlSocketError(description: "\(error)")
            }
        }
        do { wakePipe = try WakePipe() } catch {
            UnixSocket.close(listenFD)
            try? FileSystem.remove(path)
            throw ControlSocketError(description: "cannot create the control socket's wake pipe: \(error)")
        }
    }

    static func clearStale(_ path: String, log: Logger) throws(ControlSocketError) {
        guard let info = UnixSocket.fileInfo(path) else { return }
        guard info.isSocket else {
            throw ControlSocketError(description: "\(path) exists and is not a socket: remove it or choose another --socket PATH")
        }
        do {
            let fd = try UnixSocket.connect(path)
            UnixSocket.close(fd)
            throw ControlSocketError(description: "another motionlog daemon is already running (it answers on \(path)); stop it first, or use another --socket PATH")
        } catch let e as ControlSocketError {
            throw e
        } catch let e as SocketError where e.errno == .connectionRefused {
            do { try FileSystem.remove(path) } catch {
                throw ControlSocketError(description: "cannot remove the stale socket \(path): \(error)")
            }
            log.notice("removed a stale control socket (no daemon was listening)", metadata: ["socket": "\(path)"])
        } catch {
            throw ControlSocketError(description: "cannot check the existing socket \(path): \(error)")
        }
    }

    /// Starts the loop and worker threads.
    func start() {
        guard !started.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let thread = Thread { [self] in
            serveLoop()
            done.signal()
        }
        thread.name = "motionlog-control"
        thread.start()
        let worker = Thread { [self] in
            workLoop()
            workerDone.signal()
        }
        worker.name = "motionlog-control-work"
        worker.start()
    }

    /// Makes the loop look at the clock and its queues again (tests that move the clock).
    func wake() { wakePipe.wake() }

    /// Connections open now, bytes held for them, and connections dropped to make room.
    var openConnections: Int { openCount.load(ordering: .acquiring) }
    var bufferedBytes: Int { heldBytes.load(ordering: .acquiring) }
    var evictedConnections: Int { evictions.load(ordering: .acquiring) }

    private func serveLoop() {
        var connections = ControlConnections(limits: limits)
        var acceptFailing = false
        var buffer = [UInt8](repeating: 0, count: 4096)
        defer { for c in connections.open { UnixSocket.close(c.fd) } }
        while !stopped.load(ordering: .acquiring) {
            var fds = [Poll.Interest(fd: listenFD), Poll.Interest(fd: wakePipe.readFD)]
            var ids: [Int] = []
            for c in connections.open {
                switch c.phase {
                case .reading: fds.append(Poll.Interest(fd: c.fd, readable: true))
                case .writing: fds.append(Poll.Interest(fd: c.fd, readable: false))
                case .handling: continue
                }
                ids.append(c.id)
            }
            var timeout: Int32 = -1
            if let next = connections.nextDeadline {
                timeout = Int32(clamping: max(0, (next - clock() + 999_999) / 1_000_000))
            }
            if acceptFailing { timeout = timeout < 0 ? 100 : min(timeout, 100) }
            let ready: [Bool]
            do { ready = try Poll.wait(fds, timeoutMilliseconds: timeout) } catch {
                log.error("control socket: poll failed: \(error)")
                return
            }
            if ready[1] { wakePipe.drain() }
            if stopped.load(ordering: .acquiring) { return }
            // Replies the worker finished.
            let replies: [(id: Int, reply: ControlReply)] = finished.withLock { q in
                let all = q
                q.removeAll()
                return all
            }
            for item in replies {
                connections.reply(ControlProtocol.encode(item.reply), to: item.id, now: clock())
                flush(item.id, &connections)
            }
            for (i, id) in ids.enumerated() where ready[i + 2] {
                guard let c = connections.connection(id) else { continue }
                switch c.phase {
                case .reading: receive(c, &connections, &buffer)
                case .writing: flush(id, &connections)
                case .handling: break
                }
            }
            if ready[0] {
                let failure = acceptOne(&connections, &buffer)
                if let failure, !acceptFailing { log.error("control socket: cannot accept connections: \(failure)") }
                acceptFailing = failure != nil
            }
            for late in connections.expire(now: clock()) {
                if late.phase == .reading {
                    // A best-effort answer; the socket buffer takes it or it is dropped.
                    send(late.fd, ControlReply(ok: false, message: "bad request: not sent within \(limits.requestNanos / 1_000_000_000) s"))
                }
                UnixSocket.close(late.fd)
            }
            openCount.store(connections.count, ordering: .releasing)
            heldBytes.store(connections.bufferedBytes, ordering: .releasing)
        }
    }

    /// Accepts one connection; the errno when accepting fails for lack of resources.
    private func acceptOne(_ connections: inout ControlConnections, _ buffer: inout [UInt8]) -> Errno? {
        let fd: Int32
        do { fd = try UnixSocket.accept(listenFD) } catch {
            // Out of descriptors (EMFILE/ENFILE) leaves the connection pending, so poll would
            // report it again at once: poll with a short timeout instead of spinning, and say so once.
            let outOfResources: [Errno] = [.tooManyOpenFiles, .tooManyOpenFilesInSystem, .noBufferSpace, .noMemory]
            return outOfResources.contains(error) ? error : nil
        }
        let (id, evicted) = connections.admit(fd: fd, now: clock())
        if let evicted {
            evictions.add(1, ordering: .relaxed)
            send(evicted.fd, ControlReply(ok: false, message: "daemon busy, try again (connection dropped for a newer one)"))
            UnixSocket.close(evicted.fd)
        }
        guard let id, let c = connections.connection(id) else {
            send(fd, ControlReply(ok: false, message: "daemon busy, try again (\(limits.maxConnections) requests in progress)"))
            UnixSocket.close(fd)
            return nil
        }
        // Clients send the request right after connecting: read it now if it is there.
        receive(c, &connections, &buffer)
        return nil
    }

    private func receive(_ c: ControlConnections.Connection, _ connections: inout ControlConnections, _ buffer: inout [UInt8]) {
        let want = min(buffer.count, connections.readAllowance(c.id))
        let received: Int?
        do {
            received = try buffer.withMutableBytes { (raw) throws(Errno) -> Int? in
                try UnixSocket.receive(c.fd, into: raw, count: want)
            }
        } catch {
            _ = connections.remove(c.id)
            UnixSocket.close(c.fd)
            return
        }
        guard let n = received else { return }     // nothing waiting
        if n == 0 {                     // closed before sending a whole line
            _ = connections.remove(c.id)
            UnixSocket.close(c.fd)
            return
        }
        switch connections.received(buffer[0..<n], on: c.id) {
        case .needMore: return
        case .tooLong:
            connections.reply(ControlProtocol.encode(ControlReply(ok: false, message: "bad request: longer than \(limits.maxRequestBytes) bytes")),
                              to: c.id, now: clock())
            flush(c.id, &connections)
        case .line(let line):
            let request: ControlRequest
            do { request = try ControlProtocol.decode(ControlRequest.self, from: line) } catch {
                connections.reply(ControlProtocol.encode(ControlReply(ok: false, message: "bad request: not a control request in JSON (\(error))")),
                                  to: c.id, now: clock())
                flush(c.id, &connections)
                return
            }
            if request.command == .status {
                connections.reply(ControlProtocol.encode(handler(request)), to: c.id, now: clock())
                flush(c.id, &connections)
            } else {
                work.withLock { $0.append((c.id, request)) }
                workReady.signal()
            }
        }
    }

    /// Sends what the socket takes of a connection's reply; closes it when all is sent.
    private func flush(_ id: Int, _ connections: inout ControlConnections) {
        guard let c = connections.connection(id), case .writing(let bytes) = c.phase else { return }
        do {
            guard let n = try bytes.withBytes({ (raw) throws(Errno) -> Int? in try UnixSocket.send(c.fd, raw) }) else { return }
            if !connections.sent(n, on: id) { return }
        } catch {
            log.debug("control client went away: \(error)")
        }
        _ = connections.remove(id)
        UnixSocket.close(c.fd)
    }

    /// A one-shot reply on a connection that is being closed.
    private func send(_ fd: Int32, _ reply: ControlReply) {
        let bytes = ControlProtocol.encode(reply)
        _ = try? bytes.withBytes { (raw) throws(Errno) -> Int? in try UnixSocket.send(fd, raw) }
    }

    /// Runs `start`, `stop` and `label` one at a time, off the loop thread.
    private func workLoop() {
        while true {
            workReady.wait()
            if stopped.load(ordering: .acquiring) { return }
            while let next = work.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
                let reply = handler(next.request)
                finished.withLock { $0.append((next.id, reply)) }
                wake()
            }
        }
    }

    /// Stops accepting, waits for the accept loop, removes the socket file.
    func close() {
        if stopped.exchange(true, ordering: .acquiringAndReleasing) { return }
        wake()
        workReady.signal()
        if started.load(ordering: .acquiring) {
            done.wait()
            workerDone.wait()
        }
        UnixSocket.close(listenFD)
        try? FileSystem.remove(path)
    }
}
