import Foundation
import MotionCore

/// The long run of the formatter's proof: `DoubleText` against `Double.description` on
/// random bit patterns (every exponent equally likely), in a release build. `make test`
/// checks 10^7 per run; this checks `BenchPlan.formatterCheckValues`.
struct FormatterCheck: Codable, Sendable {
    var values: Int
    var seed: UInt64
    var mismatches: Int
    /// The first value whose texts differ, with both texts.
    var firstMismatch: String?
    var seconds: Double

    static func run(values: Int, seed: UInt64) -> FormatterCheck {
        var state = seed
        var mismatches = 0
        var first: String?
        let t0 = SystemClock.monotonicNanos()
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: DoubleText.maxBytes) { scratch in
            guard let base = scratch.baseAddress else { return }
            for _ in 0..<values {
                // SplitMix64.
                state &+= 0x9E37_79B9_7F4A_7C15
                var z = state
                z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
                z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
                let v = Double(bitPattern: z ^ (z >> 31))
                let n = DoubleText.write(v, to: base)
                var reference = v.description
                let same = reference.withUTF8 { ref in
                    ref.count == n && memcmp(ref.baseAddress!, base, n) == 0
                }
                if !same {
                    mismatches += 1
                    if first == nil {
                        first = "0x\(String(v.bitPattern, radix: 16)): \(String(decoding: UnsafeBufferPointer(start: base, count: n), as: UTF8.self)) vs \(v.description)"
                    }
                }
            }
        }
        return FormatterCheck(values: values, seed: seed, mismatches: mismatches, firstMismatch: first,
                              seconds: Double(SystemClock.monotonicNanos() - t0) / 1e9)
    }
}
