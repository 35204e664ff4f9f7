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
    /// 10^0 ... 10^22, each exact in a Double (Clinger's fast path: one IEEE operation
    /// with one of them rounds a decimal of at most 2^53 correctly).
    public static let exactPowersOfTen: [Double] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12,
                                                    1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22]

    /// The most bytes one number takes (`-2.2250738585072014e-308` is 24).
    public static let maxBytes = 24

    /// Writes the text of `value` at `out` (room for `maxBytes`), returns the byte count.
    /// Only the text's bytes are written (the digits are made in a scratch with
    /// `slackBytes` of room, then copied).
    @inlinable
    public static func write(_ value: Double, to out: UnsafeMutablePointer<UInt8>) -> Int {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: slackBytes) { scratch in
            guard let base = scratch.baseAddress else { return 0 }
            let n = write(value, withSlackTo: base)
            out.update(from: base, count: n)
            return n
        }
    }

    /// The room `write(_:withSlackTo:)` needs from where it writes: the text (at most
    /// `maxBytes`) and the whole words it stores past it.
    @inlinable public static var slackBytes: Int { 40 }

    /// Writes the text of `value` at `out`, returns the byte count. Needs `slackBytes` of
    /// room: the digits are stored as whole 8-byte words, so bytes after the text (up to
    /// `slackBytes` from `out`) may be overwritten. For writers that write the next field
    /// over them (`RowEncoder`, whose `CSVFormat.maxRowBytes` leaves that room). Not
    /// inlinable: compiled once, with the digits and the layout inlined into it.
    public static func write(_ value: Double, withSlackTo out: UnsafeMutablePointer<UInt8>) -> Int {
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

    /// `d.ddde±XX`: the point only when there is more than one digit. Out of line: rare.
    @inline(never) @usableFromInline
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


    /// `123.456`, `0.00123`, `1200.0` (1 ≤ count ≤ 17, −3 ≤ point ≤ 16), writing up to 34
    /// bytes: the digits are made left-aligned as 17 ASCII bytes (the first digit, then two
    /// 8-byte words, `eightDigits`), padded with zeros, and stored whole; the layout then
    /// only places them and the point.
    static func writePlain(_ digits: UInt64, count: Int, point: Int, to out: UnsafeMutablePointer<UInt8>) -> Int {
        let raw = UnsafeMutableRawPointer(out)
        // d₁ (a byte) and d₂…d₉, d₁₀…d₁₇ (words, first digit in the lowest byte).
        let first: UInt64, high: UInt64, low: UInt64
        if count <= 9 {
            let n9 = digits &* powerOfTen(9 &- count)
            let q = n9 / 100_000_000
            first = q; high = eightDigits(UInt32(truncatingIfNeeded: n9 &- q &* 100_000_000))
            low = 0x3030_3030_3030_3030
        } else {
            let n17 = digits &* powerOfTen(17 &- count)
            let q = n17 / 10_000_000_000_000_000
            let rest = n17 &- q &* 10_000_000_000_000_000
            let h = rest / 100_000_000
            first = q
            high = eightDigits(UInt32(truncatingIfNeeded: h))
            low = eightDigits(UInt32(truncatingIfNeeded: rest &- h &* 100_000_000))
        }
        let firstByte = UInt8(truncatingIfNeeded: first) &+ 0x30
        if point <= 0 {
            // 0.000ddd (at most three zeros after the point): "0.000000" then the digits.
            raw.storeBytes(of: UInt64(0x3030_3030_3030_2E30).littleEndian, as: UInt64.self)  // "0.000000"
            let start = 2 &- point
            (raw + start).storeBytes(of: firstByte, as: UInt8.self)
            (raw + (start &+ 1)).storeBytes(of: high.littleEndian, as: UInt64.self)
            (raw + (start &+ 9)).storeBytes(of: low.littleEndian, as: UInt64.self)
            return start &+ count
        }
        if point == 1 && count > 1 {
            // d.ddd
            raw.storeBytes(of: firstByte, as: UInt8.self)
            (raw + 1).storeBytes(of: 0x2E, as: UInt8.self)
            (raw + 2).storeBytes(of: high.littleEndian, as: UInt64.self)
            (raw + 10).storeBytes(of: low.littleEndian, as: UInt64.self)
            return count &+ 1
        }
        // The 17 digits (zeros past `count`), then the point.
        raw.storeBytes(of: firstByte, as: UInt8.self)
        (raw + 1).storeBytes(of: high.littleEndian, as: UInt64.self)
        (raw + 9).storeBytes(of: low.littleEndian, as: UInt64.self)
        if point >= count {
            // ddd000.0: the zeros up to the point are the padding (point ≤ 16).
            (raw + point).storeBytes(of: UInt16(0x302E).littleEndian, as: UInt16.self)  // ".0"
            return point &+ 2
        }
        // ddd.ddd: the fraction (at most 15 digits here) moves one byte right.
        let fraction0 = (raw + point).loadUnaligned(as: UInt64.self)
        let fraction1 = (raw + (point &+ 8)).loadUnaligned(as: UInt64.self)
        (raw + (point &+ 1)).storeBytes(of: fraction0, as: UInt64.self)
        (raw + (point &+ 9)).storeBytes(of: fraction1, as: UInt64.self)
        (raw + point).storeBytes(of: 0x2E, as: UInt8.self)
        return count &+ 1
    }

    /// The eight decimal digits of `v` < 10⁸ (leading zeros included) as ASCII, the first
    /// digit in the lowest byte: split into 4-, 2- and 1-digit lanes of one 64-bit word by
    /// multiplying with fixed-point reciprocals (x·10486 >> 20 = x / 100 for x < 10⁴,
    /// x·103 >> 10 = x / 10 for x < 100; no lane overflows into the next), no table.
    @inline(__always)
    static func eightDigits(_ v: UInt32) -> UInt64 {
        let v64 = UInt64(v)
        let high = v64 / 10_000
        // Lanes of 32 bits: first four digits, last four.
        var x = high | ((v64 &- high &* 10_000) &<< 32)
        // Lanes of 16 bits: pairs of digits.
        let hundreds = ((x &* 10_486) &>> 20) & 0x0000_007F_0000_007F
        x = hundreds | ((x &- hundreds &* 100) &<< 16)
        // Lanes of 8 bits: digits.
        let tens = ((x &* 103) &>> 10) & 0x000F_000F_000F_000F
        x = tens | ((x &- tens &* 10) &<< 8)
        return x | 0x3030_3030_3030_3030
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
