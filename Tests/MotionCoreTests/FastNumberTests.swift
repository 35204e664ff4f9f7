@testable import MotionCore
import Testing
import MotionTestSupport

/// `FastNumber` gives exactly the Double that `Double(String)` gives (bit for bit, the sign
/// of zero included), for what the format writes and for any decimal of the same shape.
@Suite struct FastNumberTests {
    func parse(_ text: String) -> Double? {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { FastNumber.parse($0.baseAddress!, 0, bytes.count) }
    }

    /// Same Double (NaN matches NaN).
    func same(_ text: String) -> Bool {
        guard let want = Double(text), let got = parse(text) else { return false }
        return got.bitPattern == want.bitPattern || (got.isNaN && want.isNaN)
    }

    @Test func formatNumbersExactly() {
        let samples = ["0.0", "-0.0", "-0.39", "1e-05", "1763735405.01", "0.024619389108603753", "-0.9290154097404764",
                       "13.367025452453682", "-2.1365325080272782e-05", "52.52000809180358", "3", "2", "1e+22",
                       "6.02214076e23", "-1.7976931348623157e+300", "5e-324", "123456789012345678901234",
                       "0.00012345678901234567", "9.999999999999999e-05", "1763735405.001"]
        for text in samples { #expect(same(text), "\(text): \(String(describing: parse(text))) vs \(Double(text)!)") }
        #expect(parse("-0.0")?.sign == .minus)
        #expect(parse("nan")!.isNaN && parse("-nan")!.isNaN)
        #expect(parse("inf") == .infinity && parse("-inf") == -.infinity && parse("+inf") == .infinity)
    }

    @Test func edgesOfTheDoubleFormat() {
        let edges = [
            // Halfway between two Doubles: ties to even, and one digit either side.
            "9007199254740993", "9007199254740995", "4503599627370496.5", "4503599627370497.5",
            "1.00000000000000011102230246251565404236316680908203125",
            "1.00000000000000011102230246251565404236316680908203124",
            "1.00000000000000011102230246251565404236316680908203126",
            // Subnormals, the smallest normal, underflow to zero.
            "4.9406564584124654e-324", "2.4703282292062327e-324", "2.4703282292062328e-324", "1e-400", "-1e-400",
            "2.2250738585072011e-308", "2.2250738585072012e-308", "2.2250738585072014e-308", "4.9e-324",
            "1.5e-323", "2.225073858507201e-308", "9.8813129168249309e-324",
            // The largest Double, overflow to infinity.
            "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308", "1e400", "-1e400",
            // 19 and 20 significant digits, 2^64 and around it.
            "9999999999999999999", "10000000000000000000", "18446744073709551615", "18446744073709551616",
            "1844674407370955161.5", "0.1234567890123456789", "0.12345678901234567890",
            // Other shapes of the same grammar.
            "+1.5", "1E5", "1e+05", "1e-5", ".5", "5.", "-.5e1", "00000000000000000000000001.5",
            "1.5e0000000000000000000001", "0.000000000000000000000000000001234567890123456789", "1e99999999",
            "1e-99999999", "0e99999999", "-0e-5",
        ]
        for text in edges { #expect(same(text), "\(text): \(String(describing: parse(text))) vs \(String(describing: Double(text)))") }
    }

    @Test func shortestDescriptionsOfRandomDoubles() {
        var rng = SplitMix(state: 1)
        var wrong: [String] = []
        for _ in 0..<100_000 {
            let d = Double(bitPattern: rng.next())
            guard !d.isNaN else { continue }
            let text = d.description
            if !same(text) { wrong.append(text) }
        }
        for _ in 0..<50_000 {   // the format's ranges: sensor values and epoch times
            let v = Double.random(in: -40...40, using: &rng), t = Double.random(in: 1.7e9...1.8e9, using: &rng)
            let tiny = Double.random(in: -1e-4...1e-4, using: &rng)
            for text in [v.description, t.description, tiny.description] where !same(text) { wrong.append(text) }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(10))")
    }

    /// Not exact (`exact: false`, the analysis' IMU values): within one unit in the last
    /// place of the exact Double, and the exact Double itself where Clinger's path is exact
    /// (at most 53 bits) or not taken (exponents beyond ±22).
    @Test func nearlyExactIsWithinOneUlp() {
        var rng = SplitMix(state: 3)
        var worst = 0.0, differ = 0
        func nearly(_ text: String) -> Double? {
            let bytes = Array(text.utf8) + [0x2C] + Array(repeating: 0x30, count: 8)
            return bytes.withUnsafeBufferPointer { b in
                FastNumber.parseField(b.baseAddress!, 0, tables: .shared, exact: false).map(\.0)
            }
        }
        for k in 0..<100_000 {
            let v = k % 2 == 0 ? Double.random(in: -40...40, using: &rng) : Double(bitPattern: rng.next())
            guard v.isFinite, let got = nearly(v.description) else { continue }
            let ulps = abs(got - v) / v.ulp
            worst = max(worst, ulps)
            if got != v { differ += 1 }
            let digits = v.description.filter(\.isNumber).drop { $0 == "0" }.count
            if digits <= 15 { #expect(got == v, "\(v)") }
        }
        #expect(worst <= 1, "\(worst) ulp")
        #expect(differ > 0)   // (else the test would not test the two roundings)
    }

    @Test func randomDecimalsOverTheWholeExponentRange() {
        var rng = SplitMix(state: 2)
        var wrong: [String] = []
        for _ in 0..<60_000 {
            let count = Int.random(in: 1...24, using: &rng)
            var digits = ""
            for _ in 0..<count { digits.unicodeScalars.append(Unicode.Scalar(UInt8.random(in: 0x30...0x39, using: &rng))) }
            let dot = Int.random(in: 0...count, using: &rng)
            let decimal = "0" + digits.prefix(dot) + "." + digits.dropFirst(dot) + "0"
            let e = Int.random(in: -360...330, using: &rng)
            for text in [decimal + "e\(e)", "-" + digits + "e\(e)", decimal] where !same(text) { wrong.append(text) }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(10))")
    }

    @Test func textThatIsNotANumber() {
        for bad in ["", "-", "+", ".", "-.", "1.2.3", "1e", "1e+", "e5", ".e5", "abc", "1,2", "nan1", "0x10", " 1", "1 ",
                    "na", "in", "infinity", "NaN", "Inf", "--1", "+-1", "1e5.5", "1..2"] {
            #expect(parse(bad) == nil, "\(bad)")
        }
    }

    /// Checking without converting (`convert: false`, the values a sink does not read) accepts
    /// exactly what parsing accepts and stops at the same byte.
    @Test func checkingStopsWhereParsingStops() {
        var texts = ["0.0", "-0.0", "-0.39", "1e-05", "1763735405.01", "-2.1365325080272782e-05", "13.367025452453682",
                     "+1.5", "1E5", "1e+05", ".5", "5.", "-.5e1", "00000000000000000000000001.5", "1e99999999", "nan",
                     "-nan", "inf", "-inf", "+inf", "0.12345678901234567890", "123456789012345678901234",
                     "", "-", "+", ".", "-.", "1.2.3", "1e", "1e+", "e5", ".e5", "abc", "1,2", "nan1", "0x10", " 1", "1 ",
                     "na", "in", "infinity", "NaN", "Inf", "--1", "+-1", "1e5.5", "1..2", "1:2", "9/", "12345678;"]
        var rng = SplitMix(state: 4)
        for _ in 0..<20_000 {
            texts.append(Double(bitPattern: rng.next()).description)
            texts.append(Double.random(in: -40...40, using: &rng).description)
        }
        for text in texts {
            let bytes = Array(text.utf8) + [0x2C] + Array(repeating: 0x30, count: 8)
            bytes.withUnsafeBufferPointer { b in
                let parsed = FastNumber.parseField(b.baseAddress!, 0, tables: .shared)
                let checked = FastNumber.parseField(b.baseAddress!, 0, tables: .shared, convert: false)
                #expect(parsed?.1 == checked?.1, "\(text)")
                #expect(checked.map { $0.0.isNaN } ?? true, "\(text)")
            }
        }
    }

    @Test func eightDigitsAtATime() {
        func word(_ text: String) -> UInt64 {
            var w: UInt64 = 0
            for (k, b) in text.utf8.enumerated() { w |= UInt64(b) << UInt64(8 * k) }
            return w
        }
        #expect(FastNumber.nonDigitBytes(word("01234567")) == 0 && FastNumber.nonDigitBytes(word("99999999")) == 0)
        // The first byte that is not a digit is found whatever it is and whatever follows it
        // (a byte of 0x8A or more carries into the next).
        var rng = SplitMix(state: 5)
        for position in 0..<8 {
            for byte in UInt8.min...UInt8.max where !(0x30...0x39).contains(byte) {
                var w = rng.next()   // random bytes after it
                for k in 0..<position { w = w & ~(0xFF << UInt64(8 * k)) | UInt64(0x30 + (k * 7) % 10) << UInt64(8 * k) }
                w = w & ~(0xFF << UInt64(8 * position)) | UInt64(byte) << UInt64(8 * position)
                #expect(FastNumber.nonDigitBytes(w).trailingZeroBitCount / 8 == position, "\(byte) at \(position)")
            }
        }
        #expect(FastNumber.eightDigitsValue(word("01234567")) == 1_234_567)
        #expect(FastNumber.eightDigitsValue(word("98765432")) == 98_765_432)
        #expect(FastNumber.eightDigitsValue(word("99999999")) == 99_999_999)
    }
}
