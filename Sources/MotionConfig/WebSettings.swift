import MotionCore

/// The config file's `web:` section: the daemon's web page (`motionlog daemon` serves it
/// when `listen` is set; `motionlog serve` uses the password).
///
///     web:
///       listen: 127.0.0.1:8080        # HOST:PORT; any address but loopback needs a password
///       password_hash: "$2b$10$..."   # written by `motionlog web-password`
public struct WebSettings: Sendable, Equatable {
    public var listen: ListenAddress?
    public var passwordHash: String?

    public init() {}

    static func parse(_ d: YAMLDocument) throws(ConfigError) -> WebSettings {
        var s = WebSettings()
        s.listen = try d.parsed("listen", expected: ListenAddress.expected) { text in
            ListenAddress.parse(text).flatMap { $0.port > 0 ? $0 : nil }
        }
        s.passwordHash = try d.parsed("password_hash", expected: "a bcrypt hash written by `motionlog web-password`") {
            $0.utf8.count == 60 && $0.hasPrefix("$2") ? $0 : nil
        }
        try d.rejectUnknownKeys()
        return s
    }
}
