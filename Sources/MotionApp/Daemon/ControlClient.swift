import Foundation
import MotionSystem
import SystemPackage

/// Talks to a running daemon over its control socket (`motionlog start|stop|status|label`).
enum ControlClient {
    /// The default socket, created by the systemd unit's RuntimeDirectory.
    static let defaultSocket = "/run/motionlog/control.sock"

    /// Sends one request and waits for the reply (a stop may take a few seconds: the files
    /// are flushed and closed before the daemon answers).
    static func send(_ request: ControlRequest, socket path: String, timeoutSeconds: Int = 60) throws(CommandFailure) -> ControlReply {
        let fd: Int32
        do { fd = try UnixSocket.connect(path) } catch { throw CommandFailure(explain(error, path: path), code: 1) }
        defer { UnixSocket.close(fd) }
        UnixSocket.setTimeouts(fd, seconds: timeoutSeconds)
        return try exchange(request, on: fd, path: path, timeoutSeconds: timeoutSeconds)
    }

    /// Writes the request and reads the reply on a connected socket. A daemon that is busy
    /// may answer and close before reading the request: its answer is read even when
    /// writing the request failed.
    static func exchange(_ request: ControlRequest, on fd: Int32, path: String, timeoutSeconds: Int) throws(CommandFailure) -> ControlReply {
        var writeFailed: SocketError?
        do { try UnixSocket.writeAll(fd, ControlProtocol.encode(request), path: path) } catch { writeFailed = error }
        let line: [UInt8]?
        do { line = try UnixSocket.readLine(fd, limit: ControlProtocol.maxLineBytes, path: path) } catch {
            if error.errno == .resourceTemporarilyUnavailable || error.errno == .wouldBlock {
                throw CommandFailure("the daemon did not answer within \(timeoutSeconds) s: daemon busy, try again (`motionlog status` shows what it is doing)", code: 1)
            }
            if writeFailed != nil || error.errno == .connectionReset {
                throw CommandFailure("daemon busy, try again (it closed the connection before reading the request)", code: 1)
            }
            throw CommandFailure("\(error)", code: 1)
        }
        guard let line else {
            if writeFailed != nil { throw CommandFailure("daemon busy, try again (it closed the connection before reading the request)", code: 1) }
            throw CommandFailure("the daemon closed the connection without answering (\(path))", code: 1)
        }
        do { return try ControlProtocol.decode(ControlReply.self, from: line) } catch {
            throw CommandFailure("the daemon's answer is not a control reply (\(error)); is the daemon the same version as this command?", code: 1)
        }
    }

    /// A message that says what is wrong and what to do.
    static func explain(_ error: SocketError, path: String) -> String {
        switch error.errno {
        case .noSuchFileOrDirectory?:
            return "no motionlog daemon is running: there is no control socket at \(path) (start one with `sudo systemctl start motionlog` or `motionlog daemon`, or pass --socket PATH)"
        case .connectionRefused?:
            if let st = try? FileSystem.status(path), st.kind != .socket {
                return "\(path) is not a socket but a \(st.kind == .directory ? "folder" : "file"): pass the daemon's control socket with --socket (default \(defaultSocket))"
            }
            return "no motionlog daemon is running: \(path) is a stale socket that nobody listens on (start the daemon; it replaces the stale file)"
        case .permissionDenied?, .notPermitted?:
            return "permission denied on \(path): " + permissionHint(path)
        case .notDirectory?:
            return "\(path) is not a usable socket path (a parent is not a folder)"
        case nil:
            return "\(error)"
        default:
            return "cannot reach the daemon at \(path): \(error.errno.map { "\($0)" } ?? "")"
        }
    }

    /// Names the group that grants access (the socket's, or its folder's when that is what
    /// blocks); a socket of group root (a daemon started by hand as root) has no group to join.
    static func permissionHint(_ path: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        let gid: UInt32?
        if let info = UnixSocket.fileInfo(path) {
            gid = info.group
        } else if let info = UnixSocket.fileInfo(folder) {
            gid = info.group
        } else {
            gid = nil
        }
        guard let gid else { return "ask the administrator for access to the motionlog daemon, or use sudo" }
        if gid == 0 {
            return "the socket belongs to group root (a daemon started by hand as root?): use sudo, or run the daemon "
                + "as the service (group motionlog) or with --socket-group GROUP"
        }
        let group = UnixSocket.groupName(gid)
        return "the daemon accepts members of group \(group): run `sudo usermod -aG \(group) $USER` and log in again (or use sudo)"
    }
}
