import Foundation
import MotionCore
import Testing
@testable import motionlog_bench

/// The C and Python baselines read the rows from a binary file; these tests pin its layout
/// (decoded here independently of `RowMix`) and the check that all writers wrote the same rows.
@Suite struct BaselineInputTests {
    func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("motionlog-bench-tests-\(getpid())-\(name)").path
    }

    @Test func rowMixIsTheRealMixOfAllSources() throws {
        let rows = try RowMix.generate(ticks: 2500)
        let census = RowMix.census(rows)
        #expect(census["A"] == 2500 && census["G"] == 2500 && census["M"] == 2500 && census["D"] == 2500)
        #expect((2...3).contains(census["L"] ?? 0))  // 1 Hz fixes over 2.5 s
    }

    @Test func binaryRecordsAre88LittleEndianBytes() throws {
        let rows = [
            Row(source: .accelerometer, label: 0x57, when: 1763735405.001, 0.25, -0.5, -1),
            Row(source: .location, label: 0x54, when: 1763735405.0,
                values: (52.5, 13.4, 34.2, 5.12, 87.5, 0, 3.1, 4.6, 3)),
        ]
        let path = temporaryPath("rows.bin")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try RowMix.writeBinary(rows, to: path)
        let data = try #require(FileManager.default.contents(atPath: path))
        #expect(data.count == 2 * 88)
        let bytes = [UInt8](data)
        func double(_ offset: Int) -> Double {
            var bits: UInt64 = 0
            for i in 0..<8 { bits |= UInt64(bytes[offset + i]) << (8 * UInt64(i)) }
            return Double(bitPattern: bits)
        }
        #expect(bytes[0] == UInt8(ascii: "A") && bytes[1] == UInt8(ascii: "W"))
        #expect(bytes[2..<8].allSatisfy { $0 == 0 })
        #expect(double(8) == 1763735405.001)
        #expect([double(16), double(24), double(32)] == [0.25, -0.5, -1])
        #expect(double(40) == 0)  // unused values are zero
        #expect(bytes[88] == UInt8(ascii: "L") && bytes[89] == UInt8(ascii: "T"))
        #expect(double(88 + 16) == 52.5)
        #expect(double(88 + 80) == 3)  // the fix mode, last of nine values
    }

    @Test func sameRowsCheckAcceptsDifferentTextOfTheSameNumbers() throws {
        let ours = temporaryPath("ours.csv"), c = temporaryPath("c.csv")
        defer { for p in [ours, c] { try? FileManager.default.removeItem(atPath: p) } }
        try (CSVFormat.headerLine + "\nA,W,1763735405.001,1e-05,-0.1,3.0\n").write(toFile: ours, atomically: true, encoding: .utf8)
        try "A,W,1763735405.001,not-a-number,-0.1,3.0\n".write(toFile: c, atomically: true, encoding: .utf8)
        #expect(SameRowsCheck.mismatch(reference: ours, others: [c]) != nil)
        // What snprintf("%.17g") prints for the same doubles.
        try "A,W,1763735405.0009999,1.0000000000000001e-05,-0.10000000000000001,3\n"
            .write(toFile: c, atomically: true, encoding: .utf8)
        #expect(SameRowsCheck.mismatch(reference: ours, others: [c]) == nil)
    }

    @Test func sameRowsCheckFindsADifferentValueOrACountMismatch() throws {
        let ours = temporaryPath("ours2.csv"), other = temporaryPath("other2.csv")
        defer { for p in [ours, other] { try? FileManager.default.removeItem(atPath: p) } }
        try "A,W,1.5,1.0,2.0,3.0\nG,W,1.5,0.1,0.2,0.3\n".write(toFile: ours, atomically: true, encoding: .utf8)
        try "A,W,1.5,1.0,2.0,3.0\nG,W,1.5,0.1,0.2,0.30000000000000004\n".write(toFile: other, atomically: true, encoding: .utf8)
        let differs = try #require(SameRowsCheck.mismatch(reference: ours, others: [other]))
        #expect(differs.contains("row 2"))
        try "A,W,1.5,1.0,2.0,3.0\n".write(toFile: other, atomically: true, encoding: .utf8)
        let short = try #require(SameRowsCheck.mismatch(reference: ours, others: [other]))
        #expect(short.contains("1 rows"))
    }
}
