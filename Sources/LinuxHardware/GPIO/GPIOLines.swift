/// Which of the logger's buttons an event is about.
public enum GPIOButton: String, Sendable, Equatable, Codable {
    /// Start/stop (long press: stop and shut down).
    case main
    /// Holds label `T` while pressed (MotionCollector's "turning" button).
    case label
}

/// A debounced button edge.
public struct ButtonEvent: Sendable, Equatable {
    public var button: GPIOButton
    public var pressed: Bool
    /// CLOCK_MONOTONIC nanoseconds of the edge (the kernel's timestamp on real hardware).
    public var timestampNanos: Int64

    public init(button: GPIOButton, pressed: Bool, timestampNanos: Int64) {
        self.button = button; self.pressed = pressed; self.timestampNanos = timestampNanos
    }
}

/// Wiring of the logger's buttons and LED (from the board file's `gpio:` section).
public struct GPIOWiring: Sendable, Equatable {
    /// A push button: line, pull resistor, polarity and kernel debounce.
    public struct Button: Sendable, Equatable {
        public var line: UInt32
        public var bias: GPIOBias
        public var activeLow: Bool
        public var debounceMilliseconds: Int
        public init(line: UInt32, bias: GPIOBias, activeLow: Bool, debounceMilliseconds: Int = 30) {
            self.line = line; self.bias = bias; self.activeLow = activeLow; self.debounceMilliseconds = debounceMilliseconds
        }
    }

    /// An LED: line and polarity.
    public struct LED: Sendable, Equatable {
        public var line: UInt32
        public var activeLow: Bool
        public init(line: UInt32, activeLow: Bool) { self.line = line; self.activeLow = activeLow }
    }

    /// Chip path, device name or label.
    public var chip: String
    public var button: Button?
    public var labelButton: Button?
    public var led: LED?

    public init(chip: String, button: Button?, labelButton: Button?, led: LED?) {
        self.chip = chip; self.button = button; self.labelButton = labelButton; self.led = led
    }
}

/// The logger's GPIO as the daemon sees it: button events in, LED out. Implementations:
/// `LinuxGPIOLines` (the kernel's GPIO character device) and `ScriptedGPIO` (tests).
///
/// `nextEvent`, `setLED` and `close` are called from one thread (the daemon loop); `wake`
/// may be called from any thread to end a wait early.
public protocol GPIOLines: AnyObject, Sendable {
    /// True when an LED is wired.
    var hasLED: Bool { get }
    /// Waits at most `timeoutNanos` for the next button edge; nil when none came (or after `wake`).
    func nextEvent(timeoutNanos: Int64) throws(GPIOError) -> ButtonEvent?
    /// Turns the LED on or off (nothing when no LED is wired).
    func setLED(_ on: Bool) throws(GPIOError)
    /// Makes a pending or the next `nextEvent` return nil promptly.
    func wake()
    /// Releases the lines (LED off first).
    func close()
}
