/// w × 10^q as the correctly rounded Double (round half to even), for a decimal
/// significand `w` of at most 19 digits — the same Double as `Double(String)` gives for the
/// text. Two steps, as fast_float does (Lemire, "Number Parsing at a Gigabyte per Second",
/// 2021):
///
/// * Clinger's fast path: when w ≤ 2^53 and |q| ≤ 22 both w and 10^|q| are exact Doubles,
///   so one IEEE multiplication or division rounds correctly.
/// * Otherwise Eisel–Lemire: w times a 128-bit approximation of 5^q (`PowersOfFive`); the
///   top 54 bits of the product and the binary exponent give the result. Mushtak and
///   Lemire ("Fast Number Parsing Without Fallback", 2023) prove the 128-bit product
///   always suffices when w is exact, so there is no slow path.
public enum DecimalToDouble {
    /// The Double nearest w × 10^q; with `exact` false, within one unit in the last place:
    /// where |q| ≤ 22 but w has more than 53 bits, w is rounded to a Double first and the
    /// product or quotient rounded again (two roundings: the error is below 1 ulp, 2.2e-16
    /// of the value), which skips Eisel–Lemire's 128-bit product. For values that only feed
    /// statistics (the analysis of IMU rows, `RowScanner`): a sensor resolves 4 to 6 of the
    /// 17 digits a Double prints.
    @inlinable @inline(__always)
    public static func value(_ w: UInt64, _ q: Int, negative: Bool, tables: DecimalTables, exact: Bool = true) -> Double {
        let magnitude: Double
        if (w <= 1 << 53 || !exact) && q >= -22 && q <= 22 {
            let power = tables.powersOfTen[q < 0 ? -q : q]
            // Below 2^63 the signed conversion is one instruction; the unsigned one, six.
            let significand = w < 1 << 63 ? Double(Int64(bitPattern: w)) : Double(w)
            magnitude = q < 0 ? significand / power : significand * power
        } else {
            magnitude = eiselLemire(w, q, powersOfFive: tables.powersOfFive)
        }
        // The sign bit set without a branch (the sign of sensor values is random).
        return Double(bitPattern: magnitude.bitPattern | (negative ? 1 << 63 : 0))
    }

    // IEEE binary64.
    static let mantissaBits = 52
    static let exponentBias = 1023
    static let infinityExponent = 0x7FF

    /// fast_float's `compute_float` for binary64 (positive result). Not inlined, so that
    /// `value` stays small enough to be inlined into the parser.
    @inline(never) @usableFromInline
    static func eiselLemire(_ w: UInt64, _ q: Int, powersOfFive: UnsafePointer<UInt64>) -> Double {
        if w == 0 || q < PowersOfFive.smallestExponent { return 0 }
        if q > PowersOfFive.largestExponent { return .infinity }
        let lz = w.leadingZeroBitCount
        let normalized = w &<< UInt64(lz)
        // The product with the 128-bit 5^q; the second word only when the first leaves
        // the bits below the 55 that matter all ones (a carry could still reach them).
        let index = 2 * (q - PowersOfFive.smallestExponent)
        var (high, low) = normalized.multipliedFullWidth(by: powersOfFive[index])
        let precisionMask: UInt64 = .max >> UInt64(mantissaBits + 3)
        if high & precisionMask == precisionMask {
            let second = normalized.multipliedFullWidth(by: powersOfFive[index + 1])
            let (sum, carry) = low.addingReportingOverflow(second.high)
            low = sum
            if carry { high &+= 1 }
        }
        let upperBit = Int(high >> 63)
        let shift = upperBit + 64 - mantissaBits - 3
        var mantissa = high &>> UInt64(shift)
        // floor(q × log2(10)) + 63, exactly for |q| ≤ 350 (fast_float's `power`).
        let log2Of10q = (((152_170 + 65_536) * q) >> 16) + 63
        var power2 = log2Of10q + upperBit - lz + exponentBias
        if power2 <= 0 {   // subnormal (or zero)
            if -power2 + 1 >= 64 { return 0 }
            mantissa &>>= UInt64(-power2 + 1)
            mantissa += mantissa & 1
            mantissa >>= 1
            // Rounding up may have reached the smallest normal number.
            power2 = mantissa < 1 << UInt64(mantissaBits) ? 0 : 1
            return Double(bitPattern: UInt64(power2) << UInt64(mantissaBits) | (mantissa & ((1 << UInt64(mantissaBits)) - 1)))
        }
        // Exactly halfway (only zeros shifted out of an exact product; possible only for
        // -4 ≤ q ≤ 23, where 5^q fits in 64 bits): round to even.
        if low <= 1 && q >= -4 && q <= 23 && mantissa & 3 == 1 && mantissa &<< UInt64(shift) == high {
            mantissa &= ~1
        }
        mantissa += mantissa & 1
        mantissa >>= 1
        if mantissa >= 2 << UInt64(mantissaBits) {
            mantissa = 1 << UInt64(mantissaBits)
            power2 += 1
        }
        mantissa &= ~(1 << UInt64(mantissaBits))
        if power2 >= infinityExponent { return .infinity }
        return Double(bitPattern: UInt64(power2) << UInt64(mantissaBits) | mantissa)
    }
}
