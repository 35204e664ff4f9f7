import Synchronization
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// Buttons and LED on the kernel's GPIO character device (uAPI v2): inputs with bias, kernel
/// debounce and edge events; the LED as an output line. Waits with `poll(2)` on the
/// button lines and a wake pipe.
public final class LinuxGPIOLines: GPIOLines {
    public let wiring: GPIOWiring
    private let button: GPIOLineRequest?
    private let labelButton: GPIOLineRequest?
    private let led: GPIOLineRequest?
    private let wakeRead: Int32
    private let wakeWrite: Int32
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
        var fds: [Int32] = [0, 0]
        if pipe(&fds) != 0 {
            throw GPIOError(.io, "cannot create the GPIO wake pipe: \(Errno(rawValue: errno))")
        }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        wakeRead = fds[0]
        wakeWrite = fds[1]
    }

    deinit {
        Glibc.close(wakeRead)
        Glibc.close(wakeWrite)
    }

    public var hasLED: Bool { led != nil }

    public func nextEvent(timeoutNanos: Int64) throws(GPIOError) -> ButtonEvent? {
        if let e = pending.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { return e }
        if closed.load(ordering: .relaxed) { return nil }
        let sources: [(GPIOLineRequest, GPIOButton)] = [(button, .main), (labelButton, .label)].compactMap { r, b in r.map { ($0, b) } }
        var fds = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        fds += sources.map { pollfd(fd: $0.0.fd, events: Int16(POLLIN), revents: 0) }
        let ms = Int32(clamping: max(0, (timeoutNanos + 999_999) / 1_000_000))
        let n = poll(&fds, nfds_t(fds.count), ms)
        if n < 0 {
            if errno == EINTR { return nil }
            throw GPIOError(.io, "waiting for GPIO events failed: \(Errno(rawValue: errno))")
        }
        if n == 0 { return nil }
        if fds[0].revents != 0 {
            var sink = [UInt8](repeating: 0, count: 64)
            _ = Glibc.read(wakeRead, &sink, sink.count)
        }
        var events: [ButtonEvent] = []
        for (i, (request, which)) in sources.enumerated() where fds[i + 1].revents != 0 {
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
        var b: UInt8 = 1
        _ = Glibc.write(wakeWrite, &b, 1)
    }

    public func close() {
        if closed.exchange(true, ordering: .relaxed) { return }
        try? led?.set(active: false)
    }
}
