/// The chip families motionlog drives.
public enum IMUModel: String, Sendable, CaseIterable, CustomStringConvertible {
    case mpu9250
    case icm20948
    case lsm9ds1

    /// The name used in messages, e.g. `MPU-9250`.
    public var displayName: String {
        switch self {
        case .mpu9250: return "MPU-9250"
        case .icm20948: return "ICM-20948"
        case .lsm9ds1: return "LSM9DS1"
        }
    }

    public var description: String { rawValue }
}

/// How to set up an IMU: where it sits, which ranges, and how to handle trouble.
/// Ranges are the smallest the chip supports that cover the request (the largest when
/// the request exceeds them all).
public struct IMUOptions: Sendable, Equatable {
    /// Requested accelerometer full scale, ±g.
    public var accelRangeG: Double = 16
    /// Requested gyroscope full scale, ±°/s.
    public var gyroRangeDegPerSec: Double = 2000
    /// Requested magnetometer full scale, ±µT (only the LSM9DS1 has a choice: 400…1600 µT).
    public var magRangeMicroTesla: Double = 400
    /// The chip's address; nil tries its usual addresses in turn.
    public var address: UInt8?
    /// The magnetometer's own address where it is a separate device (LSM9DS1).
    public var magAddress: UInt8?
    /// Chip axes → device axes.
    public var mount: MountOrientation = .identity
    public var recovery = RecoveryPolicy()

    public init(accelRangeG: Double = 16, gyroRangeDegPerSec: Double = 2000, magRangeMicroTesla: Double = 400,
                address: UInt8? = nil, magAddress: UInt8? = nil, mount: MountOrientation = .identity,
                recovery: RecoveryPolicy = RecoveryPolicy()) {
        self.accelRangeG = accelRangeG; self.gyroRangeDegPerSec = gyroRangeDegPerSec
        self.magRangeMicroTesla = magRangeMicroTesla; self.address = address; self.magAddress = magAddress
        self.mount = mount; self.recovery = recovery
    }
}

/// Picks the smallest supported full scale covering `requested`, else the largest.
enum RangeChoice {
    static func pick<T>(_ requested: Double, from options: [(range: Double, value: T)]) -> (range: Double, value: T) {
        let sorted = options.sorted { $0.range < $1.range }
        return sorted.first { $0.range >= requested - 1e-9 } ?? sorted[sorted.count - 1]
    }
}
