@testable import MotionAnalysis
import Testing

@Suite struct FastNumberTests {
    func parse(_ text: String) -> Double? {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { FastNumber.parse($0.baseAddress!, 0, bytes.count) }
    }

    @Test func formatNumbersWithinOneUlp() {
        let samples = ["0.0", "-0.39", "1e-05", "1763735405.01", "0.024619389108603753", "-0.9290154097404764",
                       "13.367025452453682", "-2.1365325080272782e-05", "52.52000809180358", "3", "2", "1e+22",
                       "6.02214076e23", "-1.7976931348623157e+300", "5e-324", "123456789012345678901234"]
        for text in samples {
            let want = Double(text)!
            let got = parse(text)
            #expect(got != nil, "\(text)")
            if let got { #expect(got == want || abs(got - want) <= want.ulp.magnitude, "\(text): \(got) vs \(want)") }
        }
        #expect(parse("nan")!.isNaN)
        #expect(parse("-inf") == -.infinity)
        for bad in ["", "-", ".", "1.2.3", "1e", "abc", "1,2", "nan1", "0x10", " 1"] { #expect(parse(bad) == nil, "\(bad)") }
    }
}
