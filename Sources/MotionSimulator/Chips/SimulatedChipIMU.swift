import IMUDrivers
import MotionCore

/// The simulator board with `--imu mpu9250|…|mpu6050+qmc5883l|bno055`: the REAL chip
/// drivers run against register-level fakes of those chips on a fake I2C bus, fed with the
/// scripted ride. Each tick moves the bus clock to the tick's time, then the driver reads.
/// A composite IMU's magnetometer sits behind the MPU-6050's auxiliary bus (as on a GY-87)
/// or directly on the bus (the other accelerometer/gyroscope chips).
public final class SimulatedChipIMU: MotionSensor {
    public let selection: IMUSelection
    public var model: IMUModel { selection.model }
    public let bus: FakeI2CBus
    public let driver: IMUDriver
    /// The fakes on the bus, for fault injection.
    public let board: FakeIMUBoard
    /// The accelerometer/gyroscope chip model on the bus.
    public var chip: FakeI2CDevice { board.chip }

    public init(selection: IMUSelection, truth: @escaping PhysicalTruth, magTruth: PhysicalTruth? = nil,
                options: IMUOptions = IMUOptions(), onEvent: ((IMUEvent) -> Void)? = nil) {
        self.selection = selection
        bus = FakeI2CBus(name: "simulated I2C bus")
        board = FakeIMUBoard(selection, bus: bus, truth: truth, magTruth: magTruth, address: options.address,
                             magAddress: options.magAddress, magBehindHost: selection.model == .mpu6050)
        board.install()
        // The fakes take configuration at once, so bring-up needs no real waiting.
        driver = IMUDriver(selection: selection, bus: bus, options: options, pause: { _ in }, onEvent: onEvent)
    }

    public convenience init(model: IMUModel, truth: @escaping PhysicalTruth, options: IMUOptions = IMUOptions(),
                            onEvent: ((IMUEvent) -> Void)? = nil) {
        self.init(selection: IMUSelection(model), truth: truth, options: options, onEvent: onEvent)
    }

    /// The scripted ride (with the simulated IMU's noise and biases) on chips mounted with
    /// `options.mount` (and the magnetometer chip with `options.magMount`).
    public convenience init(selection: IMUSelection, ride: SimulatedIMU = SimulatedIMU(), options: IMUOptions = IMUOptions(),
                            onEvent: ((IMUEvent) -> Void)? = nil) {
        let magTruth = options.magMount.map { ChipFrameTruth.ride(ride, mount: $0) }
        self.init(selection: selection, truth: ChipFrameTruth.ride(ride, mount: options.mount), magTruth: magTruth,
                  options: options, onEvent: onEvent)
    }

    public convenience init(model: IMUModel, ride: SimulatedIMU = SimulatedIMU(), options: IMUOptions = IMUOptions(),
                            onEvent: ((IMUEvent) -> Void)? = nil) {
        self.init(selection: IMUSelection(model), ride: ride, options: options, onEvent: onEvent)
    }

    public var info: SensorInfo {
        var i = driver.info
        i.notes.insert("simulated: the \(selection.displayName) driver against register-level fakes of the chips", at: 0)
        return i
    }

    public var health: SensorHealth { driver.health }

    public var hasMagnetometer: Bool? { driver.hasMagnetometer }

    public var chipFusionInfo: [String: String]? {
        guard var info = driver.chipFusionInfo else { return nil }
        info["chip"] = "simulated: " + (info["chip"] ?? selection.displayName)
            + " (a register-level fake whose fusion reports the ride's true attitude, quantised as the chip's registers)"
        return info
    }

    public func start(rateHz: Int) throws {
        bus.advance(to: 0)
        try driver.start(rateHz: rateHz)
    }

    public func read(at tick: Tick) -> MotionReading {
        bus.advance(to: tick.elapsed)
        return driver.read(at: tick)
    }
}
