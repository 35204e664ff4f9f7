import Foundation
import MotionCore
import Testing

/// 4 KiB of zeros written into a finished recording: `check` stopped at them ("the rest of
/// the file is not a recording; reading stopped", A 222) while `summary` read past them
/// (A 534). Now it reports the binary range as a defect and counts what summary counts.
@Suite("motionlog check: binary data inside a recording")
struct CheckBinaryCLITests {
    @Test func checkReadsPastZerosAndCountsWhatSummaryCounts() throws {
        let csv = try Binary.recordSimulated(["--duration", "30", "--rate", "100", "--sources", "AG"])
        // dd if=/dev/zero of=X.csv bs=1 seek=100000 count=4096 conv=notrunc
        let handle = try #require(FileHandle(forWritingAtPath: csv))
        try handle.seek(toOffset: 100_000)
        try handle.write(contentsOf: Data(count: 4096))
        try handle.close()

        let check = try CheckAndSummary.run(csv).check
        #expect(check.status == 1, "\(check.stdout)")
        #expect(check.stdout.contains("binary data at byte 100000 up to byte 104095 (4096 bytes)"), "\(check.stdout)")
        #expect(check.stdout.contains("reading went on at line") && !check.stdout.contains("reading stopped"), "\(check.stdout)")
    }
}
