import Foundation
import Logging
import MotionCore
import MotionSystem
import MotionWeb

/// The daemon answering the web page in-process, through the control protocol: the page
/// sees exactly what `motionlog status` sees and its buttons do what `start|stop|label` do.
struct DaemonLiveControl: LiveControl {
    let daemon: Daemon

    func exchange(_ request: [UInt8]) throws -> [UInt8] {
        let line = request.last == 0x0A ? Array(request.dropLast()) : request
        let decoded = try ControlProtocol.decode(ControlRequest.self, from: line)
        return ControlProtocol.encode(daemon.answer(decoded))
    }
}

/// A daemon reached through its control socket (`motionlog serve --socket PATH`).
struct SocketLiveControl: LiveControl {
    let socket: String

    func exchange(_ request: [UInt8]) throws -> [UInt8] {
        let line = request.last == 0x0A ? Array(request.dropLast()) : request
        let decoded = try ControlProtocol.decode(ControlRequest.self, from: line)
        return ControlProtocol.encode(try ControlClient.send(decoded, socket: socket, timeoutSeconds: 30))
    }
}

/// Resolves where the web page listens and its password from options and the config file.
enum WebSetup {
    static func listen(_ text: String) throws(CommandFailure) -> ListenAddress {
        do { return try ListenAddress.parsing(text) } catch { throw .usage("listen address \(error)") }
    }

    /// Where a browser finds the page: the address it listens on, or for a wildcard address
    /// (`0.0.0.0`, `::`) the machine's name on the local network (`NAME.local`, as
    /// Raspberry Pi OS announces it) and its IPv4 addresses. e.g. "http://pi.local:8080/
    /// (or http://192.168.1.23:8080/)".
    static func pageURL(_ address: ListenAddress, port: Int, hostName: String? = FileSystem.hostName(),
                        addresses: [String] = NetworkAddresses.ipv4()) -> String {
        guard address.host == "0.0.0.0" || address.host == "::" else {
            return "http://\(ListenAddress(host: address.host, port: port))/"
        }
        let name = hostName.flatMap { $0.split(separator: ".").first }.map { "\($0).local" }
        let urls = ((name.map { [$0] } ?? []) + addresses).map { "http://\(ListenAddress(host: $0, port: port))/" }
        guard let first = urls.first else { return "http://THIS-MACHINE:\(port)/ (this machine's address)" }
        return urls.count == 1 ? first : "\(first) (or \(urls.dropFirst().joined(separator: ", ")))"
    }

    /// Builds and starts the server; prints where it is. `option` is the command's option
    /// for the address (`--listen`, `--web`), named in what to do when it cannot listen.
    static func start(_ configuration: WebConfiguration, option: String, log: Logger) throws(CommandFailure) -> RunningWebServer {
        let server: WebServer
        do { server = try WebServer(configuration: configuration, log: log) } catch { throw CommandFailure("\(error)", code: 2) }
        do { return try server.start() } catch {
            if case .cannotListen(_, _, let portInUse) = error {
                let todo = portInUse ? "stop the other server or choose another port" : "choose another address"
                throw CommandFailure("\(error) — \(todo) with \(option) HOST:PORT", code: 2)
            }
            throw CommandFailure("\(error)", code: 2)
        }
    }
}
