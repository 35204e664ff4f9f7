import MotionSystem
import SystemPackage

/// What the kernel says about a GPIO chip (`GPIO_GET_CHIPINFO_IOCTL`).
public struct GPIOChipInfo: Sendable, Equatable, CustomStringConvertible {
    /// Kernel name, e.g. `gpiochip0`.
    public var name: String
    /// Driver label, e.g. `pinctrl-rp1` (stable across kernels, unlike the number).
    public var label: String
    public var lines: UInt32

    public var description: String { "\(name) [\(label)] (\(lines) lines)" }
}

/// What the kernel says about one line (`GPIO_V2_GET_LINEINFO_IOCTL`).
public struct GPIOLineInfo: Sendable, Equatable {
    public var name: String
    /// Who holds the line, empty when free.
    public var consumer: String
    public var inUse: Bool
}

/// One GPIO chip character device (`/dev/gpiochipN`), opened read-write. A thin typed
/// wrapper over `open(2)` and the uAPI v2 ioctls; requested lines live on in their own file
/// descriptors (`GPIOLineRequest`) after the chip is closed.
public final class GPIOChip {
    public let path: String
    public let info: GPIOChipInfo
    private let device: DeviceFile

    /// Opens the chip at `path` and reads its info; a file that is not a GPIO chip (e.g.
    /// `/dev/null`) is reported as such.
    public init(path: String) throws(GPIOError) {
        let device: DeviceFile
        do { device = try DeviceFile(path: path) } catch { throw GPIOError.opening(path, error) }
        var raw = StructBytes(size: GPIOUAPI.chipInfoSize)
        do { try raw.control(device, GPIOUAPI.getChipInfo) } catch {
            throw GPIOError(.notAGPIOChip, "\(path) is not a GPIO character device (GPIO_GET_CHIPINFO_IOCTL: \(error)): set gpio.chip in the board file to a /dev/gpiochipN device or a chip label")
        }
        self.path = path
        self.device = device
        info = GPIOChipInfo(name: raw.string(at: 0, capacity: GPIOUAPI.nameSize),
                            label: raw.string(at: GPIOUAPI.nameSize, capacity: GPIOUAPI.nameSize),
                            lines: raw.uint32(at: 2 * GPIOUAPI.nameSize))
    }

    /// Opens a chip by path (`/dev/gpiochip0`), device name (`gpiochip0`) or label
    /// (`pinctrl-rp1`, found by asking every `/dev/gpiochip*`). Labels survive kernel
    /// renumbering: the Raspberry Pi 5 header moved from gpiochip4 to gpiochip0 in 6.6.45.
    public static func open(_ nameOrLabel: String, devDirectory: String = "/dev") throws(GPIOError) -> GPIOChip {
        if nameOrLabel.hasPrefix("/") { return try GPIOChip(path: nameOrLabel) }
        let byName = devDirectory + "/" + nameOrLabel
        if FileSystem.isReachable(byName) || nameOrLabel.hasPrefix("gpiochip") {
            return try GPIOChip(path: byName)
        }
        var found: [GPIOChipInfo] = []
        for path in chipPaths(in: devDirectory) {
            guard let chip = try? GPIOChip(path: path) else { continue }
            if chip.info.label == nameOrLabel { return chip }
            found.append(chip.info)
        }
        let list = found.isEmpty ? "no readable GPIO chips in \(devDirectory)" : "found " + found.map(\.description).joined(separator: ", ")
        throw GPIOError(.chipNotFound, "no GPIO chip named or labelled \"\(nameOrLabel)\" (\(list)): set gpio.chip in the board file")
    }

    /// `/dev/gpiochip*`, in numeric order.
    static func chipPaths(in devDirectory: String) -> [String] {
        let names = (try? FileSystem.names(in: devDirectory)) ?? []
        let numbers = names.compactMap { name in name.hasPrefix("gpiochip") ? Int(name.dropFirst(8)) : nil }
        return numbers.sorted().map { "\(devDirectory)/gpiochip\($0)" }
    }

    /// Name and consumer of one line.
    public func lineInfo(_ line: UInt32) throws(GPIOError) -> GPIOLineInfo {
        var raw = StructBytes(size: GPIOUAPI.lineInfoSize)
        raw.set(line, at: GPIOUAPI.LineInfo.offset)
        do { try raw.control(device, GPIOUAPI.getLineInfo) } catch {
            throw GPIOError(.io, "cannot read line \(line) of \(info): \(error)")
        }
        return GPIOLineInfo(name: raw.string(at: GPIOUAPI.LineInfo.name, capacity: GPIOUAPI.nameSize),
                            consumer: raw.string(at: GPIOUAPI.LineInfo.consumer, capacity: GPIOUAPI.nameSize),
                            inUse: raw.uint64(at: GPIOUAPI.LineInfo.flags) & GPIOUAPI.flagUsed != 0)
    }

