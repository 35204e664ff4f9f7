import LinuxHardware
import MotionConfig
import MotionCore

/// The daemon's own settings, resolved: command-line options over the config file's
/// `daemon:` section and `min_free_space`, over the defaults.
struct DaemonConfiguration: Sendable {
    var socket: String
    var socketGroup: String?
    var longPressSeconds: Double
    var shutdownCommand: String?
    var ledShowsGPS: Bool
    /// 0: no free-space guard.
    var minFreeSpaceBytes: Int64
    /// Buttons and LED from the board file; nil: control through the socket only.
    var wiring: GPIOWiring?

    static func resolve(socket: String?, socketGroup: String?, longPress: String?, shutdownCommand: String?,
                        minFreeSpace: String?, noGPIO: Bool, settings: RecorderSettings,
                        board: BoardDefinition) throws(CommandFailure) -> DaemonConfiguration {
        let d = settings.daemon ?? DaemonSettings()
        var longPressSeconds = d.longPressSeconds ?? 3
        if let l = longPress {
            guard let s = QuantityText.seconds(l), DaemonSettings.longPressRange.contains(s) else {
                throw .usage("--long-press \"\(l)\": use a duration from 0.5s to 30s, e.g. 3s")
            }
            longPressSeconds = s
        }
        var minFree = settings.minFreeSpace ?? FreeSpaceGuard.defaultMinimumFreeBytes
        if let m = minFreeSpace {
            guard let b = m == "0" ? 0 : QuantityText.bytes(m) else {
                throw .usage("--min-free-space \"\(m)\": use a size such as 100M or 1G (0 disables the guard)")
            }
            minFree = b
        }
        let socketPath = socket ?? d.socket ?? ControlClient.defaultSocket
        if let s = socket, !s.hasPrefix("/") && !s.hasPrefix(".") {
            throw .usage("--socket \"\(s)\": give a path, e.g. /run/motionlog/control.sock or ./control.sock")
        }
        return DaemonConfiguration(socket: socketPath, socketGroup: socketGroup ?? d.socketGroup,
                                   longPressSeconds: longPressSeconds,
                                   shutdownCommand: shutdownCommand ?? d.shutdownCommand,
                                   ledShowsGPS: d.ledShowsGPS ?? true, minFreeSpaceBytes: minFree,
                                   wiring: noGPIO ? nil : wiring(board))
    }

    /// The board file's `gpio:` section as wiring for the GPIO layer.
    static func wiring(_ board: BoardDefinition) -> GPIOWiring? {
        guard let g = board.gpio, g.button != nil || g.labelButton != nil || g.led != nil else { return nil }
        func button(_ b: BoardDefinition.Button?) -> GPIOWiring.Button? {
            guard let b else { return nil }
            let bias: GPIOBias
            switch b.bias {
            case .pullUp: bias = .pullUp
            case .pullDown: bias = .pullDown
            case .none: bias = .disabled
            }
            return .init(line: UInt32(b.line), bias: bias, activeLow: b.activeLow,
                         debounceMilliseconds: b.debounceMs)
        }
        return GPIOWiring(chip: g.chip, button: button(g.button), labelButton: button(g.labelButton),
                          led: g.led.map { .init(line: UInt32($0.line), activeLow: $0.activeLow) })
    }
}
