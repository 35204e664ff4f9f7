@testable import MotionWeb
import MotionCore
import Testing

/// The metadata's counters as the page says them: one in the singular ("1 rows dropped",
/// "1 overruns, 1 ticks missed" before), more in the plural.
@Suite struct CounterSentenceTests {
    func sentences(_ n: Int64) -> [String] {
        var c = CounterSnapshot()
        c.droppedRows = n; c.overruns = n; c.missedTicks = n; c.rejectedFixes = n
        c.rowsLostToWriteErrors = n; c.writeErrors = n
        return RecordingPage.counterSentences(c, summarized: false)
    }

    @Test func oneOfEachIsSaidInTheSingular() {
        #expect(sentences(1) == ["1 row dropped (both buffers full).", "1 row lost to 1 write error.",
                                 "1 overrun, 1 tick missed (no sample exists for it).", "1 GPS fix refused."])
    }

    @Test func moreAreSaidInThePlural() {
        #expect(sentences(3) == ["3 rows dropped (both buffers full).", "3 rows lost to 3 write errors.",
                                 "3 overruns, 3 ticks missed (no sample exists for them).", "3 GPS fixes refused."])
    }
}
