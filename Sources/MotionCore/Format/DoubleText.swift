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
            return p - out &+ 3
        }
        let d = ShortestDigits.decimal(significandBits: significandBits, exponentBits: exponentBits)
        var digits = d.digits, exponent = d.exponent
        while digits % 10 == 0 { digits /= 10; exponent &+= 1 }
        let count = decimalLength(digits)
        // value = 0.d₁d₂… × 10^point
        let point = count &+ exponent
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
        var n: Int
        if count > 1 {
            // The first digit, the point, then the others.
            let scale = powerOfTen(count &- 1)
            let first = digits / scale
            out[0] = 0x30 &+ UInt8(truncatingIfNeeded: first)
            out[1] = 0x2E
            writeDigits(digits &- first &* scale, count: count &- 1, to: out + 2)
            n = count &+ 1
        } else {
            out[0] = 0x30 &+ UInt8(truncatingIfNeeded: digits)
            n = 1
        }
        out[n] = 0x65  // "e"
        var e = point &- 1
        if e < 0 { out[n &+ 1] = 0x2D; e = 0 &- e } else { out[n &+ 1] = 0x2B }
        n &+= 2
        if e >= 100 {
            out[n] = 0x30 &+ UInt8(truncatingIfNeeded: e / 100)
            n &+= 1
            e = e % 100
        }
        writeDigits(UInt64(truncatingIfNeeded: e), count: 2, to: out + n)
        return n &+ 2
    }

    /// `123.456`, `0.00123`, `1200.0`.
    @usableFromInline
    static func writePlain(_ digits: UInt64, count: Int, point: Int, to out: UnsafeMutablePointer<UInt8>) -> Int {
        if point <= 0 {
            // 0.000ddd (at most three zeros after the point)
            out[0] = 0x30; out[1] = 0x2E; out[2] = 0x30; out[3] = 0x30; out[4] = 0x30
            let n = 2 &- point
            writeDigits(digits, count: count, to: out + n)
            return n &+ count
        }
        if point >= count {
            // ddd000.0
            writeDigits(digits, count: count, to: out)
            var n = count
            while n < point { out[n] = 0x30; n &+= 1 }
            out[n] = 0x2E; out[n &+ 1] = 0x30
            return n &+ 2
        }
        // ddd.ddd
        let fraction = count &- point
        let scale = powerOfTen(fraction)
        let integer = digits / scale
        writeDigits(integer, count: point, to: out)
        out[point] = 0x2E
        writeDigits(digits &- integer &* scale, count: fraction, to: out + point + 1)
        return count &+ 1
    }

    /// Writes exactly `count` decimal digits of `value` (leading zeros included) at `out`.
    /// Eight digits at a time in 32-bit arithmetic, two digits per table load.
    @inline(__always) @usableFromInline
    static func writeDigits(_ value: UInt64, count: Int, to out: UnsafeMutablePointer<UInt8>) {
        var v = value
        var end = UnsafeMutableRawPointer(out + count)
        var left = count
        while left >= 8 {
            let q = v / 100_000_000
            let chunk = UInt32(truncatingIfNeeded: v &- q &* 100_000_000)
            v = q
            let high = chunk / 10_000, low = chunk &- high &* 10_000
            end -= 8
            writeFour(high, to: end)
            writeFour(low, to: end + 4)
            left &-= 8
        }
        var w = UInt32(truncatingIfNeeded: v)
        let pairs = UnsafeRawPointer(digitPairs)
        while left >= 2 {
            let q = w / 100
            let r = Int(truncatingIfNeeded: w &- q &* 100)
            w = q
            end -= 2
            end.storeBytes(of: pairs.loadUnaligned(fromByteOffset: r &* 2, as: UInt16.self), as: UInt16.self)
            left &-= 2
        }
        if left == 1 {
            end -= 1
            end.storeBytes(of: 0x30 &+ UInt8(truncatingIfNeeded: w), as: UInt8.self)
        }
    }

    /// Four digits (0...9999, leading zeros included).
    @inline(__always) @usableFromInline
    static func writeFour(_ value: UInt32, to out: UnsafeMutableRawPointer) {
        let pairs = UnsafeRawPointer(digitPairs)
        let high = value / 100, low = value &- high &* 100
        out.storeBytes(of: pairs.loadUnaligned(fromByteOffset: Int(truncatingIfNeeded: high) &* 2, as: UInt16.self), as: UInt16.self)
        (out + 2).storeBytes(of: pairs.loadUnaligned(fromByteOffset: Int(truncatingIfNeeded: low) &* 2, as: UInt16.self), as: UInt16.self)
    }

    /// 10^n for 0 ≤ n ≤ 17.
    @inline(__always) @usableFromInline
    static func powerOfTen(_ n: Int) -> UInt64 {
        switch n {
        case 0: return 1
        case 1: return 10
        case 2: return 100
        case 3: return 1_000
        case 4: return 10_000
        case 5: return 100_000
        case 6: return 1_000_000
        case 7: return 10_000_000
        case 8: return 100_000_000
        case 9: return 1_000_000_000
        case 10: return 10_000_000_000
        case 11: return 100_000_000_000
        case 12: return 1_000_000_000_000
        case 13: return 10_000_000_000_000
        case 14: return 100_000_000_000_000
        case 15: return 1_000_000_000_000_000
        case 16: return 10_000_000_000_000_000
        default: return 100_000_000_000_000_000
        }
    }

    /// Number of decimal digits of a shortest-digits value (1...17).
    @inline(__always) @usableFromInline
    static func decimalLength(_ v: UInt64) -> Int {
        if v >= 100_000_000 {
            if v >= 1_000_000_000_000 {
                if v >= 100_000_000_000_000 {
                    if v >= 10_000_000_000_000_000 { return 17 }
                    return v >= 1_000_000_000_000_000 ? 16 : 15
                }
                return v >= 10_000_000_000_000 ? 14 : 13
            }
            if v >= 10_000_000_000 { return v >= 100_000_000_000 ? 12 : 11 }
            return v >= 1_000_000_000 ? 10 : 9
        }
        if v >= 10_000 {
            if v >= 1_000_000 { return v >= 10_000_000 ? 8 : 7 }
            return v >= 100_000 ? 6 : 5
        }
        if v >= 100 { return v >= 1_000 ? 4 : 3 }
        return v >= 10 ? 2 : 1
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
