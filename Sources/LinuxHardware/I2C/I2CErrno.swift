import Glibc
import IMUDrivers

/// Turns the errno of a failed open, ioctl or transfer on `/dev/i2c-N` into a typed
/// `I2CError` whose message says what to do. Pure: tests call it with any errno.
public enum I2CErrno {
    /// `open(2)` failed.
    public static func openError(path: String, errno e: Int32) -> I2CError {
        let kind: I2CError.Kind
        switch e {
        case ENOENT, ENODEV, ENXIO: kind = .noSuchBus
        case EACCES, EPERM: kind = .permissionDenied
        default: kind = .openFailed
        }
        return I2CError(kind: kind, bus: path, operation: .open, errno: e, systemMessage: text(e))
    }

    /// The `I2C_FUNCS` ioctl failed: ENOTTY (or EINVAL) means the node is not an I2C adapter.
    public static func functionalityError(path: String, errno e: Int32) -> I2CError {
        let kind: I2CError.Kind = (e == ENOTTY || e == EINVAL) ? .notAnAdapter : .openFailed
        return I2CError(kind: kind, bus: path, operation: .open, errno: e, systemMessage: text(e))
    }

    /// An `I2C_RDWR` transfer failed. Adapters report a missing acknowledge as ENXIO or
    /// EREMOTEIO, lost arbitration as EAGAIN, a stuck bus as ETIMEDOUT.
    public static func transferError(path: String, operation: I2CError.Operation, address: UInt8, register: UInt8,
                                     errno e: Int32) -> I2CError {
        let kind: I2CError.Kind
        switch e {
        case ENXIO, EREMOTEIO: kind = .noAcknowledge
        case EIO, EAGAIN, EPROTO: kind = .ioError
        case ETIMEDOUT: kind = .timeout
        default: kind = .transferFailed
        }
        return I2CError(kind: kind, bus: path, operation: operation, address: address, register: register,
                        errno: e, systemMessage: text(e))
    }

    static func text(_ e: Int32) -> String? {
        guard let s = strerror(e) else { return nil }
        return String(cString: s)
    }
}
