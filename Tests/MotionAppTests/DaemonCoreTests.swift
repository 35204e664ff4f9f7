@testable import MotionApp
import MotionCore
import Testing

/// The daemon's state machine with scripted inputs and times: no threads, no clock.
@Suite("Daemon state machine")
struct DaemonCoreTests {
    let second: Int64 = 1_000_000_000
    let W = Label.defaultLetter, T = Label.turning

    func core(shutdown: String? = nil, longPress: Int64 = 3_000_000_000) -> DaemonCore {
        DaemonCore(settings: .init(longPressNanos: longPress, shutdownCommand: shutdown, baseLabel: Label.defaultLetter))
    }

    @Test func pressThenPressStartsThenStops() {
        var c = core()
        #expect(c.handle(.button(pressed: true, at: 10 * second)).actions.isEmpty)
        #expect(c.nextDeadline == 13 * second)
        #expect(c.handle(.button(pressed: false, at: 10 * second + 200_000_000)).actions == [.startRecording(label: W)])
        #expect(c.phase == .recording && c.nextDeadline == nil)
        _ = c.handle(.button(pressed: true, at: 20 * second))
        #expect(c.handle(.button(pressed: false, at: 20 * second + 150_000_000)).actions == [.stopRecording])
        #expect(c.phase == .stopping)
        #expect(c.handle(.recordingEnded(.stopped)).actions.isEmpty)
        #expect(c.phase == .idle)
    }

    @Test func aLongPressStopsWhileHeldThenShutsDownAfterTheFilesAreClosed() {
        var c = core(shutdown: "systemctl poweroff")
        _ = c.handle(.start)
        _ = c.handle(.button(pressed: true, at: 100 * second))
        #expect(c.handle(.tick(103 * second - 1)).actions.isEmpty)
        #expect(c.phase == .recording)
        #expect(c.handle(.tick(103 * second)).actions == [.stopRecording])
        #expect(c.phase == .stopping && c.nextDeadline == nil)
        // The shutdown waits until the recording is closed.
        #expect(c.handle(.recordingEnded(.stopped)).actions == [.runShutdown(command: "systemctl poweroff")])
        #expect(c.phase == .shuttingDown)
        // Letting go afterwards does nothing more.
        #expect(c.handle(.button(pressed: false, at: 104 * second)).actions.isEmpty)
        #expect(c.handle(.start).accepted == false)
        _ = c.handle(.shutdownFinished(failure: nil))
        #expect(c.phase == .shuttingDown)
    }

    @Test func aLongPressNoticedOnlyAtReleaseStillCountsAsLong() {
        var c = core(shutdown: "halt")
        _ = c.handle(.button(pressed: true, at: 0))
        #expect(c.handle(.button(pressed: false, at: 5 * second)).actions == [.runShutdown(command: "halt")])
    }

    @Test func withoutAShutdownCommandALongPressOnlyStops() {
        var c = core()
        _ = c.handle(.button(pressed: true, at: 0))
        let idle = c.handle(.tick(3 * second))
        #expect(idle.actions.isEmpty && c.phase == .idle)
        _ = c.handle(.button(pressed: false, at: 4 * second))
        _ = c.handle(.start)
        _ = c.handle(.button(pressed: true, at: 10 * second))
        #expect(c.handle(.tick(13 * second)).actions == [.stopRecording])
        #expect(c.handle(.recordingEnded(.stopped)).actions.isEmpty && c.phase == .idle)
    }

    @Test func aReleaseWithoutAPressIsIgnored() {
        var c = core()
        #expect(c.handle(.button(pressed: false, at: 5)).actions.isEmpty)
        #expect(c.phase == .idle)
    }

    @Test func theLabelButtonHoldsTAndTheBaseLabelReturns() {
        var c = core()
        #expect(c.handle(.labelButton(pressed: true)).actions == [.setLabel(T)])
        #expect(c.effectiveLabel == T)
        // A new base label while T is held applies once the button is released.
        #expect(c.handle(.label(0x52)).actions.isEmpty)
        #expect(c.handle(.labelButton(pressed: false)).actions == [.setLabel(0x52)])
        #expect(c.handle(.start).actions == [.startRecording(label: 0x52)])
        #expect(c.handle(.label(W)).actions == [.setLabel(W)])
    }

