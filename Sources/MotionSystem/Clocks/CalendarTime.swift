#if canImport(Glibc)
import Glibc
#endif

/// Calendar time through the C library's time zone rules (`TZ`, /etc/localtime):
/// `strftime` of a moment, and `mktime` of a local date and time.
public enum CalendarTime {
    /// The whole second of a moment, or nil for one no calendar shows: not finite, or
    /// beyond ±1e15 s (31 million years; a damaged file's time, on which `Int64(_:)` would
    /// trap). Every Double time goes through here before the calendar functions below.
    public static func wholeSeconds(_ epoch: Double) -> Int64? {
        epoch.isFinite && abs(epoch) < 1e15 ? Int64(epoch.rounded(.down)) : nil
    }

    /// The whole second `epochSeconds` formatted with a `strftime(3)` pattern, in local
    /// time or UTC.
    public static func format(epochSeconds: Int64, pattern: String, utc: Bool) -> String {
        var t = time_t(epochSeconds)
        var parts = tm()
        if utc { gmtime_r(&t, &parts) } else { localtime_r(&t, &parts) }
        var buffer = [CChar](repeating: 0, count: 64)
        let n = strftime(&buffer, buffer.count, pattern, &parts)
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A moment's calendar fields.
    public struct Parts: Sendable, Equatable {
        public var year: Int
        /// 1...12
        public var month: Int
        public var day: Int
        public var hour: Int
        public var minute: Int
        public var second: Int
        /// 0 = Sunday ... 6 = Saturday.
        public var weekday: Int
    }

    /// The calendar fields of the whole second `epochSeconds`, in local time or UTC.
    public static func parts(epochSeconds: Int64, utc: Bool) -> Parts {
        var t = time_t(epochSeconds)
        var p = tm()
        if utc { gmtime_r(&t, &p) } else { localtime_r(&t, &p) }
        return Parts(year: Int(p.tm_year) + 1900, month: Int(p.tm_mon) + 1, day: Int(p.tm_mday),
                     hour: Int(p.tm_hour), minute: Int(p.tm_min), second: Int(p.tm_sec), weekday: Int(p.tm_wday))
    }

    /// Seconds local time is ahead of UTC at `epochSeconds` (3600 in Berlin in winter,
    /// 19800 in India, negative west of Greenwich).
    public static func utcOffset(epochSeconds: Int64) -> Int {
        var t = time_t(epochSeconds)
        var p = tm()
        localtime_r(&t, &p)
        return Int(p.tm_gmtoff)
    }

    /// Epoch seconds of a local date and time (`mktime(3)`, daylight saving time decided by
    /// the rules); nil when the C library cannot represent it.
    public static func localEpoch(year: Int32, month: Int32, day: Int32,
                                  hour: Int32, minute: Int32, second: Int32) -> Int64? {
        var parts = tm()
        parts.tm_year = year - 1900
        parts.tm_mon = month - 1
        parts.tm_mday = day
        parts.tm_hour = hour
        parts.tm_min = minute
        parts.tm_sec = second
        parts.tm_isdst = -1
        let t = mktime(&parts)
        return t == -1 ? nil : Int64(t)
    }
}
