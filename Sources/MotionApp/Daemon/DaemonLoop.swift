import Dispatch
import Foundation
import LinuxHardware
import Logging
import MotionCore
import Synchronization

/// The daemon's own thread: waits for button edges (or the next timer), feeds them to the
/// daemon, delivers long-press ticks, drives the LED pattern and samples rows/s. Sleeps
/// until the next thing is due; never spins.
final class DaemonLoop: Sendable {
    private let daemon: Daemon
    private let gpio: GPIOLines?
    private let clock: @Sendable () -> Int64
    private let log: Logger
    private let stopped = Atomic<Bool>(false)
    private let wake = WakeSignal()
    private let done = WakeSignal()

    /// `clock` must be the clock of the GPIO timestamps (CLOCK_MONOTONIC on Linux).
    init(daemon: Daemon, gpio: GPIOLines?, log: Logger,
         clock: @escaping @Sendable () -> Int64 = { SystemClock.monotonicNanos() }) {
        self.daemon = daemon
        self.gpio = gpio
        self.clock = clock
        self.log = log
    }

    func start() {
        let thread = Thread { [self] in
            run()
            done.signal()
        }
        thread.name = "motionlog-daemon"
        thread.start()
    }

    private func run() {
        var led = LEDDriver()
        var ledFailed = false
        var gpioFailed = false
        var lastRateSample: Int64 = 0
        while !stopped.load(ordering: .relaxed) {
            var now = clock()
            var nextLED: Int64?
            if let gpio, gpio.hasLED {
                let (write, next) = led.update(daemon.ledPattern, now: now)
                nextLED = next
                if let level = write {
                    do {
                        try gpio.setLED(level)
                        ledFailed = false
                    } catch {
                        if !ledFailed { log.error("LED: \(error)") }
                        ledFailed = true
                    }
                }
            }
            if now - lastRateSample >= 1_000_000_000 {
                daemon.sampleRates(now: now)
                daemon.offload.refresh()
                lastRateSample = now
            }
            var wakeAt = now + 1_000_000_000
            if let d = daemon.nextDeadline { wakeAt = min(wakeAt, d) }
            if let n = nextLED { wakeAt = min(wakeAt, n) }
            let timeout = max(0, wakeAt - now)
            if let gpio, !gpioFailed {
                do {
                    if let event = try gpio.nextEvent(timeoutNanos: timeout) {
                        switch event.button {
                        case .main: daemon.handle(.button(pressed: event.pressed, at: event.timestampNanos))
                        case .label: daemon.handle(.labelButton(pressed: event.pressed))
                        }
                    }
                } catch {
                    log.error("buttons: \(error); the daemon goes on without them (use `motionlog start|stop`)")
                    daemon.noteGPIOProblem("buttons failed: \(error)")
                    gpioFailed = true
                }
            } else {
                _ = wake.wait(timeout: Double(max(0, timeout)) / 1e9)
            }
            now = clock()
            if let d = daemon.nextDeadline, now >= d { daemon.handle(.tick(now)) }
        }
        if let gpio { try? gpio.setLED(false) }
    }

    /// Ends the loop and waits for it (the LED is left off).
    func stop() {
        if stopped.exchange(true, ordering: .relaxed) { return }
        wake.signal()
        gpio?.wake()
        done.wait()
    }
}
