import MotionSystem

/// Wall-clock times as text: file names (local time, `yyyyMMddHHmmss`) and ISO 8601.
public enum TimeText {
    /// `yyyyMMddHHmmss` in local time: MotionCollector's file naming.
    public static func fileBase(epochSeconds: Double) -> String {
        format(epochSeconds, "%Y%m%d%H%M%S", utc: false)
    }

    /// ISO 8601 (RFC 3339) local time with its UTC offset, e.g. `2026-11-21T14:30:05+01:00`,
    /// or `2026-11-21T13:30:05Z` where local time is UTC.
    public static func isoLocal(epochSeconds: Double) -> String {
        let text = format(epochSeconds, "%Y-%m-%dT%H:%M:%S%z", utc: false)
        guard text.count > 5, let sign = text.dropLast(4).last, sign == "+" || sign == "-" else { return text }
        let offset = text.suffix(4)
        if offset == "0000" { return text.dropLast(5) + "Z" }
        return text.dropLast(2) + ":" + offset.suffix(2)
    }

    /// ISO 8601 UTC with milliseconds, e.g. `2026-11-21T13:30:05.120Z`.
    public static func isoUTC(epochSeconds: Double) -> String {
        let whole = epochSeconds.rounded(.down)
        var ms = Int(((epochSeconds - whole) * 1000).rounded())
        var base = whole
        if ms == 1000 { ms = 0; base += 1 }
        let msText = ms < 10 ? "00\(ms)" : (ms < 100 ? "0\(ms)" : "\(ms)")
        return format(base, "%Y-%m-%dT%H:%M:%S", utc: true) + ".\(msText)Z"
    }

    static func format(_ epochSeconds: Double, _ pattern: String, utc: Bool) -> String {
        guard epochSeconds.isFinite, abs(epochSeconds) < 1e15 else { return "invalid-time" }
        return CalendarTime.format(epochSeconds: Int64(epochSeconds.rounded(.down)), pattern: pattern, utc: utc)
    }
}
