/// Why an I2C operation failed, with everything needed to find the fault: the bus, the
/// device address, the register, the operation and the errno, plus what to do about it.
public struct I2CError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The class of failure; decides the advice given.
    public enum Kind: Sendable, Equatable {
        /// The device node does not exist (I2C not enabled, or wrong bus number).
        case noSuchBus
        /// The device node exists but this user may not open it.
        case permissionDenied
        /// The path opened is not an I2C adapter (the I2C ioctls fail with ENOTTY).
        case notAnAdapter
        /// The adapter cannot do combined (repeated-START) transfers.
        case noCombinedTransfers
        /// Opening failed for another reason.
        case openFailed
        /// No device acknowledged the address (NACK): absent, unpowered or miswired.
        case noAcknowledge
        /// The transfer failed on the wire (EIO): bus error, arbitration lost, glitch.
        case ioError
        /// The transfer timed out (clock stretching or a stuck bus).
        case timeout
        /// The transfer moved fewer messages than asked.
        case shortTransfer
        /// Any other transfer failure.
        case transferFailed
    }

    /// What was being done.
    public enum Operation: Sendable, Equatable {
        case open
        case read(count: Int)
        case write(count: Int)
    }

    public var kind: Kind
    /// The bus, e.g. `/dev/i2c-1`.
    public var bus: String
    public var operation: Operation
    public var address: UInt8?
    public var register: UInt8?
    /// The errno reported by the kernel (or simulated by a fake), if any.
    public var errno: Int32?
    /// The system's text for the errno (`strerror`), if known.
    public var systemMessage: String?

    public init(kind: Kind, bus: String, operation: Operation, address: UInt8? = nil, register: UInt8? = nil,
                errno: Int32? = nil, systemMessage: String? = nil) {
        self.kind = kind; self.bus = bus; self.operation = operation; self.address = address
        self.register = register; self.errno = errno; self.systemMessage = systemMessage
    }

    public var description: String {
        var what: String
        switch operation {
        case .open: what = "opening \(bus)"
        case .read(let n): what = "I2C read of \(n) byte\(n == 1 ? "" : "s")"
        case .write(let n): what = "I2C write of \(n) byte\(n == 1 ? "" : "s")"
        }
        if operation != .open {
            if let register { what += " at register \(Hex.byte(register))" }
            if let address { what += " of device \(Hex.byte(address))" }
            what += " on \(bus)"
        }
        var cause = Self.summary(kind)
        if let errno {
            cause += " (errno \(errno)" + (systemMessage.map { ": \($0)" } ?? "") + ")"
        }
        return "\(what) failed: \(cause). \(advice)"
    }

    /// What to do about it, in one or two sentences.
    public var advice: String {
        switch kind {
        case .noSuchBus:
            return "Enable I2C: on a Raspberry Pi add `dtparam=i2c_arm=on` to /boot/firmware/config.txt "
                + "(or run `sudo raspi-config` → Interface Options → I2C) and reboot; elsewhere load the "
                + "driver with `sudo modprobe i2c-dev`. Check the bus number: `ls /dev/i2c-*`."
        case .permissionDenied:
            return "Add your user to the `i2c` group (`sudo usermod -aG i2c $USER`, then log in again), "
                + "or install a udev rule such as `SUBSYSTEM==\"i2c-dev\", GROUP=\"i2c\", MODE=\"0660\"` "
                + "in /etc/udev/rules.d/99-i2c.rules and run `sudo udevadm trigger`."
        case .notAnAdapter:
            return "\(bus) is not an I2C adapter: give an I2C bus device such as /dev/i2c-1 (`ls /dev/i2c-*`)."
        case .noCombinedTransfers:
            return "This adapter only supports SMBus transfers; motionlog needs plain I2C with repeated START "
                + "(on a Raspberry Pi use the hardware bus /dev/i2c-1)."
        case .openFailed:
            return "Check that the device node is an I2C bus and not in use by something else."
        case .noAcknowledge:
            return "Nothing answered at that address: check wiring, power and the address "
                + "(`motionlog probe` lists the chips that answer)."
        case .ioError, .transferFailed, .shortTransfer:
            return "The bus is unreliable: check wiring, pull-up resistors and cable length."
        case .timeout:
            return "A device is holding the bus: power-cycle the sensor and check the wiring."
        }
    }

    static func summary(_ kind: Kind) -> String {
        switch kind {
        case .noSuchBus: return "no such I2C bus"
        case .permissionDenied: return "permission denied"
        case .notAnAdapter: return "not an I2C adapter"
        case .noCombinedTransfers: return "the adapter cannot do combined I2C transfers"
        case .openFailed: return "cannot open the device"
        case .noAcknowledge: return "no acknowledge (NACK)"
        case .ioError: return "I/O error on the bus"
        case .timeout: return "timed out"
        case .shortTransfer: return "the transfer was cut short"
        case .transferFailed: return "transfer failed"
        }
    }
}

/// Hex text for register maps and messages: `0x3B`.
public enum Hex {
    public static func byte(_ value: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "0x" + String(digits[Int(value >> 4)]) + String(digits[Int(value & 0x0F)])
    }
}
