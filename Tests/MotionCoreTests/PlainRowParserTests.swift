import Foundation
@testable import MotionCore
import Testing

/// The reader's fast path takes a line only when the thorough path would read the same row
/// with no problem at all; every other line goes the thorough way.
@Suite struct PlainRowParserTests {
    /// What the thorough path makes of `line`: the row and the problems.
    func thorough(_ line: String) -> (Row?, [RecordingProblem]) {
        var problems: [RecordingProblem] = []
        let row = LineParser().parseRow(line) { if case .problem(let p) = $0 { problems.append(p) } }
        return (row, problems)
    }

    func fast(_ line: String) -> Row? {
        Array(line.utf8).withUnsafeBufferPointer { PlainRowParser.row($0) }
    }

    /// Same row, bit for bit (NaN equal to NaN).
    func same(_ a: Row, _ b: Row) -> Bool {
        a.source == b.source && a.label == b.label && a.when.bitPattern == b.when.bitPattern
            && (0..<9).allSatisfy { a[$0].bitPattern == b[$0].bitPattern || (a[$0].isNaN && b[$0].isNaN) }
    }

    @Test func everyValueTheWriterWritesIsReadExactly() {
        var generator = SystemRandomNumberGenerator()
        var taken = 0
        for k in 0..<200_000 {
            // Magnitudes from subnormal to huge, and short decimals as sensors give them.
            let v: Double
            switch k % 4 {
            case 0: v = Double(bitPattern: generator.next())
            case 1: v = Double.random(in: -2...2)
            case 2: v = Double(Int.random(in: -40_000...40_000)) / 16_384
            default: v = Double.random(in: -1...1) * pow(10, Double(Int.random(in: -30...30)))
            }
            guard !v.isInfinite else { continue }
            let line = "G,W,1795671440.758,\(v),0.0,-\(abs(v))"
            let (row, problems) = thorough(line)
            guard let f = fast(line) else { continue }
            taken += 1
            #expect(problems.isEmpty, "\(line)")
            #expect(row.map { same($0, f) } == true, "\(line)")
        }
        #expect(taken > 120_000)   // most lines take the fast path
    }

    @Test func aLineTheFastPathTakesHasNoProblemAndTheSameRow() {
        let numbers = ["0.5", "0.50", "1e5", "1e+05", "+1", " 1", "1 ", "-nan", "nan", "inf", "-inf", "0x1p3", "1E-05", "1e-05",
                       "-0.0", "0.0", "0", "00.5", ".5", "5.", "1.0e+16", "1e+16", "9.007199254740994e+15", "9007199254740994.0",
                       "1.2345678901234567e-30", "1.7976931348623157e+308", "5e-324", "12345678901234567890",
                       "0.00000000000000000000012", "-", "", "1e", "1e+", "--1", "1..2", "4.218309025329908e-07",
                       "-0.0026878234800394715", "13.555334928658294", "1e-4", "0.0001", "100000000000000.0", "1e+22",
                       "1e+23", "2.2250738585072014e-308", "١", "0.1", "0.30000000000000004", "1.0"]
        var lines: [String] = []
        for a in numbers {
            for b in ["0.25", "nan", "-1e-05"] {
                lines += ["A,W,1795671440.758,\(a),\(b),1.0", "A,W,\(a),\(b),0.0,1.0", "A,w,1795671440.758,\(a),\(b),1.0",
                          "A,W,1795671440.758,\(a),\(b)", "A,W,1795671440.758,\(a),\(b),1.0,2.0", "A,W,1795671440.758,\(a),\(b),1.0\r",
                          "L,W,1795671440.0,\(a),8.5,400.0,\(b),0.0,nan,4.0,6.0,3", "L,W,1795671440.0,47.0,\(a),400.0,1.5,0.0,nan,\(b),6.0,2",
                          "L,W,1795671440.0,47.0,8.5,400.0,1.5,0.0,nan,4.0,6.0,\(a)", "X,W,1,\(a),\(b),1.0", "AA,W,1,\(a),\(b),1.0"]
            }
        }
        var taken = 0
        for line in lines {
            guard let f = fast(line) else { continue }
            taken += 1
            let (row, problems) = thorough(line)
            #expect(problems.isEmpty, "\(line): \(problems)")
            #expect(row.map { same($0, f) } == true, "\(line)")
        }
        #expect(taken > 100)
    }
}
