/// Writes a Double as exactly the bytes `Double.description` produces, straight into a
/// caller's buffer: no `String`, no allocation.
///
/// Digits: the shortest round-trip decimal closest to the value (`ShortestDigits`, Ryū).
/// Layout, as Swift's printer lays them out (checked against `Double.description` in the
/// tests, including every power of two and ten):
/// - `nan` for every NaN (sign and payload are not shown), `inf` and `-inf`, `0.0`, `-0.0`;
/// - plain decimal with at least one digit after the point (`100.0`, `0.001`, `123.456`)
///   when 10⁻⁴ ≤ |v| ≤ 2⁵³, the range in which every integer is exactly representable;
/// - otherwise exponent form with one digit before the point, the point only when more
///   digits follow, and at least two exponent digits with their sign (`1e-05`,
///   `1.2345e-05`, `1e+16`, `9.007199254740994e+15`, `5e-324`, `1.7976931348623157e+308`).
public enum DoubleText {
    /// The most bytes one number takes (`-2.2250738585072014e-308` is 24).
    public static let maxBytes = 24

    /// Writes the text of `value` at `out` (room for `maxBytes`), returns the byte count.
    @inlinable
    public static func write(_ value: Double, to out: UnsafeMutablePointer<UInt8>) -> Int {
        let bits = value.bitPattern
        let exponentBits = Int((bits >> 52) & 0x7FF)
        let significandBits = bits & ((1 << 52) - 1)
        var p = out
        if exponentBits == 0x7FF {
            if significandBits != 0 { return copy("nan", to: out) }
            return copy(bits >> 63 != 0 ? "-inf" : "inf", to: out)
        }
        if bits >> 63 != 0 { p.pointee = 0x2D; p += 1 }  // "-"
        if exponentBits == 0 && significandBits == 0 {
            p[0] = 0x30; p[1] = 0x2E; p[2] = 0x30  // "0.0"
            return p - out + 3
        }
        let d = ShortestDigits.decimal(significandBits: significandBits, exponentBits: exponentBits)
        var digits = d.digits, exponent = d.exponent
        while digits % 10 == 0 { digits /= 10; exponent += 1 }
        let count = decimalLength(digits)
        // value = 0.d₁d₂… × 10^point
        let point = count + exponent
        // 2^53 = 0x1p53: its bit pattern without the sign.
        let magnitude = bits & 0x7FFF_FFFF_FFFF_FFFF
        if point < -3 || magnitude > 0x4340_0000_0000_0000 {
            p += writeExponential(digits, count: count, point: point, to: p)
        } else {
            p += writePlain(digits, count: count, point: point, to: p)
        }
        return p - out
    }

    /// `d.ddde±XX`: the point only when there is more than one digit.
    @usableFromInline
    static func writeExponential(_ digits: UInt64, count: Int, point: Int, to out: UnsafeMutablePointer<UInt8>) -> Int {
        // Digits at out[1...count], then the first one moves before the point.
        writeDigits(digits, count: count, endingAt: out + count + 1)
        var n: Int
        if count > 1 {
            out[0] = out[1]
            out[1] = 0x2E
            n = count + 1
        } else {
            out[0] = out[1]
            n = 1
        }
        out[n] = 0x65  // "e"
        var e = point - 1
        if e < 0 { out[n + 1] = 0x2D; e = -e } else { out[n + 1] = 0x2B }
        n += 2
        if e >= 100 {
            out[n] = 0x30 &+ UInt8(truncatingIfNeeded: e / 100)
            n += 1
            e %= 100
        }
        writeTwoDigits(e, to: out + n)
        return n + 2
    }

    /// `123.456`, `0.00123`, `1200.0`.
    @usableFromInline
    static func writePlain(_ digits: UInt64, count: Int, point: Int, to out: UnsafeMutablePointer<UInt8>) -> Int {
        if point <= 0 {
            // 0.000ddd
            out[0] = 0x30; out[1] = 0x2E
            var n = 2
            for _ in 0 ..< -point { out[n] = 0x30; n += 1 }
            writeDigits(digits, count: count, endingAt: out + n + count)
            return n + count
        }
        if point >= count {
            // ddd000.0
            writeDigits(digits, count: count, endingAt: out + count)
            var n = count
            for _ in 0 ..< point - count { out[n] = 0x30; n += 1 }
            out[n] = 0x2E; out[n + 1] = 0x30
            return n + 2
        }
        // dd.ddd: write all digits one place to the right, then move the integer part left.
        writeDigits(digits, count: count, endingAt: out + count + 1)
        for i in 0 ..< point { out[i] = out[i + 1] }
        out[point] = 0x2E
        return count + 1
    }

    /// Writes the `count` decimal digits of `value` so that the last one is at `end - 1`.
    @inline(__always) @usableFromInline
    static func writeDigits(_ value: UInt64, count: Int, endingAt end: UnsafeMutablePointer<UInt8>) {
        var v = value
        var p = end
        let pairs = digitPairs
        while v >= 100 {
            let r = Int(truncatingIfNeeded: v % 100)
            v /= 100
            p -= 2
            p[0] = pairs[2 * r]; p[1] = pairs[2 * r + 1]
        }
        if v >= 10 {
            let r = Int(truncatingIfNeeded: v)
            p -= 2
            p[0] = pairs[2 * r]; p[1] = pairs[2 * r + 1]
        } else {
            p -= 1
            p[0] = 0x30 &+ UInt8(truncatingIfNeeded: v)
        }
    }

    @inline(__always) @usableFromInline
    static func writeTwoDigits(_ value: Int, to out: UnsafeMutablePointer<UInt8>) {
        let pairs = digitPairs
        out[0] = pairs[2 * value]; out[1] = pairs[2 * value + 1]
    }

    /// Number of decimal digits of a shortest-digits value (1...17).
    @inline(__always) @usableFromInline
    static func decimalLength(_ v: UInt64) -> Int {
        var n = 1
        var limit: UInt64 = 10
        while n < 20 && v >= limit {
            n += 1
            if limit > UInt64.max / 10 { break }
            limit *= 10
        }
        return n
    }

    /// "00", "01", … "99": two digits per entry, in static memory (no allocation, no lazy
    /// initialisation).
    @usableFromInline
    static var digitPairs: UnsafePointer<UInt8> {
        @inline(__always) get {
            let table: StaticString = """
            00010203040506070809101112131415161718192021222324252627282930313233343536373839\
            40414243444546474849505152535455565758596061626364656667686970717273747576777879\
            8081828384858687888990919293949596979899
            """
            return table.utf8Start
        }
    }

    @usableFromInline
    static func copy(_ text: StaticString, to out: UnsafeMutablePointer<UInt8>) -> Int {
        out.update(from: text.utf8Start, count: text.utf8CodeUnitCount)
        return text.utf8CodeUnitCount
    }
}
