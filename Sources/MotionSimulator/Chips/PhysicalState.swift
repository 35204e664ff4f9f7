import MotionMath

/// What a chip physically experiences at one instant, in the CHIP's accelerometer/gyroscope
/// frame: the values a register-level fake encodes.
public struct PhysicalState: Sendable, Equatable {
    /// Specific force in g, as a chip measures it: +1 on the up axis at rest (the opposite
    /// sign of the recording format's A rows).
    public var specificForce: Vector3
    /// Angular rate, rad/s, right-handed about the chip axes.
    public var angularRate: Vector3
    /// Magnetic field, µT, in the accelerometer/gyroscope frame (each fake magnetometer
    /// turns it into its own die's axes).
    public var magneticField: Vector3
    /// The chip's true attitude and gravity (what a perfect on-chip fusion reports), when
    /// the truth knows them; nil for truths that give the sensor values only.
    public var orientation: OrientationTruth?

    public init(specificForce: Vector3, angularRate: Vector3, magneticField: Vector3, orientation: OrientationTruth? = nil) {
        self.specificForce = specificForce; self.angularRate = angularRate; self.magneticField = magneticField
        self.orientation = orientation
    }

    /// From SI units: specific force in m/s² (standard gravity 9.80665 m/s² per g).
    public init(specificForceMetersPerSecondSquared f: Vector3, angularRate: Vector3, magneticField: Vector3) {
        self.init(specificForce: f / 9.80665, angularRate: angularRate, magneticField: magneticField)
    }

    /// Lying still face up in a 48 µT field pointing north and down.
    public static let faceUpAtRest = PhysicalState(specificForce: Vector3(0, 0, 1), angularRate: .zero,
                                                   magneticField: Vector3(0, 20, -44))
}

/// The physical truth over time: elapsed seconds → state.
public typealias PhysicalTruth = (Double) -> PhysicalState

/// What a perfectly calibrated chip's own fusion would report, in the CHIP frame: the true
/// attitude and gravity, and the sensor offsets its calibration removes from the data it
/// outputs in fusion mode. A register-level fake with a fusion mode (`FakeBNO055` in NDOF)
/// encodes these; the fake's fusion is the truth, not a model of the chip's algorithm.
public struct OrientationTruth: Sendable, Equatable {
    /// Chip → East-North-Up, north = magnetic north (yaw 0 with the chip's Y axis north).
    public var attitude: Quaternion
    /// The part of the specific force gravity causes, g, chip frame, specific-force sign:
    /// +1 on the up axis (what a chip lying still measures).
    public var gravity: Vector3
    /// Gyroscope offset (rad/s) and magnetometer hard-iron offset (µT) in the chip frame:
    /// included in `PhysicalState.angularRate` / `magneticField`, removed by a calibrated
    /// chip in fusion mode.
    public var gyroOffset: Vector3
    public var magOffset: Vector3

    public init(attitude: Quaternion, gravity: Vector3, gyroOffset: Vector3 = .zero, magOffset: Vector3 = .zero) {
        self.attitude = attitude; self.gravity = gravity; self.gyroOffset = gyroOffset; self.magOffset = magOffset
    }

    /// A still chip at `attitude` (chip → ENU): gravity follows from it.
    public init(still attitude: Quaternion) {
        self.init(attitude: attitude, gravity: attitude.inverseRotate(Vector3(0, 0, 1)))
    }
}
