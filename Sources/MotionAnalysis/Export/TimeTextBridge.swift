import MotionCore

/// MotionCore's time formatting, under the names the exports use.
enum TimeTextBridge {
    static func isoLocal(_ t: Double) -> String { TimeText.isoLocal(epochSeconds: t) }
    static func isoUTC(_ t: Double) -> String { TimeText.isoUTC(epochSeconds: t) }
}
