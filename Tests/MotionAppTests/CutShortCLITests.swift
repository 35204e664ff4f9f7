import Foundation
import MotionCore
import Testing

/// A recording cut short after it was closed (an interrupted copy: the first half of the CSV
/// beside the original metadata) passed `check` as valid and `summary` as "ended cleanly /
/// nothing needs your attention". Its metadata says how many rows and bytes it had.
@Suite("motionlog check and summary: files cut short after recording")
struct CutShortCLITests {
    /// A finished 10 s recording, and a copy of its CSV's first `lines` lines beside a copy
    /// of its metadata, in another folder.
    static func cutCopy(lines: Int) throws -> (original: String, copy: String) {
        let out = Binary.temporaryDirectory()
        let r = try Binary.run(["record", "--board", "simulator", "--fast", "--duration", "10", "--rate", "100", "--sources", "AG",
                                "--out", out, "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let csv = try #require(Binary.csvFiles(in: out).first)
        let text = try String(contentsOfFile: csv, encoding: .utf8)
        let head = text.split(separator: "\n", omittingEmptySubsequences: false).prefix(lines).map { $0 + "\n" }.joined()
        let copies = Binary.temporaryDirectory()
        try head.write(toFile: copies + "/b.csv", atomically: false, encoding: .utf8)
        try FileManager.default.copyItem(atPath: RecordingFiles.metadataPath(for: csv), toPath: copies + "/b.json")
        return (csv, copies + "/b.csv")
    }

    @Test func checkAndSummarySayTheFileIsShorterThanItsMetadata() throws {
        let (original, copy) = try Self.cutCopy(lines: 999)
        let meta = try #require(RecordingFiles.readMetadata(besides: original))
        let a = try #require(meta.file.rows["A"])
        // The original is valid and whole.
        let whole = try Binary.run(["check", "--quiet", original])
        #expect(whole.status == 0 && !whole.stdout.contains("shorter"), "\(whole.stdout)")

        let size = try #require(try FileManager.default.attributesOfItem(atPath: copy)[.size] as? Int)
        let check = try Binary.run(["check", copy])
        #expect(check.status == 1, "\(check.stdout)")
        #expect(check.stdout.contains("b.csv is shorter than when it was closed: the metadata says \(a) A rows"), "\(check.stdout)")
        #expect(check.stdout.contains("the file has 499 A rows, 499 G rows and"), "\(check.stdout)")
        #expect(check.stdout.contains(" bytes — it was cut short after recording (an interrupted copy?)"), "\(check.stdout)")
        #expect(size < meta.file.bytes && check.stdout.contains("INVALID"), "\(check.stdout)")

        let summary = try Binary.run(["summary", copy])
        #expect(summary.status == 0, "\(summary.stderr)")
        #expect(summary.stdout.contains("b.csv is shorter than when it was closed"), "\(summary.stdout)")
        #expect(!summary.stdout.contains("nothing needs your attention"), "\(summary.stdout)")
    }

    /// Rows damaged inside a file that still ends with its last row (a field lost from one
    /// row, fewer bytes): damaged, not cut short. It said "cut short after recording (an
    /// interrupted copy?)".
    @Test func rowsDamagedInsideAreNotCalledACut() throws {
        let (original, copy) = try Self.cutCopy(lines: 2001)   // the whole file
        #expect(FileManager.default.contentsEqual(atPath: original, andPath: copy))
        var lines = try String(contentsOfFile: copy, encoding: .utf8).split(separator: "\n").map(String.init)
        lines[500] = lines[500].split(separator: ",").dropLast().joined(separator: ",")   // a field lost
        try (lines.joined(separator: "\n") + "\n").write(toFile: copy, atomically: false, encoding: .utf8)
        for command in [["check", copy], ["summary", copy]] {
            let r = try Binary.run(command)
            #expect(r.stdout.contains("b.csv has fewer rows than when it was closed") && r.stdout.contains("rows were damaged after recording"), "\(r.stdout)")
            #expect(!r.stdout.contains("cut short"), "\(r.stdout)")
        }
    }

    /// The file being recorded is longer than its metadata says until the next rewrite: not
    /// cut short. Nor is a file whose metadata says it did not end cleanly and is shorter
    /// (recovery's business, and the summary says how it ended).
    @Test func aFileThatDidNotEndCleanlyIsNotCheckedAgainstItsCounts() throws {
        let (_, copy) = try Self.cutCopy(lines: 999)
        let json = RecordingFiles.metadataPath(for: copy)
        var meta = try RecordingMetadata.decode(Array(try Data(contentsOf: URL(fileURLWithPath: json))))
        meta.endedCleanly = false
        meta.endReason = FileEnding.recordingReason
        try Data(meta.encoded()).write(to: URL(fileURLWithPath: json))
        let check = try Binary.run(["check", "--quiet", copy])
        #expect(check.status == 0 && !check.stdout.contains("shorter"), "\(check.stdout)")
        // Longer than the metadata says (rows written since it was last rewritten).
        meta.file.rows = ["A": 10, "G": 10]
        meta.file.bytes = 1000
        try Data(meta.encoded()).write(to: URL(fileURLWithPath: json))
        let longer = try Binary.run(["check", "--quiet", copy])
        #expect(longer.status == 0 && !longer.stdout.contains("shorter"), "\(longer.stdout)")
    }
}
