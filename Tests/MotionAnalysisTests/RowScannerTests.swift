import Foundation
@testable import MotionAnalysis
import MotionCore
import Testing
import MotionTestSupport

/// `RowScanner` parses each row in one pass that also finds the line's end; whatever that
/// pass does not accept goes to the whole-line parser. Both must see the same rows and
/// count the same headers and defects, on every kind of line and across buffer boundaries.
@Suite struct RowScannerTests {
    /// Every row, as text, so two scans compare exactly (NaN included).
    struct Collector: RowSink {
        var rows: [String] = []
        mutating func row(_ source: Source, when: Double, values: UnsafeBufferPointer<Double>) {
            rows.append("\(source.letter) \(when.bitPattern) " + values.map { String($0.bitPattern) }.joined(separator: " "))
        }
    }

    /// Lines of every kind: valid rows (LF and CR LF), headers and defects.
    static let kinds = [
        "A,W,1763735405.001,0.024619389108603753,-0.9290154097404764,13.367025452453682",
        "G,W,1763735405.001,-2.1365325080272782e-05,0.0,-0.0",
        "M,W,1763735405.001,20.5,-3.25,40.125",
        "D,W,1763735405.001,0.1,0.2,0.3,-0.004,0.005,1e-05,0.7,0.8,-3.1",
        "L,W,1763735405.9,52.52000809180358,13.405,34.0,nan,0.0,nan,3.0,4.0,3",
        "A,W,1763735405.002,nan,1,2\r",
        "A,W,1763735405.003,+1.5,.5,5.\r",
        "A,W,1763735405.004,1E5,-1e+05,123456789012345678901234",
        "Source, Label, When, X, Y, Z, UA_X, UA_Y, UA_Z, Pitch, Roll, Yaw",
        "",
        "\r",
        "A,W",
        "A,W,",
        "A,W,1,2,3",
        "A,W,1,2,3,4,5",
        "A,W,1,2,3,",
        "A,W,1,2,3,4,",
        "A,W,1,2,3,4\r\r",
        "A,W,1,2\r,3,4",
        "A,w,1,2,3,4",
        "X,W,1,2,3,4",
        "A,W,nan,1,2,3",
        "A,W,inf,1,2,3",
        "A,W,1,2,3,infinity",
        "A,W,1,2,3,na",
        "A,W,1,2,3,1e",
        "A,W,1,2,3, 4",
        "A,W,1,2,3,4 ",
        "A,W,1.2.3,2,3,4",
        "AW,1,2,3,4",
        "So",
        "Sou",
        "L,W,1763735405.9,52.5,13.4,34.0,nan,0.0,nan,3.0,4.0",
        "D,W,1,2,3,4,5,6,7,8,9,10,11",
        String(repeating: "9", count: 5000),
        "A,W,1763735405.005," + String(repeating: "1", count: 3000) + ",2,3",
    ]

    func scanBothWays(_ text: String) throws -> (fast: (Collector, ScanCounts), lines: (Collector, ScanCounts)) {
        let dir = try ScenarioRecording.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/rows.csv"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        var fast = Collector(), fastCounts = ScanCounts()
        try RowScanner.scan(path: path, whenOffset: 0.5, into: &fast, counts: &fastCounts)
        var slow = Collector(), slowCounts = ScanCounts()
        var parser = RowParser(whenOffset: 0.5)
        defer { parser.deallocate() }
        var reading = ScanCounts()
        try BlockReader.forEachLine(path: path, counts: &reading) { p, count in
            parser.parseLine(p, count: count, sink: &slow, counts: &slowCounts)
        }
        slowCounts.bytes = reading.bytes; slowCounts.badLines += reading.badLines; slowCounts.tornLines = reading.tornLines
        return ((fast, fastCounts), (slow, slowCounts))
    }

