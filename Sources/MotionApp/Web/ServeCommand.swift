import ArgumentParser
import Foundation
import Logging
import MotionConfig
import MotionCore
import MotionSystem
import MotionWeb

/// `motionlog serve --out DIR [--listen HOST:PORT] [--max-connections N]`: the web page for a folder of
/// recordings anywhere (a laptop with copied files, a Pi without the daemon).
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve a folder of recordings as a web page: list, summary, download, ZIP, delete.",
        discussion: """
            Listens on 127.0.0.1:8080 unless told otherwise. Any address but loopback needs a \
            password (`motionlog web-password`); the page then asks for it. With --socket the page \
            also shows a running daemon's live status and its start/stop/label buttons. \
            Ctrl-C stops. See docs/WEB.md.
            """)

    @Option(name: .long, help: "Folder of recordings (default: the config's out, else ./recordings).")
    var out: String?

    @Option(name: .long, help: "HOST:PORT to listen on (default: the config's web.listen, else 127.0.0.1:8080).")
    var listen: String?

    @Option(name: .long, help: "A daemon's control socket, for the live card and start/stop/label.")
    var socket: String?

    @Option(name: .long, help: "Config file (default /etc/motionlog/config.yaml if present).")
    var config: String?

    @OptionGroup var connections: WebConnectionOptions

    func run() throws {
        let settings: RecorderSettings
        do { settings = try ConfigLoader.load(explicit: config) } catch { throw CommandFailure.usage("\(error)") }
        let folder = out ?? settings.out ?? "./recordings"
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDir) else {
            throw CommandFailure("\(folder) does not exist: give the folder the recordings are in with --out DIR (where `record --out` wrote them)", code: 2)
        }
        guard isDir.boolValue else {
            throw CommandFailure("\(folder) is a file, not a folder: give the folder the recordings are in with --out DIR", code: 2)
        }
        guard FileSystem.canReadFolder(folder) else {
            throw CommandFailure("cannot read \(folder): permission denied (run as a user who may read it)", code: 2)
        }
        var address = settings.web?.listen ?? ListenAddress(host: "127.0.0.1", port: ListenAddress.defaultPort)
        if let listen { address = try WebSetup.listen(listen) }
        let exitRequested = WakeSignal()
        SignalWatcher.onStop { _ in exitRequested.signal() }
        let log = Logging.motionlogLogger()
        var c = WebConfiguration(folder: folder, listen: address, passwordHash: settings.web?.passwordHash,
                                 live: socket.map { SocketLiveControl(socket: $0) })
        c.maxDownloads = 8
        if let n = connections.limit(settings) { c.maxConnections = n }
        let server = try WebSetup.start(c, option: "--listen", log: log)
        Console.out("Serving \(folder) at \(WebSetup.pageURL(address, port: server.port)) — Ctrl-C stops")
        Console.flush()
        exitRequested.wait()
        server.stop()
    }
}
