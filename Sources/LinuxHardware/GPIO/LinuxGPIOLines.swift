import MotionSystem
import Synchronization
import SystemPackage

/// Buttons and LED on the kernel's GPIO character device (uAPI v2): inputs with bias, kernel
/// debounce and edge events; the LED as an output line. Waits with `poll(2)` on the
/// button lines and a wake pipe.
public final class LinuxGPIOLines: GPIOLines {
    public let wiring: GPIOWiring
    private let button: GPIOLineRequest?
    private let labelButton: GPIOLineRequest?
    private let led: GPIOLineRequest?
    private let wakePipe: WakePipe
    private let pending = Mutex<[ButtonEvent]>([])
    private let closed = Atomic<Bool>(false)

    /// Opens the chip and requests every wired line. Throws a clear `GPIOError` when the
    /// chip or a line cannot be used.
    public init(wiring: GPIOWiring, devDirectory: String = "/dev") throws(GPIOError) {
        self.wiring = wiring
        let chip = try GPIOChip.open(wiring.chip, devDirectory: devDirectory)
        func input(_ b: GPIOWiring.Button?, _ purpose: String) throws(GPIOError) -> GPIOLineRequest? {
            guard let b else { return nil }
            let micros = UInt32(clamping: max(0, b.debounceMilliseconds) * 1000)
            return try chip.request(GPIOLineConfig(line: b.line, direction: .input(bias: b.bias, debounceMicroseconds: micros),
                                                   activeLow: b.activeLow), purpose: purpose)
        }
        button = try input(wiring.button, "button")
        labelButton = try input(wiring.labelButton, "label button")
        if let l = wiring.led {
            led = try chip.request(GPIOLineConfig(line: l.line, direction: .output(initiallyActive: false), activeLow: l.activeLow),
                                   purpose: "LED")
        } else {
            led = nil
        }
        do { wakePipe = try WakePipe() } catch {
            throw GPIOError(.io, "cannot create the GPIO wake pipe: \(error)")
        }
    }

    public var hasLED: Bool { led != nil }

    public func nextEvent(timeoutNanos: Int64) throws(GPIOError) -> ButtonEvent? {
        if let e = pending.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { return e }
        if closed.load(ordering: .relaxed) { return nil }
        let sources: [(GPIOLineRequest, GPIOButton)] = [(button, .main), (labelButton, .label)].compactMap { r, b in r.map { ($0, b) } }
        let interests = [Poll.Interest(fd: wakePipe.readFD)] + sources.map { Poll.Interest(fd: $0.0.fd) }
        let ms = Int32(clamping: max(0, (timeoutNanos + 999_999) / 1_000_000))
        let ready: [Bool]
        do { ready = try Poll.wait(interests, timeoutMilliseconds: ms) } catch {
            throw GPIOError(.io, "waiting for GPIO events failed: \(error)")
        }
        if !ready.contains(true) { return nil }
        if ready[0] { wakePipe.drain() }
        var events: [ButtonEvent] = []
        for (i, (request, which)) in sources.enumerated() where ready[i + 1] {
            for edge in try request.readEvents() {
                events.append(ButtonEvent(button: which, pressed: edge.becameActive, timestampNanos: edge.timestampNanos))
            }
        }
        events.sort { $0.timestampNanos < $1.timestampNanos }
        guard let first = events.first else { return nil }
        pending.withLock { $0.append(contentsOf: events.dropFirst()) }
        return first
    }

    public func setLED(_ on: Bool) throws(GPIOError) {
        try led?.set(active: on)
    }

    public func wake() {
        wakePipe.wake()
    }

    public func close() {
        if closed.exchange(true, ordering: .relaxed) { return }
        try? led?.set(active: false)
    }
}
