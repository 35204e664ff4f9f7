/// The shortest decimal that reads back to a given Double, closest to it among the shortest:
/// Ryū (Ulf Adams, "Ryū: fast float-to-string conversion", PLDI 2018,
/// https://doi.org/10.1145/3296979.3192369), implemented from the paper.
///
/// The idea (paper, sections 2–3): a finite Double is m₂·2^e₂. Every real number in the
/// half-open interval around it, bounded by the midpoints to its neighbours, reads back to
/// it. Scale the value and both midpoints by one power of ten with 125-bit fixed-point
/// approximations of 5^i or 2^k/5^q (tables generated exactly by
/// `bench/tools/make_pow5_tables.py`); the paper proves the truncated products `vm`, `vr`,
/// `vp` are exact enough. Then drop decimal digits while the interval still holds a number
/// with fewer digits, and round the last digit of `vr` to nearest.
///
/// The interval is the one round-to-nearest-even reading implies: the midpoints belong to
/// it when the significand is even. That is the reading Swift's `Double(String)` does and
/// the interval Swift's own printer uses, which the tests check against
/// `Double.description` bit pattern by bit pattern.
public enum ShortestDigits {
    /// `digits · 10^exponent` is the shortest round-trip decimal of a finite, non-zero
    /// magnitude (the sign is the caller's). `digits` has no trailing zeros only when the
    /// interval forces them away; callers count digits themselves.
    public struct Decimal: Equatable, Sendable {
        public var digits: UInt64
        public var exponent: Int
    }

    static let mantissaBits = 52
    static let exponentBias = 1023
    static let pow5Bits = 125
    static let pow5InverseBits = 125

    /// The shortest decimal of a finite, non-zero Double given as its raw fields.
    @inlinable
    public static func decimal(of value: Double) -> Decimal {
        decimal(significandBits: value.significandBitPattern, exponentBits: Int(value.exponentBitPattern))
    }

    @usableFromInline @inline(__always)
    static func decimal(significandBits: UInt64, exponentBits: Int) -> Decimal {
        // Step 1 (paper 2.1): value = m2 · 2^e2, two more bits of room for the midpoints.
        let e2: Int
        let m2: UInt64
        if exponentBits == 0 {
            e2 = 1 &- exponentBias &- mantissaBits &- 2
            m2 = significandBits
        } else {
            e2 = exponentBits &- exponentBias &- mantissaBits &- 2
            m2 = (1 << mantissaBits) | significandBits
        }
        let acceptBounds = m2 & 1 == 0
        // Step 2: the interval [mv - mmShift - 1, mv + 2] in units of 2^e2 (quarter ulps);
        // the lower neighbour is closer when the significand is a power of two.
        let mv = 4 &* m2
        let mmShift: UInt64 = (significandBits != 0 || exponentBits <= 1) ? 1 : 0

        // Step 3 (paper 3): vr, vp, vm = the three values times 10^-e10, truncated.
        var vr: UInt64, vp: UInt64, vm: UInt64
        let e10: Int
        var vmIsTrailingZeros = false, vrIsTrailingZeros = false
        if e2 >= 0 {
            let q = log10Pow2(e2) &- (e2 > 3 ? 1 : 0)
            e10 = q
            let k = pow5InverseBits &+ pow5BitLength(q) &- 1
            let i = q &+ k &- e2
            (vr, vp, vm) = mulShiftAll(mv, tableEntry(pow5Inverse, q), i, mmShift: mmShift)
            if q <= 21 {
                // Only these can be exact multiples of 10^q: decide trailing zeros exactly.
                if mv % 5 == 0 {
                    vrIsTrailingZeros = isMultipleOfPow5(mv, q)
                } else if acceptBounds {
                    vmIsTrailingZeros = isMultipleOfPow5(mv - 1 - mmShift, q)
                } else if isMultipleOfPow5(mv + 2, q) {
                    vp -= 1
                }
            }
        } else {
            let q = log10Pow5(0 &- e2) &- (e2 < -1 ? 1 : 0)
            e10 = q &+ e2
            let i = 0 &- e2 &- q
            let k = pow5BitLength(i) &- pow5Bits
            let j = q &- k
            (vr, vp, vm) = mulShiftAll(mv, tableEntry(pow5, i), j, mmShift: mmShift)
            if q <= 1 {
                // mv = 4·m2 has at least two trailing zero bits, so vr is exact.
                vrIsTrailingZeros = true
                if acceptBounds {
                    vmIsTrailingZeros = mmShift == 1
                } else {
                    vp -= 1
                }
            } else if q < 63 {
                vrIsTrailingZeros = isMultipleOfPow2(mv, q)
            }
        }

        // Step 4 (paper 4): remove digits while the interval still contains a shorter number.
        var removed = 0
        var lastRemovedDigit: UInt64 = 0
        let output: UInt64
        if vmIsTrailingZeros || vrIsTrailingZeros {
            // Rare: exact values on the interval's edge or a tie; track them digit by digit.
            while vp / 10 > vm / 10 {
                vmIsTrailingZeros = vmIsTrailingZeros && vm % 10 == 0
                vrIsTrailingZeros = vrIsTrailingZeros && lastRemovedDigit == 0
                lastRemovedDigit = vr % 10
                vr /= 10; vp /= 10; vm /= 10
                removed += 1
            }
            if vmIsTrailingZeros {
                while vm % 10 == 0 {
                    vrIsTrailingZeros = vrIsTrailingZeros && lastRemovedDigit == 0
                    lastRemovedDigit = vr % 10
                    vr /= 10; vp /= 10; vm /= 10
                    removed += 1
                }
            }
            if vrIsTrailingZeros && lastRemovedDigit == 5 && vr % 2 == 0 {
                lastRemovedDigit = 4  // an exact tie: round to even
            }
            let roundUp = (vr == vm && (!acceptBounds || !vmIsTrailingZeros)) || lastRemovedDigit >= 5
            output = vr + (roundUp ? 1 : 0)
        } else {
            // Common: no exact edges, so only the last removed digit decides the rounding.
            // Ryū removes one digit per step while vp / 10 > vm / 10; that condition is
            // monotone in the number of digits removed, so the same count is found with
            // steps of 4, then (only if 4 could go) 16, 8 and 4 more, then 2 and 1: most
            // values lose two or three digits, and when 4 cannot go, neither can 8 or 16.
            // The last removed digit is the top digit of the last step taken.
            var roundUp = false
            // vp / scale > vm / scale exactly when the largest multiple of `scale` not
            // above vp is above vm: one division for a step not taken (most are not).
            @inline(__always) func step(_ scale: UInt64, _ half: UInt64, _ digits: Int) -> Bool {
                let vpq = vp / scale
                guard vpq &* scale > vm else { return false }
                let vrq = vr / scale
                roundUp = vr &- vrq &* scale >= half
                vr = vrq; vp = vpq; vm = vm / scale
                removed &+= digits
                return true
            }
            if step(10_000, 5_000, 4) {
                _ = step(10_000_000_000_000_000, 5_000_000_000_000_000, 16)
                _ = step(100_000_000, 50_000_000, 8)
                _ = step(10_000, 5_000, 4)
            }
            _ = step(100, 50, 2)
            _ = step(10, 5, 1)
            output = vr &+ ((vr == vm || roundUp) ? 1 : 0)
        }
        return Decimal(digits: output, exponent: e10 &+ removed)
    }

