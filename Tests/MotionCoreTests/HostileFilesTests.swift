import Foundation
import MotionCore
import Testing

/// The shared reader on files that are not (quite) recordings (issue 10, items 6 and 7).
@Suite("Reader on hostile files")
struct HostileFilesTests {
    static let header = CSVFormat.headerLine + "\n"

    func write(_ bytes: [UInt8]) throws -> String {
        let path = temporaryDirectory() + "/x.csv"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    func read(_ bytes: [UInt8], chunk: Int = 1 << 18) throws -> (rows: [Row], problems: [RecordingProblem], summary: RecordingReadSummary) {
        let path = try write(bytes)
        var reader = RecordingReader(path: path)
        reader.chunkBytes = chunk
        var rows: [Row] = [], problems: [RecordingProblem] = []
        let summary = try reader.read { item in
            switch item {
            case .row(_, let r): rows.append(r)
            case .problem(let p): problems.append(p)
            }
        }
        return (rows, problems, summary)
    }

    @Test func aBinaryFileIsNotARecordingAndReadingStops() throws {
        var elf: [UInt8] = [0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x01, 0x00]
        for i in 0..<100_000 { elf.append(UInt8(truncatingIfNeeded: i &* 31)) }
        let (rows, problems, summary) = try read(elf)
        #expect(rows.isEmpty)
        #expect(problems.count == 1)
        #expect(problems.first?.message == "not a recording (binary data at byte 0)")
        #expect(summary.stoppedAtBinary)
        // The check report is one line, not a thousand lines of raw bytes.
        let report = try RecordingCheck.check(path: try write(elf))
        #expect(report.problems.count == 1 && !report.isValid)
    }

    @Test func zerosAfterRowsStopReadingAtTheirByte() throws {
        let good = Self.header + "A,W,1.0,0.0,0.0,-1.0\n"
        let bytes = Array(good.utf8) + [UInt8](repeating: 0, count: 4096)
        let (rows, problems, _) = try read(bytes)
        #expect(rows.count == 1)
        #expect(problems.count == 1)
        #expect(problems[0].line == 3 && problems[0].message.contains("binary data at byte \(good.utf8.count)"), "\(problems)")
    }

    @Test func aLineLongerThanAnyRowIsAnErrorAtOnceAndReadingGoesOn() throws {
        // 300 000 commas (the 200 MB line, scaled down) read in 4 KiB chunks.
        let bytes = Array(Self.header.utf8) + [UInt8](repeating: 0x2C, count: 300_000) + [0x0A]
            + Array("A,W,1.0,0.0,0.0,-1.0\n".utf8)
        let (rows, problems, summary) = try read(bytes, chunk: 4096)
        #expect(rows.count == 1)
        #expect(problems.count == 1)
        #expect(problems[0].line == 2 && problems[0].message.contains("longer than \(CSVFormat.maxLineBytes) bytes"), "\(problems)")
        #expect(summary.lines == 3 && summary.skippedLines == 1)
        // Unterminated at the end of the file: still an error, not a torn-line warning.
        let tail = Array(Self.header.utf8) + [UInt8](repeating: 0x2C, count: 5000)
        let (_, p2, _) = try read(tail, chunk: 1000)
        #expect(p2.count == 1 && p2[0].severity == .error && p2[0].line == 2, "\(p2)")
    }

    @Test func aFileWithoutAnyLineFeedIsNotValid() throws {
        let (_, problems, _) = try read(Array(CSVFormat.headerLine.utf8))
        #expect(problems.contains { $0.severity == .error && $0.message.contains("no line end") }, "\(problems)")
        let report = try RecordingCheck.check(path: try write(Array("A,W,1.0,0.0,0.0,-1.0".utf8)))
        #expect(!report.isValid)
    }

    @Test func crlfIsOneErrorAndEveryRowIsRead() throws {
        var text = Self.header
        for i in 1...50 { text += "A,W,\(Double(i)),0.0,0.0,-1.0\n" }
        let crlf = text.replacingOccurrences(of: "\n", with: "\r\n")
        let (rows, problems, summary) = try read(Array(crlf.utf8))
        #expect(rows.count == 50)
        #expect(problems.count == 1 && problems[0].line == 1 && problems[0].message.hasPrefix("CRLF"), "\(problems)")
        #expect(summary.skippedLines == 0)
    }

    /// A first line that is a row (no header) is read as a row, the header spaced otherwise
    /// as the header, each one error; zeros later are then a damaged stretch, not a stop.
    /// Any other first line is one error too, and binary data after it still stops reading.
    @Test func aFirstLineThatIsNotTheHeaderIsReadAsSummaryReadsIt() throws {
        var rows = ""
        for i in 1...50 { rows += "A,W,\(Double(i)),0.0,0.0,-1.0\n" }
        let zeros = [UInt8](repeating: 0, count: 10) + Array("\nA,W,99.0,0.0,0.0,-1.0\n".utf8)
        let noHeader = try read(Array(rows.utf8) + zeros)
        #expect(noHeader.rows.count == 51)
        #expect(noHeader.problems.count == 2 && noHeader.problems[0].line == 1
                && noHeader.problems[0].message.hasPrefix("no header: line 1 is a data row"), "\(noHeader.problems)")
        #expect(!noHeader.summary.stoppedAtBinary)
        let spaced = try read(Array((Self.header.replacingOccurrences(of: ", ", with: ",") + rows).utf8))
        #expect(spaced.rows.count == 50)
        #expect(spaced.problems.count == 1 && spaced.problems[0].message.contains("spaced differently"), "\(spaced.problems)")
        let other = try read(Array(("hello\n" + rows).utf8) + zeros)
        #expect(other.rows.count == 50)
        #expect(other.problems.first?.message.hasPrefix("the first line is neither the header") == true, "\(other.problems)")
        #expect(other.summary.stoppedAtBinary)
    }

