/// The config file's `web:` section: the daemon's web page (`motionlog daemon` serves it
/// when `listen` is set; `motionlog serve` uses the password).
///
///     web:
///       listen: 127.0.0.1:8080        # HOST:PORT; any address but loopback needs a password
///       password_hash: "$2b$10$..."   # written by `motionlog web-password`
public struct WebSettings: Sendable, Equatable {
    public var listen: String?
    public var passwordHash: String?

    public init() {}

    static func parse(_ d: YAMLDocument) throws(ConfigError) -> WebSettings {
        var s = WebSettings()
        s.listen = try d.parsed("listen", expected: "HOST:PORT such as 127.0.0.1:8080 or 0.0.0.0:8080") {
            isListenAddress($0) ? $0 : nil
        }
        s.passwordHash = try d.parsed("password_hash", expected: "a bcrypt hash written by `motionlog web-password`") {
            $0.utf8.count == 60 && $0.hasPrefix("$2") ? $0 : nil
        }
        try d.rejectUnknownKeys()
        return s
    }

    /// `HOST:PORT` or `[V6]:PORT` with a port from 1 to 65535.
    public static func isListenAddress(_ text: String) -> Bool {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
              (1...65535).contains(port) else { return false }
        let host = text[..<colon]
        return !host.isEmpty && !host.contains(" ")
    }
}
