import CGPS
import Foundation
import Testing
@testable import LinuxHardware

/// Whether the system clock is synchronised decides whether GPS time anchors When.
struct GPSSystemClockTests {
    @Test func unsyncFlagOrTimeErrorMeanUnsynchronised() {
        #expect(SystemClockStatus.interpret(state: TIME_OK, status: 0, maxError: 16_000).synchronised)
        #expect(SystemClockStatus.interpret(state: TIME_OK, status: Int32(STA_PLL), maxError: 16_000).synchronised)
        let flagged = SystemClockStatus.interpret(state: TIME_OK, status: Int32(STA_UNSYNC | STA_PLL), maxError: 16_000_000)
        #expect(!flagged.synchronised && flagged.detail.contains("STA_UNSYNC"))
        let error = SystemClockStatus.interpret(state: TIME_ERROR, status: 0, maxError: 16_000_000)
        #expect(!error.synchronised && error.detail.contains("TIME_ERROR"))
    }

    @Test func theKernelIsAskedWithoutChangingAnything() {
        // modes = 0 only reads: two reads agree, and the answer matches the raw state.
        let a = SystemClockStatus.current(), b = SystemClockStatus.current()
        #expect(a.synchronised == b.synchronised)
        var tx = timex()
        let state = ntp_adjtime(&tx)
        #expect(a.synchronised == (state != TIME_ERROR && tx.status & Int32(STA_UNSYNC) == 0))
    }

    @Test func bootIDNamesProvisionalFiles() throws {
        let id = try #require(BootID.short())
        #expect(id.count == 8 && id.allSatisfy(\.isHexDigit))
        #expect(BootID.provisionalPrefix == "unsynced-" + id)
    }
}