    @Test func valuesOutOfRangeAreErrorsWithTheirLine() throws {
        let huge = String(repeating: "9", count: 400)  // reads as inf
        let text = Self.header
            + "L,W,1.0,91.0,10.0,0.0,0.0,0.0,0.0,1.0,1.0,3\n"       // 2: latitude
            + "L,W,2.0,45.0,200.0,0.0,0.0,0.0,0.0,1.0,1.0,3\n"      // 3: longitude
            + "A,W,3.0,\(huge),0.0,0.0\n"                            // 4: inf
            + "A,W,1e300,0.0,0.0,0.0\n"                              // 5: When beyond 9999
            + "L,W,4.0,nan,10.0,0.0,0.0,0.0,0.0,1.0,1.0,3\n"         // 6: latitude nan
            + "L,W,5.0,45.0,10.0,0.0,-1.0,0.0,0.0,1.0,1.0,3\n"       // 7: negative speed
            + "L,W,6.0,-90.0,180.0,nan,nan,nan,nan,nan,nan,2\n"      // 8: valid
            + "A,W,7.0,nan,-0.0,1e-05\n"                             // 9: valid
        let (rows, problems, summary) = try read(Array(text.utf8))
        #expect(rows.count == 2)
        #expect(problems.map(\.line) == [2, 3, 4, 5, 6, 7], "\(problems)")
        #expect(problems.allSatisfy { $0.severity == .error && $0.message.contains("out of range") })
        #expect(problems[0].message.contains("latitude"))
        #expect(problems[1].message.contains("longitude"))
        #expect(summary.skippedLines == 6)
    }

    @Test func relativeLocationWhenIsTheShortestDecimal() {
        let when = RelativeWhen.of(epochSeconds: 1_763_735_405.92, offset: 1_763_735_405.0)
        #expect("\(when)" == "0.92")
        #expect(RelativeWhen.of(epochSeconds: 1_763_735_405.92, offset: 0) == 1_763_735_405.92)
        #expect(RelativeWhen.of(epochSeconds: 1_763_735_404.5, offset: 1_763_735_405.01) == -0.51)
    }

    @Test func gpxWritesLongitude180AsMinus180() throws {
        let track = LocationTrack(points: [TrackPoint(time: 1_763_735_405, latitude: 10, longitude: 180)])
        let gpx = try GPXWriter.document(track, name: "t", creator: "c")
        #expect(gpx.contains("lon=\"-180\""), "\(gpx)")
        #expect(!gpx.contains("lon=\"180\""))
    }
}
