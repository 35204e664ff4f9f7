import Foundation
import MotionCore
import Testing

/// 4 KiB of zeros written into a finished recording: `check` stopped at them ("the rest of
/// the file is not a recording; reading stopped", A 222) while `summary` read past them
/// (A 534). Now it reports the binary range as a defect and counts what summary counts.
@Suite("motionlog check: binary data inside a recording")
struct CheckBinaryCLITests {
    @Test func checkReadsPastZerosAndCountsWhatSummaryCounts() throws {
        let out = Binary.temporaryDirectory()
        let r = try Binary.run(["record", "--board", "simulator", "--fast", "--duration", "30", "--rate", "100",
                                "--sources", "AG", "--out", out, "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let csv = try #require(Binary.csvFiles(in: out).first)
        // dd if=/dev/zero of=X.csv bs=1 seek=100000 count=4096 conv=notrunc
        let handle = try #require(FileHandle(forWritingAtPath: csv))
        try handle.seek(toOffset: 100_000)
        try handle.write(contentsOf: Data(count: 4096))
        try handle.close()

        let check = try Binary.run(["check", csv])
        #expect(check.status == 1, "\(check.stdout)")
        #expect(check.stdout.contains("binary data at byte 100000 up to byte 104095 (4096 bytes)"), "\(check.stdout)")
        #expect(check.stdout.contains("reading went on at line") && !check.stdout.contains("reading stopped"), "\(check.stdout)")
        let summary = try Binary.run(["summary", csv, "--json"])
        #expect(summary.status == 0, "\(summary.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(summary.stdout.utf8)) as? [String: Any])
        let rows = try #require(object["rows"] as? [String: Int])
        for (letter, n) in rows {
            let line = check.stdout.split(separator: "\n").first { $0.hasPrefix("  \(letter) ") }
            let counted = line?.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap { Int($0) }
            #expect(counted == n, "\(letter): check \(String(describing: line)), summary \(n)")
        }
    }
}
