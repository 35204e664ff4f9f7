import Foundation
import MotionCore
import Testing

/// `check DIR` checks the recordings in the folder, as `summary DIR` reads them; it used to
/// stop at "Is a directory".
@Suite("motionlog check: folders")
struct CheckFolderCLITests {
    /// A recording of `seconds` rotated every 2 s, in a folder of its own: the folder and
    /// its parts' CSVs (at least `seconds / 2`).
    static func rotated(seconds: Int) throws -> (out: String, csvs: [String]) {
        let out = (try Binary.recordSimulated(["--duration", "\(seconds)", "--rotate-time", "2s", "--sources", "AG"]) as NSString)
            .deletingLastPathComponent
        let csvs = Binary.csvFiles(in: out)
        try #require(csvs.count >= seconds / 2, "\(csvs)")
        return (out, csvs)
    }

    @Test func aFolderStandsForItsRecordings() throws {
        let (out, csvs) = try Self.rotated(seconds: 4)
        let good = try Binary.run(["check", "--quiet", out])
        #expect(good.status == 0, "\(good.stderr)")
        for csv in csvs { #expect(good.stdout.contains("\(csv): valid") || good.stdout.contains("\((csv as NSString).lastPathComponent): valid"), "\(good.stdout)") }
        // A defective line in one of them makes the folder invalid.
        let handle = try #require(FileHandle(forWritingAtPath: csvs[0]))
        handle.seekToEndOfFile()
        handle.write(Data("A,W,not a number,1,2,3\n".utf8))
        try handle.close()
        let bad = try Binary.run(["check", "--quiet", out])
        #expect(bad.status == 1 && bad.stdout.contains("INVALID"), "\(bad.stdout)")
    }

    /// A part missing between two parts of one recording is said (every file was "valid"
    /// and nothing more, while `summary` named the missing part).
    @Test func aPartMissingBetweenTwoIsSaid() throws {
        let (out, csvs) = try Self.rotated(seconds: 6)
        let whole = try Binary.run(["check", "--quiet", out])
        #expect(whole.status == 0 && !whole.stdout.contains("missing"), "\(whole.stdout)")
        try FileManager.default.removeItem(atPath: csvs[1])
        try FileManager.default.removeItem(atPath: RecordingFiles.metadataPath(for: csvs[1]))
        let gap = try Binary.run(["check", "--quiet", out])
        #expect(gap.status == 0 && gap.stdout.contains("The recording's part 2 is missing before this file (after \((csvs[0] as NSString).lastPathComponent))"),
                "\(gap.stdout)")
    }

    /// A file whose metadata says it was not closed (killed, not recovered yet) has valid
    /// rows, and `check` says how it ended, as `summary` does; a closed one says nothing more.
    @Test func aFileThatWasNotClosedSaysSo() throws {
        let out = Binary.temporaryDirectory()
        let r = try Binary.run(["record", "--board", "simulator", "--fast", "--duration", "2", "--sources", "AG", "--out", out, "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let csv = try #require(Binary.csvFiles(in: out).first)
        let closed = try Binary.run(["check", csv])
        #expect(closed.status == 0 && !closed.stdout.contains("did not end cleanly"), "\(closed.stdout)")
        let json = csv.replacingOccurrences(of: ".csv", with: ".json")
        var metadata = try RecordingMetadata.decode(Array(try Data(contentsOf: URL(fileURLWithPath: json))))
        metadata.endedCleanly = false
        metadata.endReason = FileEnding.recordingReason
        try Data(metadata.encoded()).write(to: URL(fileURLWithPath: json))
        let killed = try Binary.run(["check", "--quiet", csv])
        #expect(killed.status == 0 && killed.stdout.contains("\(csv): valid"), "\(killed.stdout)")
        #expect(killed.stdout.contains("The file did not end cleanly: it is still being written, or a power cut or crash cut it off"), "\(killed.stdout)")
    }

    /// A file with more problems than are listed says how many more, and its verdict
    /// counts every error, not the ones listed plus one.
    @Test func theVerdictCountsEveryErrorWhenNotAllAreListed() throws {
        let dir = Binary.temporaryDirectory()
        var csv = CSVFormat.headerLine + "\n"
        for k in 0..<1500 { csv += "A,W,\(1_763_735_405.0 + Double(k)),0.0,0.0,1.0\nA,W,\(1_763_735_405.0 + Double(k)),0.0,0.0,1.0\n" }   // every second row repeats a When
        try csv.write(toFile: dir + "/dup.csv", atomically: false, encoding: .utf8)
        let r = try Binary.run(["check", "--quiet", dir + "/dup.csv"])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stdout.contains("dup.csv: 500 more problems not listed (500 errors, 0 warnings); the first 1000 are above"), "\(r.stdout.suffix(400))")
        #expect(r.stdout.contains("dup.csv: INVALID (1500 errors)"), "\(r.stdout.suffix(400))")
    }

    @Test func aFolderWithoutRecordingsIsAnError() throws {
        let empty = Binary.temporaryDirectory()
        let r = try Binary.run(["check", empty])
        #expect(r.status == 2 && r.stderr.contains("no recordings (.csv) in \(empty)"), "\(r.stderr)")
    }

    /// `summary` and `export` say the same as `check` about a folder without recordings,
    /// with the same exit status (2), not "no timeline … no usable GPS fixes" or exit 1.
    @Test func summaryAndExportSayTheSameAsCheckAboutAnEmptyFolder() throws {
        let empty = Binary.temporaryDirectory()
        let out = Binary.temporaryDirectory() + "/x.json"
        for command in [["summary", empty], ["summary", empty, "--json"], ["export", empty, "--format", "timeline", "-o", out],
                        ["export", empty, "--format", "timeline-geojson"], ["export", empty, "--format", "wide-csv"]] {
            let r = try Binary.run(command)
            #expect(r.status == 2 && r.stderr.contains("no recordings (.csv) in \(empty)"), "\(command): \(r.status) \(r.stderr)")
            #expect(!r.stderr.contains("no timeline") && r.stdout.isEmpty, "\(command): \(r.stdout) \(r.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}
