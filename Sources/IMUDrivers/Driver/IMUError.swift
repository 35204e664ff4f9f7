/// Why an IMU could not be brought up. Every case says what, where and what to do.
public enum IMUError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A bus transfer failed (after its retry).
    case bus(I2CError)
    /// The device at the address is not the chip configured.
    case wrongIdentity(chip: String, bus: String, address: UInt8, register: UInt8, expected: [UInt8], found: UInt8)
    /// None of the chip's usual addresses answered.
    case notFound(chip: String, bus: String, addresses: [UInt8], lastError: I2CError)
    /// The requested sample rate is above what the chip can deliver.
    case rateUnsupported(chip: String, requestedHz: Int, maximumHz: Int)
    /// A configuration register did not keep the value written to it.
    case configurationRejected(chip: String, bus: String, address: UInt8, register: UInt8, wrote: UInt8, readBack: UInt8)
    /// The configured chip is absent but a look-alike answers (e.g. a QMC5883L on a module
    /// sold as HMC5883L): `use` is the model to configure instead.
    case lookAlikeFound(chip: String, bus: String, found: String, address: UInt8, use: String)
    /// The chip's own fusion was asked for (`--device-motion chip`), but it has none.
    case fusionUnsupported(chip: String)

    public var description: String {
        switch self {
        case .bus(let e):
            return e.description
        case .wrongIdentity(let chip, let bus, let address, let register, let expected, let found):
            var s = "the device at \(Hex.byte(address)) on \(bus) is not a\(chip.first.map { "AEIOUaeiou".contains($0) } == true ? "n" : "") \(chip): "
                + "its identity register \(Hex.byte(register)) reads \(Hex.byte(found)), expected "
                + expected.map(Hex.byte).joined(separator: " or ")
            if let known = KnownIdentity.name(register: register, value: found) {
                s += " (\(Hex.byte(found)) there is what a\(known.first.map { "AEIOUaeiou".contains($0) } == true ? "n" : "") \(known) reports)"
            }
            return s + ". Set the right model in the board file (`imu: model:`), or use `model: auto`; `motionlog probe` lists what answers."
        case .notFound(let chip, let bus, let addresses, let lastError):
            return "no \(chip) answered on \(bus) at " + addresses.map(Hex.byte).joined(separator: " or ")
                + ": \(lastError.description)"
        case .configurationRejected(let chip, let bus, let address, let register, let wrote, let readBack):
            return "the \(chip) at \(Hex.byte(address)) on \(bus) did not keep its configuration: register \(Hex.byte(register)) "
                + "reads \(Hex.byte(readBack)) after writing \(Hex.byte(wrote)). Check the wiring and the power supply, "
                + "and that no other program drives the chip."
        case .lookAlikeFound(let chip, let bus, let found, let address, let use):
            return "no \(chip) answered on \(bus), but a \(found) answers at \(Hex.byte(address)) (modules are often sold "
                + "under the other chip's name): configure \(use) instead (`--imu` or the board file's `imu: model:`)."
        case .fusionUnsupported(let chip):
            return IMUError.noFusionMessage(chip: chip)
        case .rateUnsupported(let chip, let requested, let maximum):
            return "the \(chip) delivers at most \(maximum) samples per second; --rate \(requested) is too high: use --rate \(maximum) or lower"
        }
    }
}

extension IMUError {
    /// Why `--device-motion chip` cannot be used with `chip`, and what to do.
    public static func noFusionMessage(chip: String) -> String {
        "the \(chip) has no sensor fusion of its own to record as D rows; of the supported IMUs only the "
            + IMUSelection.withOwnFusion.map(\.displayName).joined(separator: ", ")
            + " has. Use device motion from motionlog's fusion (--device-motion motionlog, the default), "
            + "or an IMU with its own fusion (e.g. imu: model: bno055, or --imu bno055 on the simulator)."
    }
}

/// Identity values of chips one may find instead of the configured one, for clearer errors.
enum KnownIdentity {
    static func name(register: UInt8, value: UInt8) -> String? {
        switch (register, value) {
        case (0x75, 0x71): return "MPU-9250"
        case (0x75, 0x73): return "MPU-9255"
        case (0x75, 0x70): return "MPU-6500 (no magnetometer)"
        case (0x75, 0x68): return "MPU-6050 (no magnetometer)"
        case (0x75, 0x47): return "ICM-42688-P (no magnetometer)"
        case (0x0F, 0x6C): return "LSM6DSOX (no magnetometer)"
        case (0x0F, 0x6A): return "LSM6DS3TR-C (no magnetometer)"
        case (0x0F, 0x6B): return "ISM330DHCX (no magnetometer)"
        case (0x00, 0xEA): return "ICM-20948"
        case (0x0F, 0x68): return "LSM9DS1 accelerometer/gyroscope"
        case (0x0F, 0x3D): return "LSM9DS1 magnetometer or LIS3MDL"
        case (0x0F, 0x69): return "LSM6DS3"
        default: return nil
        }
    }
}
