import Logging
import MotionConfig
import MotionCore
import MotionWeb

/// Starts the daemon's web page when `--web HOST:PORT` or the config's `web.listen` asks
/// for it, with `--max-connections` or the config's `web.max_connections`. The server
/// runs on its own threads and reaches the daemon only through the control protocol
/// (`DaemonLiveControl`), never the recording's locks.
enum DaemonWeb {
    static func start(option: String?, connections: WebConnectionOptions, settings: RecorderSettings, folder: String, daemon: Daemon,
                      log: Logger) throws(CommandFailure) -> RunningWebServer? {
        let address: ListenAddress
        if let option { address = try WebSetup.listen(option) } else if let configured = settings.web?.listen {
            address = configured
        } else { return nil }
        var configuration = WebConfiguration(folder: folder, listen: address, passwordHash: settings.web?.passwordHash,
                                             live: DaemonLiveControl(daemon: daemon))
        if let n = connections.limit(settings) { configuration.maxConnections = n }
        let server = try WebSetup.start(configuration, option: "--web", log: log)
        log.notice("web page at \(WebSetup.pageURL(address, port: server.port))")
        return server
    }
}
