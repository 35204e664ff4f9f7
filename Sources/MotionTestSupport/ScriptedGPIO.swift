import LinuxHardware
import MotionCore
import Dispatch
import Synchronization

/// A scripted stand-in for the logger's GPIO: tests push button edges (with the timestamps
/// they choose) and read back every LED change. Thread-safe; `nextEvent` really waits, so a
/// daemon loop runs against it exactly as against the hardware.
public final class ScriptedGPIO: GPIOLines {
    private struct State {
        var queue: [ButtonEvent] = []
        var led: [Bool] = []
        var consumed = 0
        var closed = false
        var ledFailure: GPIOError?
    }

    private let state = Mutex(State())
    private let signal = WakeSignal()
    public let hasLED: Bool

    public init(hasLED: Bool = true) { self.hasLED = hasLED }

    // MARK: Script

    /// Queues one edge.
    public func push(_ event: ButtonEvent) {
        state.withLock { $0.queue.append(event) }
        signal.signal()
    }

    /// Queues a press at `t` and a release `heldNanos` later.
    public func click(_ button: GPIOButton = .main, at t: Int64, heldNanos: Int64 = 100_000_000) {
        push(ButtonEvent(button: button, pressed: true, timestampNanos: t))
        push(ButtonEvent(button: button, pressed: false, timestampNanos: t + heldNanos))
    }

    /// Makes LED writes fail from now on (to test error handling).
    public func failLED(_ error: GPIOError?) { state.withLock { $0.ledFailure = error } }

    // MARK: Observation

    /// Every LED level written, in order.
    public var ledHistory: [Bool] { state.withLock { $0.led } }
    /// The LED's current level (false before any write).
    public var ledIsOn: Bool { state.withLock { $0.led.last ?? false } }
    /// Edges handed to the consumer so far.
    public var consumedEvents: Int { state.withLock { $0.consumed } }
    public var isClosed: Bool { state.withLock { $0.closed } }

    // MARK: GPIOLines

    public func nextEvent(timeoutNanos: Int64) throws(GPIOError) -> ButtonEvent? {
        if let e = take() { return e }
        _ = signal.wait(timeout: Double(max(0, timeoutNanos)) / 1e9)
        return take()
    }

    private func take() -> ButtonEvent? {
        state.withLock { s in
            guard !s.closed, !s.queue.isEmpty else { return nil }
            s.consumed += 1
            return s.queue.removeFirst()
        }
    }

    public func setLED(_ on: Bool) throws(GPIOError) {
        guard hasLED else { return }
        let failure: GPIOError? = state.withLock { s in
            if let f = s.ledFailure { return f }
            if s.led.last != on { s.led.append(on) }
            return nil
        }
        if let failure { throw failure }
    }

    public func wake() { signal.signal() }

    public func close() {
        state.withLock { s in
            if s.led.last == true { s.led.append(false) }
            s.closed = true
        }
        signal.signal()
    }
}