    @Test(arguments: 1...6) func onePassAgreesWithTheWholeLineParser(seed: UInt64) throws {
        var rng = SplitMix(state: seed)
        var text = ""
        // Over 2 MiB, so lines straddle the 1 MiB chunks (each seed at other places).
        while text.utf8.count < 2_300_000 {
            text += Self.kinds[Int.random(in: 0..<Self.kinds.count, using: &rng)] + "\n"
        }
        text += "A,W,1763735405.006,1,2"   // torn
        let (fast, lines) = try scanBothWays(text)
        #expect(fast.1 == lines.1, "\(fast.1) vs \(lines.1)")
        #expect(fast.0.rows == lines.0.rows)
        #expect(fast.1.rows > 1000 && fast.1.badLines > 1000 && fast.1.headers > 100 && fast.1.tornLines == 1, "\(fast.1)")
    }

    @Test func eachKindOfLineAlone() throws {
        for kind in Self.kinds {
            let (fast, lines) = try scanBothWays(kind + "\n" + kind + "\n")
            #expect(fast.1 == lines.1, "\(kind): \(fast.1) vs \(lines.1)")
            #expect(fast.0.rows == lines.0.rows, "\(kind)")
        }
        let (rows, _) = try scanBothWays(Self.kinds[0] + "\n" + Self.kinds[5] + "\n" + Self.kinds[6] + "\n")
        #expect(rows.1.rows == 3 && rows.1.badLines == 0)
    }

    @Test func valuesAreTheStandardLibrarysDoubles() throws {
        let line = Self.kinds[3]
        let (fast, _) = try scanBothWays(line + "\n")
        let fields = line.split(separator: ",").dropFirst(2).map { Double(String($0))! }
        let want = "D \((fields[0] + 0.5).bitPattern) " + fields.dropFirst().map { String($0.bitPattern) }.joined(separator: " ")
        #expect(fast.0.rows == [want])
    }

    /// Reads only some values, as the analysis does (the others must arrive as NaN).
    struct MaskedCollector: RowSink {
        var inner = Collector()
        mutating func row(_ source: Source, when: Double, values: UnsafeBufferPointer<Double>) {
            inner.row(source, when: when, values: values)
        }
        func valuesRead(_ source: Source) -> UInt32 { source == .deviceMotion ? 0b11_1000 : source == .gyroscope ? 0b10 : .max }
    }

    @Test("several processors at once give the sink the same rows in the same order, and the same counts", arguments: [1, 2])
    func parallelAgreesWithOneThread(seed: UInt64) throws {
        var rng = SplitMix(state: seed)
        var text = ""
        // Over 9 MiB: several rounds of blocks, lines straddling every block boundary.
        while text.utf8.count < 9_500_000 {
            text += Self.kinds[Int.random(in: 0..<Self.kinds.count, using: &rng)] + "\n"
        }
        text += "A,W,1763735405.006,1,2"   // torn
        let dir = try ScenarioRecording.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/rows.csv"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        var one = MaskedCollector(), oneCounts = ScanCounts()
        try RowScanner.scan(path: path, whenOffset: 0.5, into: &one, counts: &oneCounts, parallel: false)
        var many = MaskedCollector(), manyCounts = ScanCounts()
        try ParallelRowScanner.scan(path: path, whenOffset: 0.5, into: &many, counts: &manyCounts)
        #expect(manyCounts == oneCounts, "\(manyCounts) vs \(oneCounts)")
        #expect(many.inner.rows == one.inner.rows)
        // Read with read(2) instead of in place, on one processor and on several.
        for parallel in [false, true] {
            var read = MaskedCollector(), readCounts = ScanCounts()
            try RowScanner.scan(path: path, whenOffset: 0.5, into: &read, counts: &readCounts, parallel: parallel, mapped: false)
            #expect(readCounts == oneCounts, "\(parallel): \(readCounts) vs \(oneCounts)")
            #expect(read.inner.rows == one.inner.rows)
        }
        #expect(oneCounts.rows > 5_000 && oneCounts.tornLines == 1 && oneCounts.badLines > 5_000, "\(oneCounts)")
        // An empty file and a file of one line.
        for small in ["", Self.kinds[0] + "\n"] {
            try small.write(toFile: path, atomically: true, encoding: .utf8)
            var a = Collector(), ac = ScanCounts(), b = Collector(), bc = ScanCounts()
            try RowScanner.scan(path: path, whenOffset: 0, into: &a, counts: &ac, parallel: false)
            try ParallelRowScanner.scan(path: path, whenOffset: 0, into: &b, counts: &bc)
            #expect(ac == bc && a.rows == b.rows)
            var c = Collector(), cc = ScanCounts()
            try ParallelRowScanner.scan(path: path, whenOffset: 0, into: &c, counts: &cc, mapped: false)
            #expect(ac == cc && a.rows == c.rows)
        }
        // Lines longer than the reader keeps, last: torn, and over-long and torn.
        for tail in ["A,W,1763735405.006,1,2", String(repeating: "7", count: 5000)] {
            try (Self.kinds[0] + "\n" + tail).write(toFile: path, atomically: true, encoding: .utf8)
            var a = Collector(), ac = ScanCounts(), b = Collector(), bc = ScanCounts()
            try RowScanner.scan(path: path, whenOffset: 0, into: &a, counts: &ac, parallel: false, mapped: false)
            try RowScanner.scan(path: path, whenOffset: 0, into: &b, counts: &bc)
            #expect(ac == bc && a.rows == b.rows && ac.rows == 1 && ac.tornLines + ac.badLines == 1, "\(ac) vs \(bc)")
        }
    }

