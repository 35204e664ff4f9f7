import Foundation

/// The accelerometer/gyroscope chips (or whole IMUs) motionlog drives.
public enum IMUModel: String, Sendable, CaseIterable, CustomStringConvertible {
    case mpu9250
    case icm20948
    case lsm9ds1
    case mpu6050
    /// The LSM6DSOX and its register-compatible relatives LSM6DS3TR-C and ISM330DHCX.
    case lsm6dsox
    case icm42688
    case bno055

    /// The name used in messages, e.g. `MPU-9250`.
    public var displayName: String {
        switch self {
        case .mpu9250: return "MPU-9250"
        case .icm20948: return "ICM-20948"
        case .lsm9ds1: return "LSM9DS1"
        case .mpu6050: return "MPU-6050"
        case .lsm6dsox: return "LSM6DSOX"
        case .icm42688: return "ICM-42688-P"
        case .bno055: return "BNO055"
        }
    }

    /// True when the chip has a magnetometer of its own; the others take one as `+mag`.
    public var hasMagnetometer: Bool {
        switch self {
        case .mpu9250, .icm20948, .lsm9ds1, .bno055: return true
        case .mpu6050, .lsm6dsox, .icm42688: return false
        }
    }

    /// True when the chip runs a sensor fusion of its own whose output motionlog can
    /// record as D rows (`--device-motion chip`): the BNO055 (NDOF mode).
    public var hasOwnFusion: Bool { self == .bno055 }

    public var description: String { rawValue }
}

/// Magnetometer chips that pair with an accelerometer/gyroscope chip on the same bus.
public enum MagnetometerModel: String, Sendable, CaseIterable, CustomStringConvertible {
    case hmc5883l
    case qmc5883l
    case lis3mdl

    public var displayName: String {
        switch self {
        case .hmc5883l: return "HMC5883L"
        case .qmc5883l: return "QMC5883L"
        case .lis3mdl: return "LIS3MDL"
        }
    }

    public var description: String { rawValue }
}

/// Which IMU: one chip (`mpu9250`, `bno055`) or an accelerometer/gyroscope chip plus a
/// magnetometer chip (`mpu6050+qmc5883l`), as written after `--imu` and in board files.
public struct IMUSelection: Sendable, Hashable, CustomStringConvertible {
    public var model: IMUModel
    public var magnetometer: MagnetometerModel?

    public init(_ model: IMUModel, _ magnetometer: MagnetometerModel? = nil) {
        self.model = model; self.magnetometer = magnetometer
    }

    /// Parses `model` or `model+magnetometer`; the error says what is accepted.
    public init(parsing text: String) throws(IMUSelectionError) {
        let parts = text.lowercased().split(separator: "+", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        guard parts.count <= 2, let model = IMUModel(rawValue: parts[0]) else { throw IMUSelectionError(text: text) }
        guard parts.count == 2 else { self.init(model); return }
        guard let mag = MagnetometerModel(rawValue: parts[1]) else { throw IMUSelectionError(text: text) }
        guard !model.hasMagnetometer else { throw IMUSelectionError(text: text, ownMagnetometer: model) }
        self.init(model, mag)
    }

    /// E.g. `MPU-6050 + QMC5883L`.
    public var displayName: String { model.displayName + (magnetometer.map { " + " + $0.displayName } ?? "") }
    /// E.g. `mpu6050+qmc5883l`.
    public var description: String { model.rawValue + (magnetometer.map { "+" + $0.rawValue } ?? "") }
    /// True when M rows can come (own magnetometer or a paired one).
    public var hasMagnetometer: Bool { model.hasMagnetometer || magnetometer != nil }
    /// True when the IMU can deliver its own fusion as D rows (a one-chip BNO055).
    public var hasOwnFusion: Bool { model.hasOwnFusion && magnetometer == nil }
    /// The IMUs that can, for messages.
    public static let withOwnFusion = IMUModel.allCases.filter(\.hasOwnFusion)

    /// Every accepted spelling's shape, for help texts and errors.
    public static let help = "one of " + IMUModel.allCases.map(\.rawValue).joined(separator: ", ")
        + ", optionally with a magnetometer as +" + MagnetometerModel.allCases.map(\.rawValue).joined(separator: "|+")
        + " for the chips without one (e.g. mpu6050+qmc5883l)"
}

/// An `--imu` / `imu: model:` text that names no supported IMU.
public struct IMUSelectionError: Error, Sendable, Equatable, CustomStringConvertible {
    public var text: String
    public var ownMagnetometer: IMUModel?

    public var description: String {
        if let m = ownMagnetometer {
            return "\"\(text)\": the \(m.displayName) has its own magnetometer; pair a magnetometer only with "
                + IMUModel.allCases.filter { !$0.hasMagnetometer }.map(\.rawValue).joined(separator: ", ")
        }
        return "\"\(text)\" is not a supported IMU: use \(IMUSelection.help)"
    }
}

/// How to set up an IMU: where it sits, which ranges, and how to handle trouble.
/// Ranges are the smallest the chip supports that cover the request (the largest when
/// the request exceeds them all).
public struct IMUOptions: Sendable, Equatable {
    /// Requested accelerometer full scale, ±g.
    public var accelRangeG: Double = 16
    /// Requested gyroscope full scale, ±°/s.
    public var gyroRangeDegPerSec: Double = 2000
    /// Requested magnetometer full scale, ±µT (LSM9DS1/LIS3MDL 400…1600, QMC5883L 200 or 800,
    /// HMC5883L 88…810; the AKM parts and the BNO055 have one).
    public var magRangeMicroTesla: Double = 400
    /// The chip's address; nil tries its usual addresses in turn.
    public var address: UInt8?
    /// The magnetometer's own address where it is a separate device (LSM9DS1, or the
    /// magnetometer chip of a composite IMU).
    public var magAddress: UInt8?
    /// Chip axes → device axes.
    public var mount: MountOrientation = .identity
    /// The separate magnetometer chip's axes → device axes; nil when it sits like the
    /// accelerometer/gyroscope chip (`mount`).
    public var magMount: MountOrientation?
    public var recovery = RecoveryPolicy()
    /// Run the chip's own sensor fusion and deliver it (`MotionReading.chipFusion`): the
    /// BNO055 in NDOF mode instead of AMG. `IMUDriver.start` refuses it for a chip without
    /// one (`IMUSelection.hasOwnFusion`).
    public var chipFusion = false

    public init(accelRangeG: Double = 16, gyroRangeDegPerSec: Double = 2000, magRangeMicroTesla: Double = 400,
                address: UInt8? = nil, magAddress: UInt8? = nil, mount: MountOrientation = .identity,
                magMount: MountOrientation? = nil, recovery: RecoveryPolicy = RecoveryPolicy(), chipFusion: Bool = false) {
        self.accelRangeG = accelRangeG; self.gyroRangeDegPerSec = gyroRangeDegPerSec
        self.magRangeMicroTesla = magRangeMicroTesla; self.address = address; self.magAddress = magAddress
        self.mount = mount; self.magMount = magMount; self.recovery = recovery; self.chipFusion = chipFusion
    }
}

/// Picks the smallest supported full scale covering `requested`, else the largest.
enum RangeChoice {
    static func pick<T>(_ requested: Double, from options: [(range: Double, value: T)]) -> (range: Double, value: T) {
        let sorted = options.sorted { $0.range < $1.range }
        return sorted.first { $0.range >= requested - 1e-9 } ?? sorted[sorted.count - 1]
    }
}
