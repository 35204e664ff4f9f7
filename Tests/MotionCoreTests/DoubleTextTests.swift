import Foundation
import MotionCore
import Testing
import MotionTestSupport

/// `DoubleText` (our shortest round-trip formatter) writes exactly the bytes of
/// `Double.description`. Compared in batches: both texts of a batch go into one buffer each
/// and are compared at once; on a difference the first differing value is reported.
@Suite("DoubleText is byte-identical to Double.description")
struct DoubleTextTests {
    /// Compares a batch; returns the first value whose texts differ, with both texts.
    static func firstMismatch(_ values: UnsafeBufferPointer<Double>) -> String? {
        var ours: [UInt8] = [], theirs: [UInt8] = []
        ours.reserveCapacity(values.count * 25)
        theirs.reserveCapacity(values.count * 25)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: DoubleText.maxBytes) { scratch in
            let base = scratch.baseAddress!
            for v in values {
                let n = DoubleText.write(v, to: base)
                ours.append(contentsOf: UnsafeBufferPointer(start: base, count: n))
                ours.append(0x20)
                var d = v.description
                d.withUTF8 { theirs.append(contentsOf: $0) }
                theirs.append(0x20)
            }
        }
        if ours == theirs { return nil }
        for v in values {
            let t = text(v)
            if t != v.description {
                return "bits 0x\(String(v.bitPattern, radix: 16)): ours \(t), Swift \(v.description)"
            }
        }
        return "the batches differ but no single value does"
    }

    static func text(_ v: Double) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: DoubleText.maxBytes) { scratch in
            let n = DoubleText.write(v, to: scratch.baseAddress!)
            return String(decoding: UnsafeBufferPointer(start: scratch.baseAddress!, count: n), as: UTF8.self)
        }
    }

    static func check(_ values: [Double], sourceLocation: SourceLocation = #_sourceLocation) {
        values.withUnsafeBufferPointer { all in
            var start = 0
            while start < all.count {
                let end = min(all.count, start + 100_000)
                if let problem = firstMismatch(UnsafeBufferPointer(rebasing: all[start..<end])) {
                    Issue.record(Comment(rawValue: problem), sourceLocation: sourceLocation)
                    return
                }
                start = end
            }
        }
    }

    /// A value, its neighbours, and the same for the negative.
    static func withNeighbours(_ v: Double) -> [Double] {
        let around = [v.nextDown, v, v.nextUp]
        return around + around.map { -$0 }
    }

    @Test func specialValues() {
        #expect(Self.text(0.0) == "0.0")
        #expect(Self.text(-0.0) == "-0.0")
        #expect(Self.text(.infinity) == "inf")
        #expect(Self.text(-.infinity) == "-inf")
        #expect(Self.text(1e-05) == "1e-05")
        #expect(Self.text(1e16) == "1e+16")
        #expect(Self.text(100) == "100.0")
        #expect(Self.text(5e-324) == "5e-324")
        let nans: [Double] = [.nan, -.nan, .signalingNaN, -.signalingNaN, Double(bitPattern: 0x7FF0_0000_0000_0001),
                              Double(bitPattern: 0xFFF8_0000_0000_1234), Double(bitPattern: 0x7FFF_FFFF_FFFF_FFFF)]
        for n in nans { #expect(Self.text(n) == n.description) }
        Self.check(nans + [0, -0.0, .infinity, -.infinity, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
                           .leastNormalMagnitude, .leastNonzeroMagnitude, .pi, .ulpOfOne, 0.1 + 0.2])
    }

    @Test func everyPowerOfTwoAndItsNeighbours() {
        var values: [Double] = []
        for e in -1074...1023 { values += Self.withNeighbours(Double(sign: .plus, exponent: e, significand: 1)) }
        Self.check(values)
    }

    @Test func everyPowerOfTenAndItsNeighbours() {
        var values: [Double] = []
        for e in -323...308 {
            // The Double nearest 10^e, parsed (as a reader would), and its neighbours.
            guard let v = Double("1e\(e)") else { Issue.record("cannot parse 1e\(e)"); continue }
            values += Self.withNeighbours(v)
            // Shorter and longer significands at that power: 2, 5, 9.99…
            for s in ["2", "5", "9.5", "9.999999999999999", "1.0000000000000002"] {
                if let w = Double("\(s)e\(e)") { values += Self.withNeighbours(w) }
            }
        }
        Self.check(values)
    }

    @Test func subnormals() {
        var values: [Double] = []
        for b in UInt64(1)...20_000 { values.append(Double(bitPattern: b)) }
        for bit in 0..<52 { values += Self.withNeighbours(Double(bitPattern: 1 << UInt64(bit))) }
        values += Self.withNeighbours(Double.leastNormalMagnitude)
        values += Self.withNeighbours(Double(bitPattern: (1 << 52) - 1))
        var g = SplitMix(state: 17)
        for _ in 0..<100_000 { values.append(Double(bitPattern: g.next() & ((1 << 52) - 1))) }
        Self.check(values)
    }

    @Test func plainAndExponentBoundaries() {
        var values: [Double] = []
        // Small side: 1e-4 is plain, anything shorter than it exponent form.
        for s in ["1e-4", "0.0001", "0.00009999999999999999", "0.000099999", "1.5e-4", "9.9999e-5", "1e-5", "1e-3"] {
            if let v = Double(s) { values += Self.withNeighbours(v) }
        }
        // Large side: integers up to 2^53 are plain, beyond it exponent form.
        for e in 50...56 {
            let p = Double(sign: .plus, exponent: e, significand: 1)
            values += Self.withNeighbours(p)
            values += Self.withNeighbours(p - 1)
            values += Self.withNeighbours(p + 1)
        }
        for v in [1e15, 1e16, 1e17, 9007199254740991, 9007199254740993, 18014398509481984] {
            values += Self.withNeighbours(v)
        }
        // Walk 2 000 doubles on each side of each boundary.
        for start in [1e-4, 0x1p53, -1e-4, -0x1p53] {
            var up = start, down = start
            for _ in 0..<2_000 { up = up.nextUp; down = down.nextDown; values += [up, down] }
        }
        Self.check(values)
    }

    @Test func seventeenDigitShortestValues() {
        // Collect values whose shortest form needs all 17 significant digits.
        var g = SplitMix(state: 99)
        var values: [Double] = []
        var tries = 0
        while values.count < 20_000 && tries < 2_000_000 {
            tries += 1
            let v = Double.random(in: 1..<2, using: &g) * Double(sign: .plus, exponent: Int(g.next() % 2000) - 1000, significand: 1)
            let digits = v.description.prefix { $0 != "e" }.filter(\.isNumber).drop { $0 == "0" }
            if digits.count == 17 { values.append(v) }
        }
        #expect(values.count == 20_000, "found only \(values.count) seventeen-digit values")
        Self.check(values)
    }

    @Test func sensorLikeValuesAndEpochTimes() {
        var g = SplitMix(state: 7)
        var values: [Double] = []
        for i in 0..<200_000 {
            values.append(Double.random(in: -20...20, using: &g))
            values.append(1763735405 + Double(i) / 1000)
            values.append(Double(Int32(truncatingIfNeeded: g.next())) / 32768 * 16)
        }
        Self.check(values)
    }

    /// 10^7 random bit patterns (every exponent equally likely). Seed: random, printed;
    /// `MOTIONLOG_FORMAT_SEED=N` reproduces a run, `MOTIONLOG_FORMAT_COUNT=N` changes the count.
    @Test func tenMillionRandomBitPatterns() {
        let env = ProcessInfo.processInfo.environment
        let seed = env["MOTIONLOG_FORMAT_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 0...UInt64.max)
        let count = env["MOTIONLOG_FORMAT_COUNT"].flatMap { Int($0) } ?? 10_000_000
        print("DoubleText: \(count) random bit patterns, seed \(seed) (MOTIONLOG_FORMAT_SEED=\(seed) reproduces)")
        var g = SplitMix(state: seed)
        var batch = [Double](repeating: 0, count: 100_000)
        var done = 0
        while done < count {
            let n = min(batch.count, count - done)
            for i in 0..<n { batch[i] = Double(bitPattern: g.next()) }
            let problem = batch.withUnsafeBufferPointer { Self.firstMismatch(UnsafeBufferPointer(rebasing: $0[0..<n])) }
            if let problem {
                Issue.record("seed \(seed): \(problem)")
                return
            }
            done += n
        }
    }

    @Test func rowEncoderWritesTheSameBytesAsDescriptions() {
        var g = SplitMix(state: 3)
        for source in Source.allCases {
            for _ in 0..<2_000 {
                var v = [Double](repeating: 0, count: 9)
                for i in 0..<9 { v[i] = g.next() % 4 == 0 ? Double(bitPattern: g.next()) : Double.random(in: -1000...1000, using: &g) }
                if source == .location { v[8] = g.next() % 2 == 0 ? 2 : 3 }
                let when = 1763735405 + Double.random(in: 0...86400, using: &g)
                let row = Row(source: source, label: 0x57, when: when, values: (v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8]))
                var expected = "\(Character(Unicode.Scalar(source.rawValue))),W,\(when.description)"
                for i in 0..<source.valueCount {
                    expected += "," + (source == .location && i == 8 ? String(Int(v[i])) : v[i].description)
                }
                #expect(RowEncoder.line(row) == expected)
            }
        }
    }
}