    /// A file of 3 MB of A and L rows in a new folder: the folder, the file and its size.
    static func threeMegabytesOfRows() throws -> (dir: String, path: String, size: Int64) {
        var text = ""
        while text.utf8.count < 3_000_000 { text += kinds[0] + "\n" + kinds[4] + "\n" }
        let dir = try ScenarioRecording.tempDir()
        try text.write(toFile: dir + "/rows.csv", atomically: true, encoding: .utf8)
        return (dir, dir + "/rows.csv", Int64(text.utf8.count))
    }

    /// A file truncated while it is scanned (another program, or the recorder cutting back
    /// a write on a full card, while the web page reads it) is an error that says so, on
    /// one processor and on several, and not a SIGBUS that ends the process.
    @Test(arguments: [false, true]) func aFileThatShrinksWhileItIsScannedIsAnError(parallel: Bool) throws {
        let (dir, path, _) = try Self.threeMegabytesOfRows()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var sink = Collector(), counts = ScanCounts()
        var truncated = false
        #expect {
            try RowScanner.scan(path: path, whenOffset: 0, into: &sink, counts: &counts, parallel: parallel) { _ in
                if !truncated { truncated = truncate(path, 100) == 0 }
            }
        } throws: { error in
            (error as? ScanError).map { $0.changedWhileRead && "\($0)".contains("shrank while it was being read") } ?? false
        }
        #expect(truncated)
    }

    /// The progress told while reading (a meter for `summary` and the timeline exports):
    /// rising, on both scanners, to the size of the file (less a torn last line), and for
    /// several files with the bytes of those before.
    @Test func progressRisesToTheFileSize() throws {
        let (dir, path, size) = try Self.threeMegabytesOfRows()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for parallel in [false, true] {
            var told: [Int64] = []
            var sink = Collector(), counts = ScanCounts()
            try RowScanner.scan(path: path, whenOffset: 0, into: &sink, counts: &counts, parallel: parallel) { told.append($0) }
            #expect(told.count >= 3 && zip(told, told.dropFirst()).allSatisfy { $0 <= $1 } && told.last == size,
                    "\(parallel): \(told)")
        }
        var calls: [(String, Int64, Int64)] = []
        _ = try RecordingAnalyzer.summarize([path, path]) { calls.append(($0, $1, $2)) }
        #expect(calls.first?.1 == 0 && calls.last?.1 == size && calls.last?.2 == size, "\(calls.suffix(2))")
        // The wide CSV's reading line by line, likewise.
        var wide: [(String, Int64, Int64)] = []
        var export = WideCSVExport { _ in }
        try export.convert([path, path]) { wide.append(($0, $1, $2)) }
        #expect(wide.count > 4 && wide.last?.1 == size && wide.last?.2 == size, "\(wide.suffix(2))")
        #expect(zip(wide, wide.dropFirst()).allSatisfy { $0.1 + $0.2 <= $1.1 + $1.2 })
    }
}
