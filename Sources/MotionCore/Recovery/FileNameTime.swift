import MotionSystem

/// Reads back the local time a file name encodes (`yyyyMMddHHmmss`, see `TimeText.fileBase`).
enum FileNameTime {
    /// Epoch seconds of `yyyyMMddHHmmss` in local time; nil when it is not such a name.
    static func epoch(fileBase: String) -> Double? {
        let digits = Array(fileBase.utf8)
        guard digits.count == 14, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        func number(_ from: Int, _ count: Int) -> Int32 {
            digits[from..<(from + count)].reduce(0) { $0 * 10 + Int32($1 - 0x30) }
        }
        return CalendarTime.localEpoch(year: number(0, 4), month: number(4, 2), day: number(6, 2),
                                       hour: number(8, 2), minute: number(10, 2), second: number(12, 2)).map(Double.init)
    }
}