    @Test func socketRequestsAnswerInEveryState() {
        var c = core()
        #expect(c.handle(.stop).message == "not recording")
        #expect(c.handle(.start).actions == [.startRecording(label: W)])
        let again = c.handle(.start)
        #expect(again.accepted && again.actions.isEmpty && again.message == "already recording")
        #expect(c.handle(.stop).actions == [.stopRecording])
        let busy = c.handle(.start)
        #expect(!busy.accepted && busy.message?.contains("busy") == true)
        #expect(c.handle(.stop).message == "already stopping")
    }

    @Test func failuresAndLowSpaceLeadToErrorUntilTheNextStart() {
        var c = core()
        _ = c.handle(.start)
        let low = c.handle(.recordingEnded(.lowDiskSpace("only 90 MB free")))
        #expect(!low.accepted && c.phase == .error && c.message == "only 90 MB free")
        // A press (or start) tries again.
        _ = c.handle(.button(pressed: true, at: 0))
        #expect(c.handle(.button(pressed: false, at: 1)).actions == [.startRecording(label: W)])
        _ = c.handle(.recordingEnded(.failed("the IMU could not be started")))
        #expect(c.phase == .error)
        // `stop` acknowledges the error.
        #expect(c.handle(.stop).actions.isEmpty)
        #expect(c.phase == .idle)
    }

    @Test func aRecordingEndingOnItsOwnReturnsToIdle() {
        var c = core()
        _ = c.handle(.start)
        _ = c.handle(.recordingEnded(.duration))
        #expect(c.phase == .idle && c.message?.contains("duration") == true)
        // A stray end (e.g. reported twice) changes nothing.
        _ = c.handle(.recordingEnded(.failed("late")))
        #expect(c.phase == .idle)
    }

    @Test func aFailedShutdownCommandIsAnError() {
        var c = core(shutdown: "false")
        _ = c.handle(.button(pressed: true, at: 0))
        _ = c.handle(.tick(3 * second))
        #expect(c.phase == .shuttingDown)
        _ = c.handle(.shutdownFinished(failure: "exit status 1"))
        #expect(c.phase == .error && c.message == "exit status 1")
    }
}

/// LED patterns as functions of time.
@Suite("Daemon LED patterns")
struct DaemonLEDTests {
    let ms: Int64 = 1_000_000

    @Test func patternsCycleThroughTheirSegments() {
        #expect(LEDPattern.idle.level(at: 0) == (true, 100 * ms))
        #expect(LEDPattern.idle.level(at: 150 * ms) == (false, 1850 * ms))
        #expect(LEDPattern.idle.level(at: 2050 * ms) == (true, 50 * ms))
        #expect(LEDPattern.recording.level(at: 123_456 * ms) == (true, nil))
        #expect(LEDPattern.off.level(at: 5 * ms) == (false, nil))
        #expect(LEDPattern.error.level(at: 100 * ms) == (false, 100 * ms))
        #expect(LEDPattern.recordingNoFix.level(at: 950 * ms) == (false, 50 * ms))
        #expect(LEDPattern.busy.level(at: 499 * ms) == (false, 1 * ms))
    }

    @Test func theDriverWritesOnlyChangesAndRestartsPatterns() {
        var d = LEDDriver()
        #expect(d.update(.idle, now: 1_000 * ms) == (true, 1_100 * ms))
        #expect(d.update(.idle, now: 1_050 * ms) == (nil, 1_100 * ms))
        #expect(d.update(.idle, now: 1_100 * ms) == (false, 3_000 * ms))
        // A new pattern starts at its beginning.
        #expect(d.update(.error, now: 1_200 * ms) == (true, 1_300 * ms))
        #expect(d.update(.recording, now: 1_250 * ms) == (nil, nil))
        #expect(d.update(.off, now: 1_300 * ms) == (false, nil))
    }
}
