import IMUDrivers
import MotionCore
import Foundation
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
    /// vibration and biases included), seen by a chip mounted with `mount`; with the
    /// chip's true orientation for fakes with a fusion mode: attitude chip → magnetic
    /// East-North-Up (the ride's attitude turned by the field's declination, as a chip's
    /// magnetometer-referenced fusion sees it), gravity, and the simulated gyroscope bias and
    /// hard iron as the offsets a calibrated chip removes.
    public static func ride(_ imu: SimulatedIMU, mount: MountOrientation) -> PhysicalTruth {
        let chipToDevice = Quaternion(rotationMatrix: mount.matrix)
        let d = imu.field.declinationDegrees * Double.pi / 180
        let trueToMagnetic = Quaternion(w: cos(d / 2), x: 0, y: 0, z: sin(d / 2))
        let gyroOffset = mount.toChip(imu.imperfections.gyroBias), magOffset = mount.toChip(imu.imperfections.magHardIron)
        return { t in
            let (r, truth) = imu.readingAndTruth(at: t)
            let orientation = OrientationTruth(attitude: trueToMagnetic * truth.attitude * chipToDevice,
                                               gravity: mount.toChip(-truth.gravity),
                                               gyroOffset: gyroOffset, magOffset: magOffset)
            return PhysicalState(specificForce: mount.toChip(-(r.accel ?? .zero)), angularRate: mount.toChip(r.gyro ?? .zero),
                                 magneticField: mount.toChip(r.mag ?? .zero), orientation: orientation)
        }
    }
}
