#if canImport(Glibc)
import Glibc
#endif

/// Wall-clock times as text: file names (local time, `yyyyMMddHHmmss`) and ISO 8601.
public enum TimeText {
    /// `yyyyMMddHHmmss` in local time: MotionCollector's file naming.
    public static func fileBase(epochSeconds: Double) -> String {
        format(epochSeconds, "%Y%m%d%H%M%S", utc: false)
    }

    /// ISO 8601 local time with UTC offset, e.g. `2026-11-21T14:30:05+0100`.
    public static func isoLocal(epochSeconds: Double) -> String {
        format(epochSeconds, "%Y-%m-%dT%H:%M:%S%z", utc: false)
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
        var t = time_t(epochSeconds.rounded(.down))
        var parts = tm()
        if utc { gmtime_r(&t, &parts) } else { localtime_r(&t, &parts) }
        var buffer = [CChar](repeating: 0, count: 64)
        let n = strftime(&buffer, buffer.count, pattern, &parts)
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
