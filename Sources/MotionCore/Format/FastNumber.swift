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
        guard convert else { return skipField(p, start).map { (.nan, $0) } }
        var i = start
        // Without a branch: the sign of sensor values is random from number to number.
        let negative = p[i] == 0x2D
        i &+= negative || p[i] == 0x2B ? 1 : 0
        let digitsStart = i
        var w: UInt64 = 0   // wraps past 19 digits; then the slow path re-reads the text
        if p[i] &- 0x30 <= 9 && p[i &+ 1] == 0x2E {   // one digit before the point, as most sensor values
            w = UInt64(p[i] &- 0x30)
            i &+= 1
        } else if p[i] == 0x6E {   // nan
            return p[i + 1] == 0x61 && p[i + 2] == 0x6E ? (.nan, i + 3) : nil
        } else if p[i] == 0x69 {   // inf
            guard p[i + 1] == 0x6E, p[i + 2] == 0x66 else { return nil }
            return (negative ? -.infinity : .infinity, i + 3)
        } else {
            readDigits(p, &i, &w, tables: tables)
        }
        // Index arithmetic wraps rather than traps: every index is within the text.
        var digits = i &- digitsStart
        var exponent = 0
        if p[i] == 0x2E {
            i &+= 1
            let fractionStart = i
            readDigits(p, &i, &w, tables: tables)
            digits &+= i &- fractionStart
            exponent = fractionStart &- i
        }
        guard digits > 0 else { return nil }
        if p[i] | 0x20 == 0x65 {   // e or E
            guard let e = readExponent(p, &i) else { return nil }
            exponent += e
        }
        // Leading zeros (and the point among them) do not count toward the 19 digits the
        // significand holds: "-0.0026878234800394715" has 20 digits but 17 that count.
        if digits > 19 && digits &- zeroPrefix(p, digitsStart) > 18 && significantDigits(p, digitsStart, digits) > 19 {
            return (slowValue(p, digitsStart, i, exponent: exponent, negative: negative), i)
        }
        return (DecimalToDouble.value(w, exponent, negative: negative, tables: tables, exact: exact), i)
    }

    /// `parseField` with `convert` false: where the number starting at `start` stops, or nil
    /// when none starts there, without valuing its digits.
    @inlinable @inline(__always)
    static func skipField(_ p: UnsafePointer<UInt8>, _ start: Int) -> Int? {
        var i = start
        i &+= p[i] == 0x2D || p[i] == 0x2B ? 1 : 0
        let digitsStart = i
        if p[i] &- 0x30 <= 9 && p[i &+ 1] == 0x2E {   // one digit before the point
            i &+= 1
        } else if p[i] == 0x6E {   // nan
            return p[i + 1] == 0x61 && p[i + 2] == 0x6E ? i + 3 : nil
        } else if p[i] == 0x69 {   // inf
            return p[i + 1] == 0x6E && p[i + 2] == 0x66 ? i + 3 : nil
        } else {
            skipDigits(p, &i)
        }
        var digits = i &- digitsStart
        if p[i] == 0x2E {
            i &+= 1
            let fractionStart = i
            skipDigits(p, &i)
            digits &+= i &- fractionStart
        }
        guard digits > 0 else { return nil }
        if p[i] | 0x20 == 0x65 && readExponent(p, &i) == nil { return nil }
        return i
    }

    /// The exponent at `i`, an `e` or `E` (an optional sign, then at least one digit); nil
    /// without digits. Beyond ±100 000 it stops growing: the value is 0 or infinity anyway.
    @inlinable @inline(__always)
    static func readExponent(_ p: UnsafePointer<UInt8>, _ i: inout Int) -> Int? {
        i += 1
        let negative = p[i] == 0x2D
        if negative || p[i] == 0x2B { i += 1 }
        var e = 0
        let exponentStart = i
        while true {
            let d = p[i] &- 0x30
            if d > 9 { break }
            if e < 100_000 { e = e * 10 + Int(d) }
            i += 1
        }
        guard i > exponentStart else { return nil }
        return negative ? -e : e
    }

    /// Moves `i` past the decimal digits there, eight bytes at a time.
    @inlinable @inline(__always)
    static func skipDigits(_ p: UnsafePointer<UInt8>, _ i: inout Int) {
        while true {
            let nonDigits = nonDigitBytes(UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self).littleEndian)
            if nonDigits == 0 { i &+= 8; continue }
            i &+= nonDigits.trailingZeroBitCount &>> 3
            return
        }
    }

    /// The top bit of each byte of the little-endian `word` that is not an ASCII digit,
    /// exactly up to the first such byte (a byte ≥ 0x8A carries into the byte after it).
    @inlinable @inline(__always)
    static func nonDigitBytes(_ word: UInt64) -> UInt64 {
        let values = word ^ 0x3030_3030_3030_3030   // a digit's byte is now its value
        // Not a digit: a value ≥ 10 (+ 0x76 reaches 0x80) or ≥ 0x80.
        return ((values &+ 0x7676_7676_7676_7676) | values) & 0x8080_8080_8080_8080
    }

    /// Appends the decimal digits at `i` to `w` (wrapping), eight at a time: each 8-byte word
    /// is valued whole while it is all digits; in the first that is not, its leading digits
    /// are counted (the lowest non-digit byte) and valued in one step, with no branch per
    /// digit (the number of digits left, random from number to number, is a branch the
    /// processor cannot predict).
    @inlinable @inline(__always)
    static func readDigits(_ p: UnsafePointer<UInt8>, _ i: inout Int, _ w: inout UInt64, tables: DecimalTables) {
        while true {
            let word = UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self).littleEndian
            let digits = word ^ 0x3030_3030_3030_3030   // a digit's byte is now its value
            let nonDigits = nonDigitBytes(word)
            if nonDigits == 0 {
                w = w &* 100_000_000 &+ digitsValue(digits)
                i &+= 8
                continue
            }
            let n = nonDigits.trailingZeroBitCount &>> 3   // 0 ... 7 leading digits
            // The n digits moved to the top of the word, zeros (as values) before them.
            let last = (digits &<< UInt64(8 &* (7 &- n))) &<< 8
            w = w &* tables.integerPowersOfTen[n] &+ digitsValue(last)
            i &+= n
            return
        }
    }

    /// The value of eight ASCII digits (little-endian word, first digit in the low byte).
    @inlinable @inline(__always)
    static func eightDigitsValue(_ word: UInt64) -> UInt64 { digitsValue(word &- 0x3030_3030_3030_3030) }

    /// The value of eight digits given as byte values 0 ... 9 (first digit in the low
    /// byte), by pairing digits, then pairs, then quadruples with three multiplications.
    @inlinable @inline(__always)
    static func digitsValue(_ bytes: UInt64) -> UInt64 {
        let v = (bytes &* 10) &+ (bytes >> 8)   // two-digit values in bytes 0, 2, 4, 6
        let mask: UInt64 = 0x0000_00FF_0000_00FF
        let pairsLow: UInt64 = 100 + (1_000_000 << 32)
        let pairsHigh: UInt64 = 1 + (10_000 << 32)
        return (((v & mask) &* pairsLow) &+ (((v >> 16) & mask) &* pairsHigh)) >> 32
    }

    /// How many of the 8 bytes at `start` lead with `0` or `.` (0 ... 8), without a branch:
    /// at least that many minus one are leading zeros.
    @inlinable @inline(__always)
    static func zeroPrefix(_ p: UnsafePointer<UInt8>, _ start: Int) -> Int {
        let word = UnsafeRawPointer(p + start).loadUnaligned(as: UInt64.self).littleEndian
        let zeros = word ^ 0x3030_3030_3030_3030   // "0" bytes are now 0, "." bytes 0x1E
        let points = zeros ^ 0x1E1E_1E1E_1E1E_1E1E   // and now "." bytes are 0
        let prefix = zeroBytes(zeros) | zeroBytes(points)
        return (~prefix & 0x8080_8080_8080_8080).trailingZeroBitCount &>> 3
    }

    /// The top bit of each byte of `v` that is 0, exactly (no carries between bytes).
    @inlinable @inline(__always)
    static func zeroBytes(_ v: UInt64) -> UInt64 {
        let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        return ~(((v & low) &+ low) | v | low)
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
