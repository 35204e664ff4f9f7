import IMUDrivers
import MotionCore
import MotionMath
import MotionSimulator

/// Every IMU the parametrised tests run: the one-chip models and each accelerometer/
/// gyroscope chip with a magnetometer chip (each magnetometer at least once).
enum Chips {
    static let all: [IMUSelection] = [
        .mpu9250, .icm20948, .lsm9ds1, .mpu6050HMC, .mpu6050QMC, .lsm6dsoxLIS3MDL, .icm42688QMC, .bno055,
    ]
    /// The composite ones.
    static let composite: [IMUSelection] = all.filter { $0.magnetometer != nil }
}

extension IMUSelection {
    static let mpu9250 = IMUSelection(.mpu9250)
    static let icm20948 = IMUSelection(.icm20948)
    static let lsm9ds1 = IMUSelection(.lsm9ds1)
    static let bno055 = IMUSelection(.bno055)
    static let mpu6050HMC = IMUSelection(.mpu6050, .hmc5883l)
    static let mpu6050QMC = IMUSelection(.mpu6050, .qmc5883l)
    static let lsm6dsoxLIS3MDL = IMUSelection(.lsm6dsox, .lis3mdl)
    static let icm42688QMC = IMUSelection(.icm42688, .qmc5883l)
}

/// One IMU on a fake bus, driven by the real driver tick by tick on tick time.
final class Harness {
    let model: IMUSelection
    let bus = FakeI2CBus(name: "/dev/i2c-test")
    let board: FakeIMUBoard
    var chip: FakeI2CDevice { board.chip }
    let driver: IMUDriver
    let rateHz: Int
    private(set) var tickIndex: Int64 = 0
    private let box: EventBox

    init(_ model: IMUSelection, rateHz: Int = 100, options: IMUOptions = IMUOptions(), truth: @escaping PhysicalTruth,
         magTruth: PhysicalTruth? = nil, magBehindHost: Bool = false, install: Bool = true) {
        self.model = model
        self.rateHz = rateHz
        board = FakeIMUBoard(model, bus: bus, truth: truth, magTruth: magTruth, magBehindHost: magBehindHost)
        let box = EventBox()
        driver = IMUDriver(selection: model, bus: bus, options: options,
                           pause: { box.pauses.append($0) }, onEvent: { box.events.append($0) })
        self.box = box
        if install { self.install() }
    }

    func install() { board.install() }

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

    /// Power-cycles the chips.
    func powerCycle() { board.powerCycle() }

    var address: UInt8 { board.address }
    var magAddress: UInt8 { board.magAddress ?? 0 }

    /// The magnetometer's data-ready fault switch.
    func setMagDataReadyStuck(_ stuck: Bool) { board.setMagDataReadyStuck(stuck) }
}

final class EventBox {
    var events: [IMUEvent] = []
    var pauses: [Double] = []
}

/// Datasheet resolution of each chip's outputs (one LSB), written here from the
/// datasheets for the tests' tolerances.
enum Resolution {
    /// g per LSB for an accelerometer full scale.
    static func accel(_ model: IMUSelection, range: Double) -> Double {
        switch model.model {
        case .mpu9250, .icm20948, .mpu6050, .icm42688: return range / 32768
        case .lsm9ds1: return [2: 0.061e-3, 4: 0.122e-3, 8: 0.244e-3, 16: 0.732e-3][range] ?? .nan
        case .lsm6dsox: return [2: 0.061e-3, 4: 0.122e-3, 8: 0.244e-3, 16: 0.488e-3][range] ?? .nan
        case .bno055: return 1e-3
        }
    }

    /// rad/s per LSB for a gyroscope full scale.
    static func gyro(_ model: IMUSelection, range: Double) -> Double {
        let dps: Double
        switch model.model {
        case .mpu9250, .icm20948, .mpu6050, .icm42688:
            dps = 1 / ([15.625: 2097.2, 31.25: 1048.6, 62.5: 524.3, 125: 262,
                        250: 131, 500: 65.5, 1000: 32.8, 2000: 16.4][range] ?? .nan)
        case .lsm9ds1: dps = ([245: 8.75e-3, 500: 17.5e-3, 2000: 70e-3][range] ?? .nan)
        case .lsm6dsox: dps = ([125: 4.375e-3, 250: 8.75e-3, 500: 17.5e-3, 1000: 35e-3, 2000: 70e-3][range] ?? .nan)
        case .bno055: dps = 1 / 16
        }
        return dps * Double.pi / 180
    }

    /// µT per LSB of the magnetometer (largest adjustment for the AK8963 fuse ROM used).
    static func mag(_ model: IMUSelection, range: Double = 400) -> Double {
        switch model.magnetometer {
        case .hmc5883l:
            return 100 / ([88: 1370, 130: 1090, 190: 820, 250: 660, 400: 440, 470: 390, 560: 330, 810: 230][range] ?? .nan)
        case .qmc5883l: return 100 / ([200: 12000, 400: 3000, 800: 3000][range] ?? .nan)
        case .lis3mdl: return 100 / ([400: 6842, 800: 3421, 1200: 2281, 1600: 1711][range] ?? .nan)
        case nil: break
        }
        switch model.model {
        case .mpu9250: return 0.15 * 1.21
        case .icm20948: return 0.15
        case .lsm9ds1: return ([400: 0.014, 800: 0.029, 1200: 0.043, 1600: 0.058][range] ?? .nan)
        case .bno055: return 1 / 16
        default: return .nan
        }
    }

    static func accelRanges(_ model: IMUSelection) -> [Double] { [2, 4, 8, 16] }

    static func gyroRanges(_ model: IMUSelection) -> [Double] {
        switch model.model {
        case .lsm9ds1: return [245, 500, 2000]
        case .lsm6dsox, .bno055: return [125, 250, 500, 1000, 2000]
        case .icm42688: return [15.625, 31.25, 62.5, 125, 250, 500, 1000, 2000]
        default: return [250, 500, 1000, 2000]
        }
    }

    /// The magnetometer full scales the driver offers (one value where it has none to choose).
    static func magRanges(_ model: IMUSelection) -> [Double] {
        switch model.magnetometer {
        case .hmc5883l: return [88, 130, 190, 250, 400, 470, 560, 810]
        case .qmc5883l: return [200, 800]
        case .lis3mdl: return [400, 800, 1200, 1600]
        case nil: return model.model == .lsm9ds1 ? [400, 800, 1200, 1600] : (model.model == .bno055 ? [1200] : [1500])
        }
    }
}

func maxAbs(_ v: Vector3) -> Double { max(abs(v.x), abs(v.y), abs(v.z)) }
