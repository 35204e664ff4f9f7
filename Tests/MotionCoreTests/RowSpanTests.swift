import Foundation
import MotionCore
import Testing

/// The first and last row's When, read from a file's two ends only (`RowSpan`).
@Suite struct RowSpanTests {
    static func write(_ text: String) throws -> String {
        let path = temporaryDirectory() + "/span.csv"
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    /// Rows of `count` ticks 0.01 s apart from `start`, an A row and every tenth an L row.
    static func rows(from start: Double, count: Int) -> String {
        var s = ""
        for i in 0..<count {
            let t = start + Double(i) / 100
            s += "A,W,\(t),0.01,-0.02,0.98\n"
            if i % 10 == 0 { s += "L,W,\(t),48.1,11.5,520.0,5.0,45.0,3.0,5.0,0.0,3\n" }
        }
        return s
    }

    @Test func aSmallFilesFirstAndLastRowsPassingOverItsHeaderAndTornEnd() throws {
        let path = try Self.write(CSVFormat.headerLine + "\n" + Self.rows(from: 1_790_000_000, count: 50) + "A,W,1790009999.0,0.1")
        let span = try #require(RowSpan.whens(ofFileAt: path))
        #expect(span.first == 1_790_000_000)
        #expect(span.last == 1_790_000_000 + Double(49) / 100)
    }

    /// Hundreds of windows long: only the ends are read, and a tail window that starts inside
    /// a line does not take that line's end for a row; damage at the very end is passed over.
    @Test func aLargeFilesEndsWithDamageAfterItsLastRow() throws {
        let body = Self.rows(from: 1_790_000_000, count: 200_000)
        let path = try Self.write(CSVFormat.headerLine + "\n" + body + "X,garbage\n\n")
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0 > 100 * RowSpan.window)
        let span = try #require(RowSpan.whens(ofFileAt: path))
        #expect(span.first == 1_790_000_000)
        #expect(span.last == 1_790_000_000 + Double(199_999) / 100)
    }

    /// A file without its header starts with a row, which counts.
    @Test func aFileWithoutItsHeaderStartsWithItsFirstRow() throws {
        let path = try Self.write(Self.rows(from: 5, count: 3))
        let span = try #require(RowSpan.whens(ofFileAt: path))
        #expect(span.first == 5 && span.last == 5 + Double(2) / 100)
    }

    @Test func nothingWhereNoRowCanBeRead() throws {
        #expect(RowSpan.whens(ofFileAt: try Self.write(CSVFormat.headerLine + "\n")) == nil)
        #expect(RowSpan.whens(ofFileAt: try Self.write("")) == nil)
        #expect(RowSpan.whens(ofFileAt: try Self.write("not,a recording\nat all\n")) == nil)
        #expect(RowSpan.whens(ofFileAt: temporaryDirectory() + "/missing.csv") == nil)
    }
}
