/// The text (up to 16 bytes) and value of the last When parsed, so the next rows of the
/// same tick — A, G, M and D rows all carry the tick's When — are recognised by comparing
/// two words instead of parsing the number again.
struct RepeatedText {
    static let maxBytes = 16
    private var low: UInt64 = 0, high: UInt64 = 0
    private var lowMask: UInt64 = 0, highMask: UInt64 = 0
    private var length = 0   // 0: nothing remembered
    private(set) var value = 0.0

    /// Where the remembered text ends if it starts at `i` and is followed by a comma; nil
    /// otherwise. Reads 16 bytes from `i`.
    @inline(__always)
    func match(_ p: UnsafePointer<UInt8>, _ i: Int) -> Int? {
        guard length > 0 else { return nil }
        let a = UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self).littleEndian
        let b = UnsafeRawPointer(p + i + 8).loadUnaligned(as: UInt64.self).littleEndian
        guard (a ^ low) & lowMask == 0, (b ^ high) & highMask == 0, p[i + length] == 0x2C else { return nil }
        return i + length
    }

    /// Remembers the number text `[start, end)` and its value (nothing if it is longer than 16 bytes).
    @inline(__always)
    mutating func remember(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int, value: Double) {
        let count = end - start
        guard count > 0, count <= Self.maxBytes else { length = 0; return }
        lowMask = count >= 8 ? .max : (1 << UInt64(8 * count)) - 1
        highMask = count <= 8 ? 0 : (count == 16 ? .max : (1 << UInt64(8 * (count - 8))) - 1)
        low = UnsafeRawPointer(p + start).loadUnaligned(as: UInt64.self).littleEndian & lowMask
        high = UnsafeRawPointer(p + start + 8).loadUnaligned(as: UInt64.self).littleEndian & highMask
        length = count
        self.value = value
    }
}
