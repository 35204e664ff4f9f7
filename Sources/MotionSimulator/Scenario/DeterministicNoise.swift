import Foundation

/// Reproducible noise: a pure function of (time, channel), so a real-time run and a
/// `--fast` run of the same scenario draw identical values, whatever ticks were skipped.
public enum DeterministicNoise {
    /// SplitMix64 finaliser.
    @inlinable static func mix(_ x: UInt64) -> UInt64 {
        var z = x &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in (0, 1).
    @inlinable static func uniform(_ key: UInt64) -> Double {
        (Double(mix(key) >> 11) + 0.5) / 9_007_199_254_740_992.0
    }

    /// Standard normal sample for `channel` at `time` (seconds; resolved to the nanosecond).
    public static func gaussian(time: Double, channel: UInt64, seed: UInt64 = 0x6D6F_7469_6F6E) -> Double {
        let ns = UInt64(bitPattern: Int64((time * 1e9).rounded()))
        let key = mix(ns ^ (channel &* 0xD6E8_FEB8_6659_FD93) ^ seed)
        let u1 = uniform(key), u2 = uniform(key ^ 0xA5A5_A5A5_5A5A_5A5A)
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }
}
