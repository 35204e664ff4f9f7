import Foundation
import MotionCore

/// The kernel's id of the current boot (`/proc/sys/kernel/random/boot_id`), used to name
/// files recorded before the time is known, so names from different boots never collide.
public enum BootID {
    /// The first 8 hex digits of the boot id, or nil when it cannot be read.
    public static func short() -> String? {
        guard let data = FileManager.default.contents(atPath: "/proc/sys/kernel/random/boot_id") else { return nil }
        let hex = String(decoding: data, as: UTF8.self).filter { $0.isHexDigit }
        return hex.count >= 8 ? String(hex.prefix(8)).lowercased() : nil
    }

    /// `unsynced-<boot id>`: the start of provisional file names (docs/GPS.md).
    public static var provisionalPrefix: String {
        short().map { "\(RecordingFiles.provisionalStem)-\($0)" } ?? RecordingFiles.provisionalStem
    }
}
