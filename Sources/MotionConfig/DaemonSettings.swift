import MotionCore

/// The config file's `daemon:` section: how `motionlog daemon` is controlled.
///
///     daemon:
///       socket: /run/motionlog/control.sock   # control socket (mode 0660)
///       socket_group: motionlog               # group that may use it
///       long_press: 3s                        # hold the button this long to stop and shut down
///       shutdown_command: systemctl poweroff  # run after a long press (none by default)
///       led_gps: true                         # while recording, blink briefly when GPS has no fix
public struct DaemonSettings: Sendable, Equatable {
    public var socket: String?
    public var socketGroup: String?
    public var longPressSeconds: Double?
    public var shutdownCommand: String?
    public var ledShowsGPS: Bool?

    public init() {}

    /// Valid long-press durations (seconds).
    public static let longPressRange = 0.5...30.0

    static func parse(_ d: YAMLDocument) throws(ConfigError) -> DaemonSettings {
        var s = DaemonSettings()
        s.socket = try d.parsed("socket", expected: "an absolute path such as /run/motionlog/control.sock") {
            $0.hasPrefix("/") && $0.utf8.count < 108 ? $0 : nil
        }
        s.socketGroup = try d.parsed("socket_group", expected: "a group name such as motionlog") {
            !$0.isEmpty && !$0.contains(" ") ? $0 : nil
        }
        s.longPressSeconds = try d.parsed("long_press", expected: "a duration from 0.5s to 30s, e.g. 3s") {
            QuantityText.seconds($0).flatMap { longPressRange.contains($0) ? $0 : nil }
        }
        s.shutdownCommand = try d.parsed("shutdown_command", expected: "a command line, e.g. systemctl poweroff") {
            $0.isEmpty ? nil : $0
        }
        s.ledShowsGPS = try d.bool("led_gps")
        try d.rejectUnknownKeys()
        return s
    }
}
