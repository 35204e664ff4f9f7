import MotionCore
import Testing
import MotionTestSupport

@Suite("Reader and writer agree")
struct ReaderRoundTripTests {
    @Test func randomRowsRoundTripBitForBit() throws {
        var g = SplitMix(state: 7)
        var rows: [Row] = []
        var when = 1_763_735_405.0
        let specials: [Double] = [.nan, -0.0, 1e-05, 1e300, -2.5e-308]
        for i in 0..<5000 {
            let source = Source.canonicalOrder[i % 5]
            if i % 5 == 0 { when += 0.01 }
            func v() -> Double { g.next() % 17 == 0 ? specials[Int(g.next() % 5)] : Double.random(in: -1e4...1e4, using: &g) }
            var r = Row(source: source, label: UInt8(0x41 + g.next() % 26), when: when,
                        values: (v(), v(), v(), v(), v(), v(), v(), v(), v()))
            if source == .location {
                // L values within their ranges (docs/FORMAT.md); specials where allowed.
                r.values.0 = Double.random(in: -90...90, using: &g)
                r.values.1 = g.next() % 17 == 0 ? 180 : Double.random(in: -180...180, using: &g)
                r.values.3 = r.values.3.magnitude
                r.values.6 = r.values.6.magnitude
                r.values.7 = r.values.7.magnitude
                r.values.8 = g.next() % 2 == 0 ? 2 : 3
            }
            rows.append(r)
        }
        var bytes = CSVFormat.headerBytes
        for r in rows { RowEncoder.append(r, to: &bytes) }
        let (back, problems) = try readRows(String(decoding: bytes, as: UTF8.self))
        #expect(problems.isEmpty)
        #expect(back.count == rows.count)
        for (a, b) in zip(rows, back) { #expect(a == b) }
    }

    @Test func headerOnlyFileIsValidAndEmpty() throws {
        let (rows, problems) = try readRows(CSVFormat.headerLine + "\n")
        #expect(rows.isEmpty && problems.isEmpty)
    }

    @Test func missingFileIsAnIOError() {
        #expect(throws: RecordingReadError.self) { try RecordingReader(path: "/nonexistent/x.csv").readAll() }
    }
}
