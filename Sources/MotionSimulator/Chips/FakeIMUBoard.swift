import IMUDrivers

/// The register-level fakes for an `IMUSelection` on one fake bus, at their usual
/// addresses: the chip (or accelerometer/gyroscope chip) and, for a composite IMU, the
/// magnetometer chip, optionally behind an MPU-6050's auxiliary bus (as on a GY-87).
/// One place for the simulator board and the tests to build, fault and reset them.
public final class FakeIMUBoard {
    public let selection: IMUSelection
    public let bus: FakeI2CBus
    /// The accelerometer/gyroscope chip, or the whole IMU for the one-chip models.
    public let chip: FakeI2CDevice
    /// The separate magnetometer chip of a composite IMU.
    public let magnetometer: FakeMagnetometerChip?
    public let address: UInt8
    /// Where the magnetometer answers (the one inside the chip, or the separate one); nil without one.
    public let magAddress: UInt8?

    /// `truth` is in the accelerometer/gyroscope chip's frame; `magTruth` (default: `truth`)
    /// gives the field along the separate magnetometer chip's own axes.
    public init(_ selection: IMUSelection, bus: FakeI2CBus, truth: @escaping PhysicalTruth,
                magTruth: PhysicalTruth? = nil, address: UInt8? = nil, magAddress: UInt8? = nil,
                magBehindHost: Bool = false) {
        self.selection = selection
        self.bus = bus
        switch selection.model {
        case .mpu9250: chip = FakeMPU9250(truth: truth)
        case .icm20948: chip = FakeICM20948(truth: truth)
        case .lsm9ds1: chip = FakeLSM9DS1(truth: truth)
        case .mpu6050: chip = FakeMPU6050(truth: truth)
        case .lsm6dsox: chip = FakeLSM6DSOX(truth: truth)
        case .icm42688: chip = FakeICM42688(truth: truth)
        case .bno055: chip = FakeBNO055(truth: truth)
        }
        self.address = address ?? Self.defaultAddress(selection.model)
        let mag: FakeMagnetometerChip?
        switch selection.magnetometer {
        case nil: mag = nil
        case .hmc5883l: mag = FakeHMC5883L(truth: magTruth ?? truth)
        case .qmc5883l: mag = FakeQMC5883L(truth: magTruth ?? truth)
        case .lis3mdl: mag = FakeLIS3MDL(truth: magTruth ?? truth)
        }
        if magBehindHost, let host = chip as? FakeMPU6050, let mag {
            mag.reachable = { [weak host] in host?.bypassOpen ?? false }
        }
        magnetometer = mag
        switch (selection.model, selection.magnetometer) {
        case (_, .some(let m)): self.magAddress = magAddress ?? Self.defaultAddress(m)
        case (.mpu9250, nil), (.icm20948, nil): self.magAddress = 0x0C
        case (.lsm9ds1, nil): self.magAddress = magAddress ?? 0x1E
        case (.bno055, nil): self.magAddress = self.address
        default: self.magAddress = nil
        }
    }

    public static func defaultAddress(_ model: IMUModel) -> UInt8 {
        switch model {
        case .mpu9250, .mpu6050, .icm42688: return 0x68
        case .icm20948: return 0x69
        case .lsm9ds1: return 0x6B
        case .lsm6dsox: return 0x6A
        case .bno055: return 0x28
        }
    }

    public static func defaultAddress(_ model: MagnetometerModel) -> UInt8 {
        switch model {
        case .hmc5883l: return 0x1E
        case .qmc5883l: return 0x0D
        case .lis3mdl: return 0x1C
        }
    }

    /// Attaches every chip at its address.
    public func install() {
        switch chip {
        case let c as FakeMPU9250: c.install(on: bus, address: address)
        case let c as FakeICM20948: c.install(on: bus, address: address)
        case let c as FakeLSM9DS1: c.install(on: bus, address: address, magAddress: magAddress ?? 0x1E)
        default: bus.attach(chip, at: address)
        }
        if let magnetometer, let magAddress { bus.attach(magnetometer, at: magAddress) }
    }

    /// A power glitch on the board: every chip returns to its power-on state.
    public func powerCycle() {
        switch chip {
        case let c as FakeMPU9250: c.powerCycle()
        case let c as FakeICM20948: c.powerCycle()
        case let c as FakeLSM9DS1: c.powerCycle()
        case let c as FakeInertialChip: c.powerCycle()
        default: break
        }
        magnetometer?.powerCycle()
    }

    /// The magnetometer stops producing new data (or, with false, resumes).
    public func setMagDataReadyStuck(_ stuck: Bool) {
        if let magnetometer { magnetometer.dataReadyNeverSet = stuck; return }
        switch chip {
        case let c as FakeMPU9250: c.magnetometer.dataReadyNeverSet = stuck
        case let c as FakeICM20948: c.magnetometer.dataReadyNeverSet = stuck
        case let c as FakeLSM9DS1: c.magnetometer.dataReadyNeverSet = stuck
        case let c as FakeBNO055: c.dataReadyNeverSet = stuck
        default: break
        }
    }

    /// The chip's identity register value (set another to fake a wrong chip).
    public var identity: UInt8 {
        get {
            switch chip {
            case let c as FakeMPU9250: return c.identity
            case let c as FakeICM20948: return c.identity
            case let c as FakeLSM9DS1: return c.identity
            case let c as FakeInertialChip: return c.identity
            default: return 0
            }
        }
        set {
            switch chip {
            case let c as FakeMPU9250: c.identity = newValue
            case let c as FakeICM20948: c.identity = newValue
            case let c as FakeLSM9DS1: c.identity = newValue
            case let c as FakeInertialChip: c.identity = newValue
            default: break
            }
        }
    }
}
