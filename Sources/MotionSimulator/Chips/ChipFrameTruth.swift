import IMUDrivers
import MotionCore
import MotionMath

/// Device-frame values in the recording format's units and signs (A in g with CoreMotion
/// sign, gyro rad/s, mag µT), turned into what a chip mounted with `mount` physically
/// measures: each vector through the inverse mount, and A negated into specific force.
public enum ChipFrameTruth {
    public static func fromDevice(mount: MountOrientation,
                                  _ device: @escaping (Double) -> (accel: Vector3, gyro: Vector3, mag: Vector3)) -> PhysicalTruth {
        { t in
            let d = device(t)
            return PhysicalState(specificForce: mount.toChip(-d.accel), angularRate: mount.toChip(d.gyro),
                                 magneticField: mount.toChip(d.mag))
        }
    }

    /// The simulator's ride as an ideal IMU on the handlebar would report it (noise,
    /// vibration and biases included), seen by a chip mounted with `mount`.
    public static func ride(_ imu: SimulatedIMU, mount: MountOrientation) -> PhysicalTruth {
        fromDevice(mount: mount) { t in
            let r = imu.read(at: Tick(index: 0, monotonicNanos: 0, when: 0, elapsed: t))
            return (r.accel ?? .zero, r.gyro ?? .zero, r.mag ?? .zero)
        }
    }
}
