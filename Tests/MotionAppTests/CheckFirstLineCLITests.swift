import Foundation
import MotionCore
import Testing

/// Files that break the format but that `summary` reads: `check` counts the rows `summary`
/// counts and does not call them "not a recording". Before, a file without its header lost
/// its first row in `check` (A 99 against summary's 100, "header is not …: not a recording"),
/// and a header without spaces after the commas was "not a recording" too.
@Suite("motionlog check: first lines and line ends summary reads")
struct CheckFirstLineCLITests {
    /// A short simulated recording's CSV text, and a folder to write its variants into
    /// (without metadata: each variant is a file of its own).
    static func recording() throws -> (text: String, folder: String) {
        (try String(contentsOfFile: try recordedFile(), encoding: .utf8), Binary.temporaryDirectory())
    }

    /// The CSV of a short simulated recording, its metadata beside it.
    static func recordedFile() throws -> String {
        try Binary.recordSimulated(["--duration", "3", "--rate", "20", "--sources", "AGL"])
    }

    /// `check`'s verdict and output, with its row count per source equal to `summary --json`'s.
    static func checkAgreesWithSummary(_ path: String) throws -> Binary.Result {
        let (check, object) = try CheckAndSummary.run(path)
        #expect(!check.stdout.contains("not a recording"), "\(check.stdout)")
        // Nor is summary silent where check finds the file breaks the format.
        let findings = (object["health"] as? [String: Any])?["findings"] as? [String] ?? []
        let name = String(path.split(separator: "/").last ?? "")
        #expect(findings.contains { $0.hasPrefix("\(name) breaks the format but was read") } == (check.status == 1),
                "check \(check.status), summary \(findings)")
        return check
    }

    @Test func aFileWithoutItsHeaderIsReadFromItsFirstRow() throws {
        let (text, folder) = try Self.recording()
        let path = folder + "/noheader.csv"
        try String(text.dropFirst(CSVFormat.headerLine.count + 1)).write(toFile: path, atomically: false, encoding: .utf8)
        let check = try Self.checkAgreesWithSummary(path)
        #expect(check.status == 1)
        #expect(check.stdout.contains("noheader.csv:1: error: no header: line 1 is a data row"), "\(check.stdout)")
        #expect(check.stdout.contains("INVALID (1 error)"), "\(check.stdout)")
    }

    /// The header taken off a file that has its metadata beside it: every row is there, so
    /// it is not also "cut short" (fewer bytes than the metadata says, but no row missing).
    @Test func aFileWithoutItsHeaderBesideItsMetadataIsNotCutShort() throws {
        let csv = try Self.recordedFile()
        let text = try String(contentsOfFile: csv, encoding: .utf8)
        try String(text.dropFirst(CSVFormat.headerLine.count + 1)).write(toFile: csv, atomically: false, encoding: .utf8)
        let check = try Self.checkAgreesWithSummary(csv)
        #expect(check.stdout.contains("error: no header"), "\(check.stdout)")
        #expect(!check.stdout.contains("shorter than when it was closed") && !check.stdout.contains("cut short"), "\(check.stdout)")
        #expect(check.stdout.contains("INVALID (1 error)"), "\(check.stdout)")
    }

    @Test func aHeaderWithoutSpacesIsReadAsTheHeader() throws {
        let (text, folder) = try Self.recording()
        let path = folder + "/nospaces.csv"
        try text.replacingOccurrences(of: CSVFormat.headerLine, with: CSVFormat.headerLine.replacingOccurrences(of: ", ", with: ","))
            .write(toFile: path, atomically: false, encoding: .utf8)
        let check = try Self.checkAgreesWithSummary(path)
        #expect(check.status == 1)
        #expect(check.stdout.contains("nospaces.csv:1: error: header \"Source,Label,When,X,Y,Z,UA_X,UA_Y,UA_Z,Pitch,Roll,Yaw\" is spaced differently"),
                "\(check.stdout)")
        #expect(check.stdout.contains("INVALID (1 error)"), "\(check.stdout)")
    }

    /// A file in the format: check valid, and no such finding from summary.
    @Test func aFileInTheFormatHasNoFinding() throws {
        let (text, folder) = try Self.recording()
        let path = folder + "/plain.csv"
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        #expect(try Self.checkAgreesWithSummary(path).status == 0)
    }

    /// Two recordings joined with `cat`: check called the second header "unknown source
    /// \"Source\"" and summary said nothing at all ("nothing needs your attention").
    @Test func aSecondHeaderLineIsOneErrorAndSummaryNamesIt() throws {
        let (text, folder) = try Self.recording()
        // The same recording ten seconds later, so that only the header is out of place.
        let later = text.split(separator: "\n").map { line -> String in
            var fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            if fields.count > 2, let when = Double(fields[2]) { fields[2] = "\(when + 10)" }
            return fields.joined(separator: ",") + "\n"
        }.joined()
        let path = folder + "/joined.csv"
        try (text + later).write(toFile: path, atomically: false, encoding: .utf8)
        let check = try Self.checkAgreesWithSummary(path)
        let second = text.split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(check.stdout.contains("joined.csv:\(second): error: a second header line: files joined together?"), "\(check.stdout)")
        #expect(check.stdout.contains("INVALID (1 error)"), "\(check.stdout)")
        let human = try Binary.run(["summary", path])
        #expect(human.stdout.contains("  ! joined.csv breaks the format but was read: 1 more header line inside it (files joined together?)")
                && !human.stdout.contains("nothing needs your attention"), "\(human.stdout)")
    }

    /// CRLF was already one error with every row read (docs/FORMAT.md); kept so.
    @Test func crlfLinesAreOneErrorAndEveryRowIsCounted() throws {
        let (text, folder) = try Self.recording()
        let path = folder + "/crlf.csv"
        try text.replacingOccurrences(of: "\n", with: "\r\n").write(toFile: path, atomically: false, encoding: .utf8)
        let check = try Self.checkAgreesWithSummary(path)
        #expect(check.status == 1)
        #expect(check.stdout.contains("crlf.csv:1: error: CRLF line end"), "\(check.stdout)")
        // The human report says it too (it said "nothing needs your attention").
        let human = try Binary.run(["summary", path])
        #expect(human.stdout.contains("  ! crlf.csv breaks the format but was read") && !human.stdout.contains("nothing needs your attention"),
                "\(human.stdout)")
        #expect(check.stdout.contains("INVALID (1 error)"), "\(check.stdout)")
    }
}