    /// Requests one line (`GPIO_V2_GET_LINE_IOCTL`). The line stays requested until the
    /// returned request is closed or the process ends.
    public func request(_ config: GPIOLineConfig, purpose: String) throws(GPIOError) -> GPIOLineRequest {
        guard config.line < info.lines else {
            throw GPIOError(.lineNotFound, "\(purpose): line \(config.line) does not exist on \(info) (lines 0...\(Int(info.lines) - 1)): check the board file")
        }
        var raw = config.requestBytes()
        do { try raw.control(device, GPIOUAPI.getLine) } catch {
            let e = error
            switch e {
            case .resourceBusy:
                let holder = (try? lineInfo(config.line)).map { $0.consumer.isEmpty ? "" : " (held by \"\($0.consumer)\")" } ?? ""
                throw GPIOError(.lineBusy, "\(purpose): line \(config.line) of \(info) is in use by another program\(holder): stop it or choose another line")
            case .permissionDenied, .notPermitted:
                throw GPIOError(.permissionDenied, "\(purpose): permission denied requesting line \(config.line) of \(path): add the user to group gpio and log in again")
            case .invalidArgument where !KernelVersion.current.atLeast(5, 10), .inappropriateIOCTLForDevice where !KernelVersion.current.atLeast(5, 10):
                throw GPIOError(.requestRejected, "\(purpose): this kernel (\(KernelVersion.current)) has no GPIO uAPI v2, which needs Linux 5.10 or later: update the kernel, or run the daemon with --no-gpio and control it with `motionlog start|stop`")
            default:
                throw GPIOError(.requestRejected, "\(purpose): the kernel rejected the request for line \(config.line) of \(info): \(e) (bias or debounce may be unsupported by this chip: try bias none with an external resistor, or debounce_ms 0)")
            }
        }
        let lineFD = raw.int32(at: GPIOUAPI.Request.fd)
        return GPIOLineRequest(device: DeviceFile(adopting: lineFD), line: config.line, chip: info.description)
    }
}

/// A requested line: its own file descriptor for values and edge events.
public final class GPIOLineRequest: @unchecked Sendable {
    // @unchecked: `device` is immutable; the kernel serialises ioctls and reads on it.
    let device: DeviceFile
    public let line: UInt32
    public let chip: String

    /// The line's descriptor, to wait on with `Poll`.
    public var fd: Int32 { device.fd }

    init(device: DeviceFile, line: UInt32, chip: String) { self.device = device; self.line = line; self.chip = chip }

    /// Drives an output line (`GPIO_V2_LINE_SET_VALUES_IOCTL`); `active` honours active-low.
    public func set(active: Bool) throws(GPIOError) {
        var values = StructBytes(size: GPIOUAPI.lineValuesSize)
        values.set(UInt64(active ? 1 : 0), at: 0)
        values.set(UInt64(1), at: 8)
        do { try values.control(device, GPIOUAPI.setValues) } catch {
            throw GPIOError(.io, "cannot set line \(line) of \(chip): \(error)")
        }
    }

    /// Reads the edge events waiting on the line (call when `poll` says it is readable).
    public func readEvents() throws(GPIOError) -> [GPIOEdgeEvent] {
        var raw = StructBytes(size: GPIOUAPI.lineEventSize * 16)
        let n: Int
        do { n = try raw.read(device) } catch {
            throw GPIOError(.io, "cannot read events of line \(line) of \(chip): \(error)")
        }
        var events: [GPIOEdgeEvent] = []
        var base = 0
        while base + GPIOUAPI.lineEventSize <= n {
            if let e = GPIOEdgeEvent.decode(raw, at: base) { events.append(e) }
            base += GPIOUAPI.lineEventSize
        }
        return events
    }
}

/// The running kernel's version (`uname -r`), for messages about missing features.
struct KernelVersion: CustomStringConvertible {
    var major = 0
    var minor = 0
    var text = "unknown"

    static var current: KernelVersion {
        guard let release = SystemInfo.kernelRelease() else { return KernelVersion() }
        return parse(release)
    }

    /// Reads `6.1.0-rpi7-rpi-v8` as 6.1.
    static func parse(_ release: String) -> KernelVersion {
        let numbers = release.split(whereSeparator: { !$0.isNumber }).prefix(2).compactMap { Int($0) }
        return KernelVersion(major: numbers.first ?? 0, minor: numbers.count > 1 ? numbers[1] : 0, text: release)
    }

    func atLeast(_ major: Int, _ minor: Int) -> Bool { (self.major, self.minor) >= (major, minor) }

    var description: String { text }
}
