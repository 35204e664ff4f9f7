import IMUDrivers
import MotionSystem
import SystemPackage

/// Turns the errno of a failed open, ioctl or transfer on `/dev/i2c-N` into a typed
/// `I2CError` whose message says what to do. Pure: tests call it with any errno.
public enum I2CErrno {
    /// `open(2)` failed.
    public static func openError(path: String, errno e: Int32) -> I2CError {
        let kind: I2CError.Kind
        switch Errno(rawValue: e) {
        case .noSuchFileOrDirectory, .operationNotSupportedByDevice, .noSuchAddressOrDevice: kind = .noSuchBus
        case .permissionDenied, .notPermitted: kind = .permissionDenied
        default: kind = .openFailed
        }
        return I2CError(kind: kind, bus: path, operation: .open, errno: e, systemMessage: text(e))
    }

    /// The `I2C_FUNCS` ioctl failed: ENOTTY (or EINVAL) means the node is not an I2C adapter.
    public static func functionalityError(path: String, errno e: Int32) -> I2CError {
        let kind: I2CError.Kind = [.inappropriateIOCTLForDevice, .invalidArgument].contains(Errno(rawValue: e)) ? .notAnAdapter : .openFailed
        return I2CError(kind: kind, bus: path, operation: .open, errno: e, systemMessage: text(e))
    }

    /// An `I2C_RDWR` transfer failed. Adapters report a missing acknowledge as ENXIO or
    /// EREMOTEIO, lost arbitration as EAGAIN, a stuck bus as ETIMEDOUT.
    public static func transferError(path: String, operation: I2CError.Operation, address: UInt8, register: UInt8,
                                     errno e: Int32) -> I2CError {
        let kind: I2CError.Kind
        switch Errno(rawValue: e) {
        case .noSuchAddressOrDevice, .remoteIOError: kind = .noAcknowledge
        case .ioError, .resourceTemporarilyUnavailable, .protocolError: kind = .ioError
        case .timedOut: kind = .timeout
        default: kind = .transferFailed
        }
        return I2CError(kind: kind, bus: path, operation: operation, address: address, register: register,
                        errno: e, systemMessage: text(e))
    }

    static func text(_ e: Int32) -> String? { Errno(rawValue: e).description }
}
