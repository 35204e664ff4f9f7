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

    public init(specificForce: Vector3, angularRate: Vector3, magneticField: Vector3) {
        self.specificForce = specificForce; self.angularRate = angularRate; self.magneticField = magneticField
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
