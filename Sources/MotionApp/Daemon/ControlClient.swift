import Foundation
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// Talks to a running daemon over its control socket (`motionlog start|stop|status|label`).
enum ControlClient {
    /// The default socket, created by the systemd unit's RuntimeDirectory.
    static let defaultSocket = "/run/motionlog/control.sock"

    /// Sends one request and waits for the reply (a stop may take a few seconds: the files
    /// are flushed and closed before the daemon answers).
    static func send(_ request: ControlRequest, socket path: String, timeoutSeconds: Int = 60) throws(CommandFailure) -> ControlReply {
        let fd: Int32
        do { fd = try UnixSocket.connect(path) } catch { throw CommandFailure(explain(error, path: path), code: 1) }
        defer { close(fd) }
        UnixSocket.setTimeouts(fd, seconds: timeoutSeconds)
        do {
            try UnixSocket.writeAll(fd, ControlProtocol.encode(request), path: path)
            guard let line = try UnixSocket.readLine(fd, limit: ControlProtocol.maxLineBytes, path: path) else {
                throw CommandFailure("the daemon closed the connection without answering (\(path))", code: 1)
            }
            do { return try ControlProtocol.decode(ControlReply.self, from: line) } catch {
                throw CommandFailure("the daemon's answer is not a control reply (\(error)); is the daemon the same version as this command?", code: 1)
            }
        } catch let e as CommandFailure {
            throw e
        } catch {
            throw CommandFailure("\(error)", code: 1)
        }
    }

    /// A message that says what is wrong and what to do.
    static func explain(_ error: SocketError, path: String) -> String {
        switch error.errno {
        case .noSuchFileOrDirectory?:
            return "no motionlog daemon is running: there is no control socket at \(path) (start one with `sudo systemctl start motionlog` or `motionlog daemon`, or pass --socket PATH)"
        case .connectionRefused?:
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

    /// Names the group that grants access (the socket's, or its folder's when that is what blocks).
    static func permissionHint(_ path: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        let group: String?
        if let info = UnixSocket.fileInfo(path) {
            group = UnixSocket.groupName(info.group)
        } else if let info = UnixSocket.fileInfo(folder) {
            group = UnixSocket.groupName(info.group)
        } else {
            group = nil
        }
        guard let group else { return "ask the administrator for access to the motionlog daemon, or use sudo" }
        return "the daemon accepts members of group \(group): run `sudo usermod -aG \(group) $USER` and log in again (or use sudo)"
    }
}
