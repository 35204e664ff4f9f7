/// A problem in a board or config file, located by file, line and key.
public struct ConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    /// Dotted key path, e.g. `imu.bus`.
    public var key: String?
    public var message: String

    public init(file: String, line: Int?, key: String?, message: String) {
        self.file = file; self.line = line; self.key = key; self.message = message
    }

    public var description: String {
        var s = file
        if let line { s += ":\(line)" }
        if let key { s += ": \(key)" }
        return s + ": " + message
    }
}
