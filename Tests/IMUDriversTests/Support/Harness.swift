import IMUDrivers
import MotionCore
import MotionMath
import MotionSimulator

/// One chip model on a fake bus, driven by the real driver tick by tick on tick time.
final class Harness {
    let model: IMUModel
    let bus = FakeI2CBus(name: "/dev/i2c-test")
    let chip: FakeI2CDevice
    let driver: IMUDriver
    private(set) var events: [IMUEvent] = []
    private(set) var pauses: [Double] = []
    let rateHz: Int
    private(set) var tickIndex: Int64 = 0

    init(_ model: IMUModel, rateHz: Int = 100, options: IMUOptions = IMUOptions(), truth: @escaping PhysicalTruth,
         install: Bool = true) {
        self.model = model
        self.rateHz = rateHz
        switch model {
        case .mpu9250: chip = FakeMPU9250(truth: truth)
        case .icm20948: chip = FakeICM20948(truth: truth)
        case .lsm9ds1: chip = FakeLSM9DS1(truth: truth)
        }
        let box = EventBox()
        driver = IMUDriver(model: model, bus: bus, options: options,
                           pause: { box.pauses.append($0) }, onEvent: { box.events.append($0) })
        self.box = box
        if install { self.install() }
    }

    private let box: EventBox

    func install() {
        switch chip {
        case let c as FakeMPU9250: c.install(on: bus)
        case let c as FakeICM20948: c.install(on: bus)
        case let c as FakeLSM9DS1: c.install(on: bus)
        default: break
        }
    }

    var recordedEvents: [IMUEvent] { box.events }
    var recordedPauses: [Double] { box.pauses }

    func start() throws {
        bus.advance(to: 0)
        try driver.start(rateHz: rateHz)
    }

    var elapsed: Double { Double(tickIndex) / Double(rateHz) }

    /// Reads the next tick.
    @discardableResult
    func tick() -> MotionReading {
        let t = elapsed
        bus.advance(to: t)
        let reading = driver.read(at: Tick(index: tickIndex, monotonicNanos: tickIndex * 1_000_000_000 / Int64(rateHz),
                                           when: 1_700_000_000 + t, elapsed: t))
        tickIndex += 1
        return reading
    }

    /// Reads `n` ticks.
    func ticks(_ n: Int) -> [MotionReading] { (0..<n).map { _ in tick() } }

    /// Power-cycles the chip (both dies).
    func powerCycle() {
        switch chip {
        case let c as FakeMPU9250: c.powerCycle()
        case let c as FakeICM20948: c.powerCycle()
        case let c as FakeLSM9DS1: c.powerCycle()
        default: break
        }
    }

    var magAddress: UInt8 { model == .lsm9ds1 ? 0x1E : 0x0C }
    var address: UInt8 {
        switch model {
        case .mpu9250: return 0x68
        case .icm20948: return 0x69
        case .lsm9ds1: return 0x6B
        }
    }

    /// The magnetometer's data-ready fault switch.
    func setMagDataReadyStuck(_ stuck: Bool) {
        switch chip {
        case let c as FakeMPU9250: c.magnetometer.dataReadyNeverSet = stuck
        case let c as FakeICM20948: c.magnetometer.dataReadyNeverSet = stuck
        case let c as FakeLSM9DS1: c.magnetometer.dataReadyNeverSet = stuck
        default: break
        }
    }
}

final class EventBox {
    var events: [IMUEvent] = []
    var pauses: [Double] = []
}

/// Datasheet resolution of each chip's outputs (one LSB), written here from the
/// datasheets for the tests' tolerances.
enum Resolution {
    /// g per LSB for an accelerometer full scale.
    static func accel(_ model: IMUModel, range: Double) -> Double {
        switch model {
        case .mpu9250, .icm20948: return range / 32768
        case .lsm9ds1: return [2: 0.061e-3, 4: 0.122e-3, 8: 0.244e-3, 16: 0.732e-3][range] ?? .nan
        }
    }

    /// rad/s per LSB for a gyroscope full scale.
    static func gyro(_ model: IMUModel, range: Double) -> Double {
        let dps: Double
        switch model {
        case .mpu9250, .icm20948: dps = 1 / ([250: 131, 500: 65.5, 1000: 32.8, 2000: 16.4][range] ?? .nan)
        case .lsm9ds1: dps = ([245: 8.75e-3, 500: 17.5e-3, 2000: 70e-3][range] ?? .nan)
        }
        return dps * Double.pi / 180
    }

    /// µT per LSB of the magnetometer (largest adjustment for the AK8963 fuse ROM used).
    static func mag(_ model: IMUModel, range: Double = 400) -> Double {
        switch model {
        case .mpu9250: return 0.15 * 1.21
        case .icm20948: return 0.15
        case .lsm9ds1: return ([400: 0.014, 800: 0.029, 1200: 0.043, 1600: 0.058][range] ?? .nan)
        }
    }

    static let accelRanges: [IMUModel: [Double]] = [.mpu9250: [2, 4, 8, 16], .icm20948: [2, 4, 8, 16], .lsm9ds1: [2, 4, 8, 16]]
    static let gyroRanges: [IMUModel: [Double]] = [.mpu9250: [250, 500, 1000, 2000], .icm20948: [250, 500, 1000, 2000],
                                                   .lsm9ds1: [245, 500, 2000]]
}

func maxAbs(_ v: Vector3) -> Double { max(abs(v.x), abs(v.y), abs(v.z)) }
