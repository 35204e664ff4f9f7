import MotionCore

/// The config file's `web:` section: the daemon's web page (`motionlog daemon` serves it
/// when `listen` is set; `motionlog serve` uses the password).
///
///     web:
///       listen: 127.0.0.1:8080        # HOST:PORT; any address but loopback needs a password
///       password_hash: "$2b$10$..."   # written by `motionlog web-password`
///       max_connections: 64           # open at once; one more gets 503 (`serve --max-connections` overrides)
public struct WebSettings: Sendable, Equatable {
    public var listen: ListenAddress?
    public var passwordHash: String?
    public var maxConnections: Int?

    /// Valid `max_connections` (and `motionlog serve --max-connections`).
    public static let maxConnectionsRange = 1...4096

    public init() {}

    static func parse(_ d: YAMLDocument) throws(ConfigError) -> WebSettings {
        var s = WebSettings()
        s.listen = try d.parsed("listen", ListenAddress.parsing)
        s.passwordHash = try d.parsed("password_hash", expected: "a bcrypt hash written by `motionlog web-password`") {
            $0.utf8.count == 60 && $0.hasPrefix("$2") ? $0 : nil
        }
        s.maxConnections = try d.int("max_connections", in: maxConnectionsRange)
        try d.rejectUnknownKeys()
        return s
    }
}
