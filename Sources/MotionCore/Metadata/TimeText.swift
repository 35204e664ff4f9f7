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
        // To the nearest millisecond, then the second it is in: 14:00:00 less 0.2 µs (a sum
        // of a relative When and its start) read 13:59:59.
        let text = format((epochSeconds * 1000).rounded() / 1000, "%Y-%m-%dT%H:%M:%S%z", utc: false)
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

    /// Unix seconds of an ISO 8601 (RFC 3339) date and time as GPX and most track formats
    /// write it: `2026-11-21T13:30:05Z`, with a fraction (`…05.120Z`), an offset
    /// (`…05+01:00`, `+0100`) or no zone (read as UTC, as GPX specifies). The fraction is
    /// added to the whole seconds as written (`.781` stays `.781`). Nil for anything else.
    public static func epochSeconds(iso8601 text: String) -> Double? {
        let b = Array(text.utf8)
        func digits(_ at: Int, _ n: Int) -> Int? {
            guard at + n <= b.count else { return nil }
            var v = 0
            for k in at..<(at + n) {
                guard b[k] >= 0x30 && b[k] <= 0x39 else { return nil }
                v = v * 10 + Int(b[k] - 0x30)
            }
            return v
        }
        guard b.count >= 19, b[4] == 0x2D, b[7] == 0x2D, b[10] == 0x54 || b[10] == 0x74 || b[10] == 0x20,
              b[13] == 0x3A, b[16] == 0x3A,
              let year = digits(0, 4), let month = digits(5, 2), let day = digits(8, 2),
              let hour = digits(11, 2), let minute = digits(14, 2), let second = digits(17, 2),
              (1...12).contains(month), (1...31).contains(day), hour <= 23, minute <= 59, second <= 60 else { return nil }
        var i = 19
        var fraction = 0.0
        if i < b.count && (b[i] == 0x2E || b[i] == 0x2C) {
            let start = i + 1
            i = start
            while i < b.count && b[i] >= 0x30 && b[i] <= 0x39 { i += 1 }
            guard i > start, let f = Double("0." + String(decoding: b[start..<i], as: UTF8.self)) else { return nil }
            fraction = f
        }
        var offset = 0
        if i < b.count {
            if b[i] == 0x5A || b[i] == 0x7A {
                i += 1
            } else if b[i] == 0x2B || b[i] == 0x2D {
                let sign = b[i] == 0x2D ? -1 : 1
                guard let h = digits(i + 1, 2), h <= 23 else { return nil }
                let colon = i + 3 < b.count && b[i + 3] == 0x3A
                guard let m = digits(i + (colon ? 4 : 3), 2), m <= 59 else { return nil }
                offset = sign * (h * 3600 + m * 60)
                i += colon ? 6 : 5
            } else {
                return nil
            }
        }
        guard i == b.count else { return nil }
        let whole = daysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second - offset
        return Double(whole) + fraction
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
    public static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    static func format(_ epochSeconds: Double, _ pattern: String, utc: Bool) -> String {
        guard let seconds = CalendarTime.wholeSeconds(epochSeconds) else { return "invalid-time" }
        return CalendarTime.format(epochSeconds: seconds, pattern: pattern, utc: utc)
    }
}
