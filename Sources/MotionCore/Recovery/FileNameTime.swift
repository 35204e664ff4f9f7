#if canImport(Glibc)
import Glibc
#endif

/// Reads back the local time a file name encodes (`yyyyMMddHHmmss`, see `TimeText.fileBase`).
enum FileNameTime {
    /// Epoch seconds of `yyyyMMddHHmmss` in local time; nil when it is not such a name.
    static func epoch(fileBase: String) -> Double? {
        let digits = Array(fileBase.utf8)
        guard digits.count == 14, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        func number(_ from: Int, _ count: Int) -> Int32 {
            digits[from..<(from + count)].reduce(0) { $0 * 10 + Int32($1 - 0x30) }
        }
        var parts = tm()
        parts.tm_year = number(0, 4) - 1900
        parts.tm_mon = number(4, 2) - 1
        parts.tm_mday = number(6, 2)
        parts.tm_hour = number(8, 2)
        parts.tm_min = number(10, 2)
        parts.tm_sec = number(12, 2)
        parts.tm_isdst = -1
        let t = mktime(&parts)
        return t == -1 ? nil : Double(t)
    }
}
