/// Decimal text to Double, fast and exact: the correctly rounded Double, the same as
/// `Double(String)` gives (FastNumberTests compares the two on 400 000 inputs).
///
/// Grammar (what the format writes — `-12.5`, `1e-05`, `-0.0`, `nan` — and anything of the
/// same shape): an optional `+` or `-`, then `nan`, `inf`, or digits with at most one `.`
/// (at least one digit in all) and an optional exponent (`e` or `E`, an optional sign,
/// at least one digit). `-nan` reads as NaN.
///
/// Digits are read eight at a time (SWAR) into a 64-bit significand; `DecimalToDouble`
/// turns it and the power of ten into the Double. A significand of more than 19 digits
/// (never written by the format) takes the standard library's parser instead.
public enum FastNumber {
    /// The number filling `[start, end)` exactly, or nil.
    public static func parse(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Double? {
        let count = end - start
        guard count > 0 else { return nil }
        // parseField needs a terminator and 8 readable bytes after it: copy with padding.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count + 9) { copy -> Double? in
            guard let base = copy.baseAddress else { return nil }
            base.initialize(from: p + start, count: count)
            (base + count).initialize(repeating: 0, count: 9)
            guard let (v, stop) = parseField(UnsafePointer(base), 0, tables: .shared), stop == count else { return nil }
            return v
        }
    }

    /// Parses the number starting at `start`, up to the first byte that cannot continue it
    /// (a comma, an LF, ...), in one pass; returns the value and where it stopped, or nil
    /// when no number starts there.
    ///
    /// The text must be followed, within readable memory, by a byte that cannot continue a
    /// number, and 8 more bytes must be readable from that byte on (digits are loaded eight
    /// at a time). With `convert` false the text is only checked, and the value is NaN; with
    /// `exact` false it is within one unit in the last place (`DecimalToDouble.value`).
    @inlinable @inline(__always)
    public static func parseField(_ p: UnsafePointer<UInt8>, _ start: Int, tables: DecimalTables,
                                  convert: Bool = true, exact: Bool = true) -> (Double, Int)? {
        var i = start
        var negative = false
        if p[i] == 0x2D { negative = true; i += 1 } else if p[i] == 0x2B { i += 1 }
        if p[i] == 0x6E {   // nan
            return p[i + 1] == 0x61 && p[i + 2] == 0x6E ? (.nan, i + 3) : nil
        }
        if p[i] == 0x69 {   // inf
            guard p[i + 1] == 0x6E, p[i + 2] == 0x66 else { return nil }
            return (negative ? -.infinity : .infinity, i + 3)
        }
        let digitsStart = i
        var w: UInt64 = 0   // wraps past 19 digits; then the slow path re-reads the text
        readDigits(p, &i, &w)
        var digits = i - digitsStart
        var exponent = 0
        if p[i] == 0x2E {
            i += 1
            let fractionStart = i
            readDigits(p, &i, &w)
            digits += i - fractionStart
            exponent = fractionStart - i
        }
        guard digits > 0 else { return nil }
        if p[i] | 0x20 == 0x65 {   // e or E
            i += 1
            var exponentNegative = false
            if p[i] == 0x2D || p[i] == 0x2B { exponentNegative = p[i] == 0x2D; i += 1 }
            var e = 0
            let exponentStart = i
            while true {
                let d = p[i] &- 0x30
                if d > 9 { break }
                if e < 100_000 { e = e * 10 + Int(d) }   // beyond this, 0 or infinity anyway
                i += 1
            }
            guard i > exponentStart else { return nil }
            exponent += exponentNegative ? -e : e
        }
        guard convert else { return (.nan, i) }
        if digits > 19 && significantDigits(p, digitsStart, digits) > 19 {
            return (slowValue(p, digitsStart, i, exponent: exponent, negative: negative), i)
        }
        return (DecimalToDouble.value(w, exponent, negative: negative, tables: tables, exact: exact), i)
    }

    /// Appends the decimal digits at `i` to `w` (wrapping), eight at a time while it can.
    @inlinable @inline(__always)
    static func readDigits(_ p: UnsafePointer<UInt8>, _ i: inout Int, _ w: inout UInt64) {
        while true {
            let word = UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self).littleEndian
            guard isEightDigits(word) else { break }
            w = w &* 100_000_000 &+ eightDigitsValue(word)
            i += 8
        }
        while true {
            let d = p[i] &- 0x30
            if d > 9 { break }
            w = w &* 10 &+ UInt64(d)
            i += 1
        }
    }

    /// Whether all eight bytes (little-endian word) are ASCII digits.
    @inlinable @inline(__always)
    static func isEightDigits(_ word: UInt64) -> Bool {
        let highNibbles: UInt64 = 0xF0F0_F0F0_F0F0_F0F0
        return (word & highNibbles) | (((word &+ 0x0606_0606_0606_0606) & highNibbles) >> 4) == 0x3333_3333_3333_3333
    }

    /// The value of eight ASCII digits (little-endian word, first digit in the low byte),
    /// by pairing digits, then pairs, then quadruples with three multiplications.
    @inlinable @inline(__always)
    static func eightDigitsValue(_ word: UInt64) -> UInt64 {
        var v = word &- 0x3030_3030_3030_3030
        v = (v &* 10) &+ (v >> 8)   // two-digit values in bytes 0, 2, 4, 6
        let mask: UInt64 = 0x0000_00FF_0000_00FF
        let pairsLow: UInt64 = 100 + (1_000_000 << 32)
        let pairsHigh: UInt64 = 1 + (10_000 << 32)
        return (((v & mask) &* pairsLow) &+ (((v >> 16) & mask) &* pairsHigh)) >> 32
    }

    /// The digits among the first `digits` digits at `start` that follow the leading zeros.
    @usableFromInline
    static func significantDigits(_ p: UnsafePointer<UInt8>, _ start: Int, _ digits: Int) -> Int {
        var i = start, zeros = 0
        while p[i] == 0x30 || p[i] == 0x2E {
            if p[i] == 0x30 { zeros += 1 }
            i += 1
        }
        return digits - zeros
    }

    /// More than 19 significant digits: the standard library's exact parser, on the
    /// digits and the exponent rewritten as `DDDD…eN`.
    @usableFromInline
    static func slowValue(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int, exponent: Int, negative: Bool) -> Double {
        var text = negative ? "-" : ""
        var i = start
        while i < end {
            let c = p[i]
            if c == 0x65 || c == 0x45 { break }
            if c != 0x2E { text.unicodeScalars.append(Unicode.Scalar(c)) }
            i += 1
        }
        text += "e\(exponent)"
        return Double(text) ?? .nan
    }
}
