import Foundation
import MotionCore
import Logging
import Synchronization
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// Why the control socket could not be set up.
struct ControlSocketError: Error, CustomStringConvertible {
    var description: String
}

/// The daemon's control socket: a Unix stream socket (mode 0660, optionally given to a
/// group) answering one JSON request per connection. The accept loop runs on its own
/// thread and waits with `poll` on the socket and a wake pipe; each connection is served
/// on a short-lived thread, so a `stop` that waits for the files to close never delays a
/// `status`.
final class ControlServer: Sendable {
    let path: String
    private let listenFD: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let handler: @Sendable (ControlRequest) -> ControlReply
    private let log: Logger
    private let stopped = Atomic<Bool>(false)
    private let done = WakeSignal()
    private let active = Atomic<Int>(0)
    private static let maxConnections = 16

    /// Binds `path`: a stale socket file (nobody listening) is replaced, a live one means
    /// another daemon runs, anything else at that path is left alone and reported.
    init(path: String, group: String?, log: Logger, handler: @escaping @Sendable (ControlRequest) -> ControlReply) throws(ControlSocketError) {
        self.path = path
        self.log = log
        self.handler = handler
        try Self.clearStale(path, log: log)
        do { listenFD = try UnixSocket.listen(path) } catch {
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
        // connect(2) needs write permission on the socket: owner and group only.
        if chmod(path, 0o660) != 0 {
            log.warning("cannot set mode 0660 on \(path): \(Errno(rawValue: errno))")
        }
        if let group {
            if let gid = UnixSocket.groupID(group) {
                if chown(path, uid_t.max, gid) != 0 {
                    log.warning("cannot give the control socket to group \(group): \(Errno(rawValue: errno)); members of that group cannot control the daemon")
                }
            } else {
                log.warning("socket_group \(group): no such group; the socket keeps the daemon's group")
            }
        }
        var fds: [Int32] = [0, 0]
        if pipe(&fds) != 0 {
            Glibc.close(listenFD)
            unlink(path)
            throw ControlSocketError(description: "cannot create the control socket's wake pipe: \(Errno(rawValue: errno))")
        }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        wakeRead = fds[0]
        wakeWrite = fds[1]
    }

    static func clearStale(_ path: String, log: Logger) throws(ControlSocketError) {
        guard let info = UnixSocket.fileInfo(path) else { return }
        guard info.isSocket else {
            throw ControlSocketError(description: "\(path) exists and is not a socket: remove it or choose another --socket PATH")
        }
        do {
            let fd = try UnixSocket.connect(path)
            Glibc.close(fd)
            throw ControlSocketError(description: "another motionlog daemon is already running (it answers on \(path)); stop it first, or use another --socket PATH")
        } catch let e as ControlSocketError {
            throw e
        } catch let e as SocketError where e.errno == .connectionRefused {
            if unlink(path) != 0 {
                throw ControlSocketError(description: "cannot remove the stale socket \(path): \(Errno(rawValue: errno))")
            }
            log.notice("removed a stale control socket (no daemon was listening)", metadata: ["socket": "\(path)"])
        } catch {
            throw ControlSocketError(description: "cannot check the existing socket \(path): \(error)")
        }
    }

    /// Starts the accept loop thread.
    func start() {
        let thread = Thread { [self] in
            acceptLoop()
            done.signal()
        }
        thread.name = "motionlog-control"
        thread.start()
    }

    private func acceptLoop() {
        var acceptFailing = false
        while !stopped.load(ordering: .relaxed) {
            var fds = [pollfd(fd: listenFD, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            let n = poll(&fds, 2, -1)
            if n < 0 {
                if errno == EINTR { continue }
                log.error("control socket: poll failed: \(Errno(rawValue: errno))")
                return
            }
            if fds[1].revents != 0 { return }
            guard fds[0].revents != 0 else { continue }
            let client = accept(listenFD, nil, nil)
            if client < 0 {
                // Out of descriptors (EMFILE/ENFILE) leaves the connection pending, so poll would
                // report it again at once: wait a little instead of spinning, and say so once.
                let e = errno
                if e == EMFILE || e == ENFILE || e == ENOBUFS || e == ENOMEM {
                    if !acceptFailing { log.error("control socket: cannot accept connections: \(Errno(rawValue: e))"); acceptFailing = true }
                    usleep(100_000)
                }
                continue
            }
            acceptFailing = false
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            if active.add(1, ordering: .relaxed).newValue > Self.maxConnections {
                active.subtract(1, ordering: .relaxed)
                reply(client, ControlReply(ok: false, message: "busy: too many control connections"))
                Glibc.close(client)
                continue
            }
            let worker = Thread { [self] in
                serve(client)
                Glibc.close(client)
                active.subtract(1, ordering: .relaxed)
            }
            worker.name = "motionlog-control-client"
            worker.start()
        }
    }

    private func serve(_ client: Int32) {
        UnixSocket.setTimeouts(client, seconds: 10)
        let line: [UInt8]?
        do { line = try UnixSocket.readLine(client, limit: ControlProtocol.maxLineBytes, path: path) } catch {
            reply(client, ControlReply(ok: false, message: "bad request: \(error)"))
            return
        }
        guard let line else { return }
        let request: ControlRequest
        do { request = try ControlProtocol.decode(ControlRequest.self, from: line) } catch {
            reply(client, ControlReply(ok: false, message: "bad request: not a control request in JSON (\(error))"))
            return
        }
        reply(client, handler(request))
    }

    private func reply(_ client: Int32, _ reply: ControlReply) {
        do { try UnixSocket.writeAll(client, ControlProtocol.encode(reply), path: path) } catch {
            log.debug("control client went away: \(error)")
        }
    }

    /// Stops accepting, waits for the accept loop, removes the socket file.
    func close() {
        if stopped.exchange(true, ordering: .relaxed) { return }
        var b: UInt8 = 1
        _ = Glibc.write(wakeWrite, &b, 1)
        done.wait()
        Glibc.close(listenFD)
        Glibc.close(wakeRead)
        Glibc.close(wakeWrite)
        unlink(path)
    }
}
