/// The config file's `offload:` section: copying recordings to a USB stick or a remote.
///
///     offload:
///       label: MOTIONLOG             # sticks with this file-system label; any: every USB stick
///       delete_after_copy: false     # remove from the card after the copy was read back and matched
///       remote: "nas:motionlog"      # an rclone remote and path (rclone config: see rclone_config)
///       rclone_config: /etc/motionlog/rclone.conf
///       bandwidth: 1M                # rclone --bwlimit for uploads
///       attempts: 4                  # tries per recording before waiting for the next run
public struct OffloadSettings: Sendable, Equatable {
    /// Which sticks are offload sticks.
    public enum StickMatch: Sendable, Equatable {
        case label(String)
        case any
    }
    public var stick: StickMatch?
    public var deleteAfterCopy: Bool?
    public var remote: String?
    public var rcloneConfig: String?
    public var bandwidth: String?
    public var attempts: Int?

    public init() {}

    /// The label a stick needs when the config names none.
    public static let defaultLabel = "MOTIONLOG"

    /// `NAME:path` with a plain remote name (letters, digits, `_`, `-`, `.`, space).
    public static func isValidRemote(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else { return false }
        return text[..<colon].allSatisfy { $0.isLetter || $0.isNumber || "_-. ".contains($0) }
    }

    static func parse(_ d: YAMLDocument) throws(ConfigError) -> OffloadSettings {
        var s = OffloadSettings()
        s.stick = try d.parsed("label", expected: "a file-system label such as MOTIONLOG, or any") { text -> StickMatch? in
            if text == "any" { return .any }
            return text.isEmpty || text.utf8.count > 16 ? nil : .label(text)
        }
        s.deleteAfterCopy = try d.bool("delete_after_copy")
        s.remote = try d.parsed("remote", expected: "an rclone remote and path such as nas:motionlog") {
            isValidRemote($0) ? $0 : nil
        }
        s.rcloneConfig = try d.parsed("rclone_config", expected: "an absolute path to an rclone config file") {
            $0.hasPrefix("/") ? $0 : nil
        }
        s.bandwidth = try d.parsed("bandwidth", expected: "an rclone bandwidth limit such as 1M or 512k") { text -> String? in
            !text.isEmpty && text.allSatisfy({ $0.isLetter || $0.isNumber || ".:, ".contains($0) }) ? text : nil
        }
        s.attempts = try d.int("attempts", in: 1...20)
        try d.rejectUnknownKeys()
        return s
    }
}
