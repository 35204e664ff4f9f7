import MotionCore
import Testing

/// How a file ended, read from the end reasons the writer and recovery write.
@Suite struct FileEndingTests {
    @Test(arguments: [
        (true, "duration", FileEnding.clean, false),
        (true, "stopped", .clean, false),
        (true, "rotated", .clean, false),
        (true, "low-disk-space", .clean, false),
        (true, "fused", .clean, false),
        (false, "recording", .unfinished, true),
        (false, "recovered", .recovered, false),
        (true, "recovered", .recovered, false),
        (false, "write-error", .abandoned, true),
        (false, "write-error, fsync-failed", .abandoned, true),
        (false, "duration, write-errors", .closedAfterWriteErrors(fsyncFailed: false), false),
        (false, "stopped, fsync-failed", .closedAfterWriteErrors(fsyncFailed: true), true),
        (false, "rotated, write-errors, fsync-failed", .closedAfterWriteErrors(fsyncFailed: true), true),
    ])
    func endReasonsReadAsTheyAreWritten(clean: Bool, reason: String, ending: FileEnding, needsRecovery: Bool) {
        let read = FileEnding(endedCleanly: clean, endReason: reason)
        #expect(read == ending, "\(reason)")
        #expect(read.needsRecovery == needsRecovery, "\(reason)")
        #expect(read.isClean == (ending == .clean))
    }

    @Test func theWritersSuffixesAreTheOnesRead() {
        let reason = "duration" + FileEnding.writeErrorsSuffix + FileEnding.fsyncFailedSuffix
        #expect(FileEnding(endedCleanly: false, endReason: reason) == .closedAfterWriteErrors(fsyncFailed: true))
        #expect(FileEnding(endedCleanly: false, endReason: FileEnding.recordingReason) == .unfinished)
        #expect(FileEnding(endedCleanly: false, endReason: FileEnding.abandonedReason) == .abandoned)
        #expect(FileEnding.closingReason(reason) == "duration")
        #expect(FileEnding.closingReason("rotated, write-errors") == "rotated")
        #expect(FileEnding.closingReason("stopped") == "stopped")
    }
}
