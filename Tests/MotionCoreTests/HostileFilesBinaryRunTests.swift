import Foundation
import MotionCore
import MotionTestSupport
import Testing

/// Binary data inside a recording is one defect, and reading goes on at the next valid row
/// (check stopped at 4 KiB of zeros written into a finished file, counting A 222 where
/// summary and recovery counted A 534). A file that is binary from its start, or mostly
/// binary after a header, still stops the reader.
extension HostileFilesTests {
    /// `count` A rows at 10 Hz, 41 bytes each.
    static func rows(_ count: Int) -> String {
        (0..<count).map { "A,W,\(1_763_735_405 + Double($0) / 10),0.01,-0.02,1.0\n" }.joined()
    }

    @Test(arguments: [1 << 18, 1000, 97])
    func zerosInsideARecordingAreOneDefectAndReadingGoesOn(chunk: Int) throws {
        var bytes = Array((Self.header + Self.rows(300)).utf8)
        let at = 5000
        for i in at..<(at + 4096) { bytes[i] = 0 }
        let (rows, problems, summary) = try read(bytes, chunk: chunk)
        // The zeros overwrote the line ends too: the lines they touch (one here) are skipped.
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let firstLine = lines.prefix { !$0.contains("\0") }.count + 1
        let touched = lines.filter { $0.contains("\0") }.count
        let skipped = touched == 1 ? "line \(firstLine)" : "lines \(firstLine)–\(firstLine + touched - 1)"
        #expect(rows.count == lines.count - 2 - touched && rows.count > 150, "\(rows.count) rows, \(touched) lines with zeros")
        #expect(problems.count == 1, "\(problems)")
        let p = try #require(problems.first)
        #expect(p.severity == .error && p.line == firstLine, "\(p)")
        #expect(p.message.hasPrefix("binary data at byte \(at) up to byte \(at + 4095) (4096 bytes): \(skipped) skipped"), "\(p)")
        #expect(p.message.hasSuffix("reading went on at line \(firstLine + touched)"), "\(p)")
        #expect(!summary.stoppedAtBinary && summary.bytes == Int64(bytes.count))
        #expect(summary.lines == lines.count - 1 && summary.skippedLines == touched, "\(summary)")
        // The check counts what the reader read, in one problem.
        let report = try RecordingCheck.check(path: try write(bytes))
        #expect(report.sources[.accelerometer]?.rows == rows.count && report.problems.count == 1, "\(report.problems)")
    }

    /// Random bytes after a valid header: one problem, and not more than the limit is read
    /// (one chunk beyond it at most).
    @Test func randomBytesAfterTheHeaderStillStopReading() throws {
        var random = SplitMix(state: 42)
        var bytes = Array((Self.header + Self.rows(10)).utf8)
        let start = bytes.count
        for _ in 0..<(3 << 20) { bytes.append(UInt8(truncatingIfNeeded: random.next())) }
        let (rows, problems, summary) = try read(bytes, chunk: 1 << 16)
        // Binary data starts at the first control character other than TAB, CR and LF.
        let first = try #require(bytes[start...].firstIndex { ($0 < 0x20 && ![0x09, 0x0A, 0x0D].contains($0)) || $0 == 0x7F })
        #expect(rows.count == 10)
        #expect(problems.count == 1, "\(problems.prefix(3))")
        #expect(problems.first?.message.hasPrefix("binary data at byte \(first), and more than 1 MiB after it without a valid row") == true, "\(problems)")
        #expect(problems.first?.message.hasSuffix("reading stopped") == true)
        #expect(summary.stoppedAtBinary && summary.bytes <= Int64(start + (1 << 20) + (1 << 16)), "\(summary.bytes)")
    }
}
