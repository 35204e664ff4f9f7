import ArgumentParser
import MotionConfig

/// `--max-connections N`: the web page's cap on open connections, for `serve` and for the
/// daemon's `--web` page; over the config's `web.max_connections`, refused outside 1–4096
/// as the config key is.
struct WebConnectionOptions: ParsableArguments {
    @Option(name: .customLong("max-connections"), help: ArgumentHelp(
        "Web connections open at once, 1–4096; one more gets 503 (default: the config's web.max_connections, else 64).",
        valueName: "N"))
    var maxConnections: Int?

    func validate() throws {
        if let n = maxConnections, !WebSettings.maxConnectionsRange.contains(n) {
            let r = WebSettings.maxConnectionsRange
            throw ValidationError("--max-connections \(n): give a number of connections from \(r.lowerBound) to \(r.upperBound), e.g. 64")
        }
    }

    /// The cap on open connections: `--max-connections`, else the config's, else nil (the server's default).
    func limit(_ settings: RecorderSettings) -> Int? {
        maxConnections ?? settings.web?.maxConnections
    }
}
