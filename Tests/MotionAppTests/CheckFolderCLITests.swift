import Foundation
import MotionCore
import Testing

/// `check DIR` checks the recordings in the folder, as `summary DIR` reads them; it used to
/// stop at "Is a directory".
@Suite("motionlog check: folders")
struct CheckFolderCLITests {
    @Test func aFolderStandsForItsRecordings() throws {
        let out = Binary.temporaryDirectory()
        let r = try Binary.run(["record", "--board", "simulator", "--fast", "--duration", "4", "--rotate-time", "2s",
                                "--sources", "AG", "--out", out, "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let csvs = Binary.csvFiles(in: out)
        try #require(csvs.count >= 2, "\(csvs)")
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

    @Test func aFolderWithoutRecordingsIsAnError() throws {
        let empty = Binary.temporaryDirectory()
        let r = try Binary.run(["check", empty])
        #expect(r.status == 2 && r.stderr.contains("no recordings (.csv) in \(empty)"), "\(r.stderr)")
    }
}
