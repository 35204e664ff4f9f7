import Foundation
import MotionAnalysis
import MotionCore
import MotionSystem

/// Text for pages: HTML escaping and the way times, durations and sizes read.
enum Text {
    /// Escapes text for HTML content and attribute values (the XML escaping of exports).
    static func html(_ s: String) -> String { ExportText.xml(s) }

    /// Sentences as an HTML list, each escaped; a command quoted in backticks (the findings'
    /// "`systemctl status gpsd`") is set as code, not shown with its backticks.
    static func list(_ items: [String]) -> String {
        "<ul>" + items.map { "<li>\(withCode($0))</li>" }.joined() + "</ul>"
    }

    /// Escapes `s`, setting each pair of backticks' text as `<code>`.
    static func withCode(_ s: String) -> String {
        let parts = s.split(separator: "`", omittingEmptySubsequences: false)
        guard parts.count >= 3, parts.count % 2 == 1 else { return html(s) }
        return parts.enumerated().map { k, part in k % 2 == 1 ? "<code>\(html(String(part)))</code>" : html(String(part)) }.joined()
    }

    /// Percent-encodes a name for a URL path segment.
    static func path(_ s: String) -> String {
        s.addingPercentEncoding(withAllowedCharacters: .init(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~")) ?? s
    }

    /// `Mon 23 Nov 2026, 17:40` in the logger's local time.
    static func localTime(_ epoch: Double?) -> String {
        guard let epoch, epoch.isFinite else { return "unknown time" }
        // In the hour the clocks go back the same reading stands for two moments.
        return LocalDay.marked(strftime(epoch, "%a %d %b %Y, %H:%M"), epoch)
    }

    /// `17:40` in the logger's local time; `01:30 -04:00` in the hour the clocks go back.
    static func hourMinute(_ epoch: Double) -> String { LocalDay.hourMinute(epoch) }

    static func strftime(_ epoch: Double, _ format: String) -> String {
        guard let seconds = CalendarTime.wholeSeconds(epoch) else { return "unknown time" }
        return CalendarTime.format(epochSeconds: seconds, pattern: format, utc: false)
    }

    /// `1 h 23 min`, `4 min 12 s`, `9.5 s`: as the summary's report writes them.
    static func duration(_ seconds: Double?) -> String {
        guard let seconds, seconds.isFinite, seconds >= 0 else { return "–" }
        return MotionAnalysis.Text.duration(seconds)
    }

    /// Elapsed time on a chart axis: `0:00`, `12:30`, `1:02:00`.
    static func clock(_ seconds: Double) -> String {
        let s = seconds.isFinite ? Int(min(max(0, seconds.rounded()), 1e15)) : 0
        if s >= 3600 { return String(format: "%d:%02d:%02d", s / 3600, (s / 60) % 60, s % 60) }
        return String(format: "%d:%02d", s / 60, s % 60)
    }

    static func size(_ bytes: Int64) -> String { ByteText.describe(bytes) }

    /// `468 m`, `9.68 km`: as the summary's report writes them; nil without a distance.
    static func distance(_ metres: Double?) -> String? {
        guard let metres, metres.isFinite else { return nil }
        return MotionAnalysis.Text.distance(metres)
    }

    /// The HTTP date form (RFC 9110 §5.6.7) for `Last-Modified`.
    static func httpDate(_ epoch: Double) -> String {
        let p = CalendarTime.parts(epochSeconds: CalendarTime.wholeSeconds(epoch) ?? 0, utc: true)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return String(format: "%@, %02d %@ %04d %02d:%02d:%02d GMT", days[p.weekday], p.day,
                      months[p.month - 1], p.year, p.hour, p.minute, p.second)
    }

    /// `attachment` with an ASCII fallback name and the UTF-8 name (RFC 6266).
    static func contentDisposition(_ fileName: String) -> String {
        let ascii = String(fileName.unicodeScalars.map { $0.isASCII && $0 != "\"" && $0 != "\\" && $0.value >= 0x20 ? Character($0) : "_" })
        return "attachment; filename=\"\(ascii)\"; filename*=UTF-8''\(path(fileName))"
    }
}
