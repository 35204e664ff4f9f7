import IMUDrivers
import MotionCore

/// The simulator board with `--imu mpu9250|icm20948|lsm9ds1`: the REAL chip driver runs
/// against a register-level fake of that chip on a fake I2C bus, the fake fed with the
/// scripted ride. Each tick moves the bus clock to the tick's time, then the driver reads.
public final class SimulatedChipIMU: MotionSensor {
    public let model: IMUModel
    public let bus: FakeI2CBus
    public let driver: IMUDriver
    /// The chip model on the bus (a `FakeMPU9250`, `FakeICM20948` or `FakeLSM9DS1`), for fault injection.
    public let chip: FakeI2CDevice

    public init(model: IMUModel, truth: @escaping PhysicalTruth, options: IMUOptions = IMUOptions(),
                onEvent: ((IMUEvent) -> Void)? = nil) {
        self.model = model
        bus = FakeI2CBus(name: "simulated I2C bus")
        switch model {
        case .mpu9250:
            let c = FakeMPU9250(truth: truth)
            c.install(on: bus, address: options.address ?? 0x68)
            chip = c
        case .icm20948:
            let c = FakeICM20948(truth: truth)
            c.install(on: bus, address: options.address ?? 0x69)
            chip = c
        case .lsm9ds1:
            let c = FakeLSM9DS1(truth: truth)
            c.install(on: bus, address: options.address ?? 0x6B, magAddress: options.magAddress ?? 0x1E)
            chip = c
        }
        // The fakes take configuration at once, so bring-up needs no real waiting.
        driver = IMUDriver(model: model, bus: bus, options: options, pause: { _ in }, onEvent: onEvent)
    }

    /// The scripted ride (with the simulated IMU's noise and biases) on a chip mounted with `options.mount`.
    public convenience init(model: IMUModel, ride: SimulatedIMU = SimulatedIMU(), options: IMUOptions = IMUOptions(),
                            onEvent: ((IMUEvent) -> Void)? = nil) {
        self.init(model: model, truth: ChipFrameTruth.ride(ride, mount: options.mount), options: options, onEvent: onEvent)
    }

    public var info: SensorInfo {
        var i = driver.info
        i.notes.insert("simulated: the \(model.displayName) driver against a register-level fake of the chip", at: 0)
        return i
    }

    public var health: SensorHealth { driver.health }

    public func start(rateHz: Int) throws {
        bus.advance(to: 0)
        try driver.start(rateHz: rateHz)
    }

    public func read(at tick: Tick) -> MotionReading {
        bus.advance(to: tick.elapsed)
        return driver.read(at: tick)
    }
}
