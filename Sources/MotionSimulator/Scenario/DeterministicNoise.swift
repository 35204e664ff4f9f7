import Foundation

/// Reproducible noise: a pure function of (time, channel), so a real-time run and a
/// `--fast` run of the same scenario draw identical values, whatever ticks were skipped.
///
/// Normal samples come from the ziggurat method (G. Marsaglia and W. W. Tsang, "The
/// Ziggurat Method for Generating Random Variables", Journal of Statistical Software 5(8),
/// 2000), with 256 layers and separate random bits for the layer, the sign and the
/// abscissa (as J. A. Doornik recommends in "An Improved Ziggurat Method to Generate Normal
/// Random Samples", 2005). It draws from the exact normal distribution: about 99 % of the
/// samples are one table look-up and one multiplication; the rest fall back to the wedge test
/// (one `exp`) or Marsaglia's exact tail method (1964, two `log`s) and draw again from the
/// same key's SplitMix64 sequence, so the sample is still a function of (time, channel) alone.
/// (Until issue 17 the samples came from Box–Muller, with a `log`, a square root and a `cos`
/// each: the same distribution, different values.)
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

    /// The default seed of every channel.
    public static let defaultSeed: UInt64 = 0x6D6F_7469_6F6E

    /// `time` in seconds resolved to the nanosecond: what the samples are keyed by.
    @inline(__always) public static func nanos(_ time: Double) -> UInt64 {
        UInt64(bitPattern: Int64((time * 1e9).rounded()))
    }

    /// Standard normal sample for `channel` at `time` (seconds; resolved to the nanosecond).
    public static func gaussian(time: Double, channel: UInt64, seed: UInt64 = defaultSeed) -> Double {
        gaussian(nanos: nanos(time), channel: channel, seed: seed)
    }

    /// Standard normal sample for `channel` at `nanos` nanoseconds (for callers that draw
    /// several channels at one time and convert the time once).
    @inline(__always)
    public static func gaussian(nanos ns: UInt64, channel: UInt64, seed: UInt64 = defaultSeed) -> Double {
        let key = mix(ns ^ (channel &* 0xD6E8_FEB8_6659_FD93) ^ seed)
        // First draw: bits 0–7 pick the layer, bit 8 the sign, bits 11–63 the abscissa.
        let z = mix(key)
        let layer = Int(truncatingIfNeeded: z & 0xFF)
        let u = Double(z >> 11) * 0x1p-53
        let table = Ziggurat.table
        if u < table.ratio[layer] {
            let x = u * table.x[layer]
            return z & 0x100 != 0 ? -x : x
        }
        return gaussianSlowPath(key: key, z: z, table: table)
    }

    /// The rare draws outside a layer's core: the wedge test, the tail, and drawing again.
    @inline(never)
    static func gaussianSlowPath(key: UInt64, z first: UInt64, table: Ziggurat) -> Double {
        var n: UInt64 = 0
        // The key's SplitMix64 sequence: draw n is mix(key + n·γ); draw 0 was `first`.
        func next() -> UInt64 { n &+= 1; return mix(key &+ n &* 0x9E37_79B9_7F4A_7C15) }
        func open01() -> Double { (Double(next() >> 11) + 0.5) * 0x1p-53 }
        var z = first
        while true {
            let layer = Int(truncatingIfNeeded: z & 0xFF)
            let u = Double(z >> 11) * 0x1p-53
            let negative = z & 0x100 != 0
            var x = u * table.x[layer]
            if u < table.ratio[layer] { return negative ? -x : x }
            if layer == 0 {
                // The tail beyond r (Marsaglia 1964): exact, accepts about 97 % of tries.
                let r = Ziggurat.r
                while true {
                    let a = -log(open01()) / r, b = -log(open01())
                    if b + b > a * a { x = r + a; break }
                }
                return negative ? -x : x
            }
            // The wedge between the layer's core and its outer edge.
            let fOuter = table.f[layer], fInner = table.f[layer + 1]
            if fOuter + open01() * (fInner - fOuter) < exp(-0.5 * x * x) { return negative ? -x : x }
            z = next()
        }
    }

    /// The ziggurat's 256 layers of equal area under exp(−x²/2), built once from r and v.
    /// Kept in memory that is never freed or written after construction (one look-up per
    /// sample, no reference counting), hence `@unchecked Sendable`.
    struct Ziggurat: @unchecked Sendable {
        /// Start of the tail, and the area of each layer (the base strip includes the tail).
        static let r = 3.6541528853610088
        static let v = 0.00492867323399
        /// x[i]: the right edge of layer i (x[0] = v / f(r) for the base strip, x[1] = r,
        /// x[256] = 0); f[i] = exp(−x[i]²/2); ratio[i] = x[i+1] / x[i], the core's share.
        let x: UnsafePointer<Double>, f: UnsafePointer<Double>, ratio: UnsafePointer<Double>

        static let table = Ziggurat()

        init() {
            let n = 256
            func density(_ t: Double) -> Double { exp(-0.5 * t * t) }
            let x = UnsafeMutablePointer<Double>.allocate(capacity: n + 1)
            let f = UnsafeMutablePointer<Double>.allocate(capacity: n + 1)
            let ratio = UnsafeMutablePointer<Double>.allocate(capacity: n)
            x[0] = Self.v / density(Self.r)
            x[1] = Self.r
            for i in 1..<(n - 1) { x[i + 1] = (-2 * log(Self.v / x[i] + density(x[i]))).squareRoot() }
            x[n] = 0
            for i in 0...n { f[i] = density(x[i]) }
            for i in 0..<n { ratio[i] = x[i + 1] / x[i] }
            self.x = UnsafePointer(x); self.f = UnsafePointer(f); self.ratio = UnsafePointer(ratio)
        }
    }
}
