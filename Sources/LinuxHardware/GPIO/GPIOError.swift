import SystemPackage

/// A GPIO problem: what failed, on which chip and line, and what to do about it.
public struct GPIOError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure (for tests and callers that react differently).
    public enum Kind: Sendable, Equatable {
        case chipNotFound
        case permissionDenied
        case notAGPIOChip
        case lineNotFound
        case lineBusy
        case requestRejected
        case io
    }

    public var kind: Kind
    public var description: String

    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }

    /// Maps a failed `open` of a chip device to a clear message.
    static func opening(_ path: String, _ errno: Errno) -> GPIOError {
        switch errno {
        case .noSuchFileOrDirectory:
            return GPIOError(.chipNotFound, "GPIO chip \(path) does not exist: check gpio.chip in the board file (`ls /dev/gpiochip*` lists the chips; a chip label such as pinctrl-rp1 also works)")
        case .permissionDenied, .notPermitted:
            return GPIOError(.permissionDenied, "permission denied opening \(path): add the user to group gpio (the rules in udev/ give that group access to /dev/gpiochip*) and log in again")
        default:
            return GPIOError(.io, "cannot open GPIO chip \(path): \(errno)")
        }
    }
}
