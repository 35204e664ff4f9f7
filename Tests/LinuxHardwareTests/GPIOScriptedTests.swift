import LinuxHardware
import Testing
import MotionTestSupport

/// The scripted GPIO fake behaves like the hardware as the daemon loop sees it.
@Suite("Scripted GPIO")
struct GPIOScriptedTests {
    @Test func eventsComeOutInOrderThenTheWaitTimesOut() throws {
        let gpio = ScriptedGPIO()
        gpio.click(.main, at: 1_000, heldNanos: 500)
        gpio.push(ButtonEvent(button: .label, pressed: true, timestampNanos: 2_000))
        #expect(try gpio.nextEvent(timeoutNanos: 0) == ButtonEvent(button: .main, pressed: true, timestampNanos: 1_000))
        #expect(try gpio.nextEvent(timeoutNanos: 0) == ButtonEvent(button: .main, pressed: false, timestampNanos: 1_500))
        #expect(try gpio.nextEvent(timeoutNanos: 0) == ButtonEvent(button: .label, pressed: true, timestampNanos: 2_000))
        #expect(try gpio.nextEvent(timeoutNanos: 1_000_000) == nil)
        #expect(gpio.consumedEvents == 3)
    }

    @Test func ledChangesAreRecordedAndCloseTurnsItOff() throws {
        let gpio = ScriptedGPIO()
        try gpio.setLED(true)
        try gpio.setLED(true)
        try gpio.setLED(false)
        try gpio.setLED(true)
        #expect(gpio.ledHistory == [true, false, true])
        gpio.close()
        #expect(!gpio.ledIsOn && gpio.isClosed)
        gpio.push(ButtonEvent(button: .main, pressed: true, timestampNanos: 1))
        #expect(try gpio.nextEvent(timeoutNanos: 0) == nil)
    }

    @Test func ledFailuresAreThrown() {
        let gpio = ScriptedGPIO()
        gpio.failLED(GPIOError(.io, "LED line gone"))
        #expect(throws: GPIOError.self) { try gpio.setLED(true) }
    }
}