    // MARK: Integer helpers (paper, section 3.3)

    /// floor(e · log10(2)) for 0 ≤ e ≤ 1650.
    @inline(__always) static func log10Pow2(_ e: Int) -> Int { (e &* 78913) &>> 18 }
    /// floor(e · log10(5)) for 0 ≤ e ≤ 2620.
    @inline(__always) static func log10Pow5(_ e: Int) -> Int { (e &* 732923) &>> 20 }
    /// The bit length of 5^e (1 for e = 0), for 0 ≤ e ≤ 3528.
    @inline(__always) static func pow5BitLength(_ e: Int) -> Int { ((e &* 1217359) &>> 19) &+ 1 }

    @inline(__always) static func isMultipleOfPow2(_ value: UInt64, _ p: Int) -> Bool {
        value & ((1 &<< UInt64(truncatingIfNeeded: p)) &- 1) == 0
    }

    static func isMultipleOfPow5(_ value: UInt64, _ p: Int) -> Bool {
        var v = value, count = 0
        while v != 0 && v % 5 == 0 { v /= 5; count += 1 }
        return count >= p
    }

    /// Entry `i` of a table of 128-bit numbers stored as (low, high) pairs of UInt64.
    @inline(__always)
    static func tableEntry(_ table: [UInt64], _ i: Int) -> (UInt64, UInt64) {
        table.withUnsafeBufferPointer { t in (t[2 &* i], t[2 &* i &+ 1]) }
    }

    /// `mulShift` of mv, mv + 2 and mv − 1 − mmShift (mmShift 0 or 1) with one product:
    /// X = mv · mul exactly in 192 bits (mv < 2⁵⁵, mul < 2¹²⁵), then X + 2·mul and
    /// X − (1 + mmShift)·mul exactly (no overflow: the sums stay below 2¹⁸¹ and above 0),
    /// each shifted as `mulShift` does. The same three numbers with two multiplications
    /// instead of six.
    @inline(__always)
    static func mulShiftAll(_ mv: UInt64, _ mul: (UInt64, UInt64), _ shift: Int,
                            mmShift: UInt64) -> (vr: UInt64, vp: UInt64, vm: UInt64) {
        let low = mv.multipliedFullWidth(by: mul.0)
        let high = mv.multipliedFullWidth(by: mul.1)
        let x0 = low.low
        let (x1, carry) = low.high.addingReportingOverflow(high.low)
        let x2 = high.high &+ (carry ? 1 : 0)
        // 2·mul, and (1 + mmShift)·mul.
        let twice0 = mul.0 &<< 1, twice1 = (mul.1 &<< 1) | (mul.0 &>> 63)
        let below0 = mmShift == 1 ? twice0 : mul.0, below1 = mmShift == 1 ? twice1 : mul.1
        let (p0, c0) = x0.addingReportingOverflow(twice0)
        let (p1a, c1a) = x1.addingReportingOverflow(twice1)
        let (p1, c1b) = p1a.addingReportingOverflow(c0 ? 1 : 0)
        let p2 = x2 &+ ((c1a || c1b) ? 1 : 0)
        let (m0, b0) = x0.subtractingReportingOverflow(below0)
        let (m1a, b1a) = x1.subtractingReportingOverflow(below1)
        let (m1, b1b) = m1a.subtractingReportingOverflow(b0 ? 1 : 0)
        let m2 = x2 &- ((b1a || b1b) ? 1 : 0)
        _ = (p0, m0)
        // 64 < shift < 128 (the paper's bounds), so both shifts are in 1...63.
        let s = UInt64(truncatingIfNeeded: shift &- 64)
        return ((x1 &>> s) | (x2 &<< (64 &- s)), (p1 &>> s) | (p2 &<< (64 &- s)), (m1 &>> s) | (m2 &<< (64 &- s)))
    }
}
