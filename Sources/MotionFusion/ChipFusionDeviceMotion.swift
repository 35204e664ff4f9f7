import Foundation
import MotionCore
import MotionMath

/// D rows from the IMU chip's own fusion (`--device-motion chip`: a BNO055 in NDOF mode),
/// as the `DeviceMotionProvider` the recorder uses instead of `DeviceMotionFilter`.
///
/// Each tick's `MotionReading.chipFusion` (which the driver already turned into device axes
/// and motionlog's signs) becomes the D row with the conventions of motionlog's own
/// (docs/FUSION.md): rotation rate = the chip's offset-compensated gyroscope; user
/// acceleration = the chip's linear acceleration; gravity = the chip's gravity vector;
/// attitude device → East-North-Up with the declination applied to yaw exactly as
/// `DeviceMotionFilter` applies it; pitch, roll, yaw by `AttitudeAngles`. A tick without
/// chip output (a gap, or the fusion not running yet) has no D row.
public final class ChipFusionDeviceMotion: DeviceMotionProvider {
    private let sensor: MotionSensor
    /// Magnetic declination, radians east (nil: yaw from magnetic north).
    public let declination: Double?
    /// Rotation from the magnetic-north frame to the reported frame.
    private let reference: Quaternion

    /// `sensor` delivers `chipFusion` (its `chipFusionInfo` describes it in the metadata).
    public init(sensor: MotionSensor, declination: Double? = nil) {
        self.sensor = sensor
        self.declination = declination
        let d = -(declination ?? 0)
        reference = Quaternion(w: cos(d / 2), x: 0, y: 0, z: sin(d / 2))
    }

    public var info: [String: String] {
        var info = sensor.chipFusionInfo ?? ["source": "chip", "algorithm": "the IMU chip's own fusion"]
        info["source"] = "chip"
        info["frames"] = "the chip's quaternion (chip -> East-North-Up, magnetic north) turned into motionlog's: attitude device->ENU; "
            + "pitch about X, roll about Y, yaw about Z, R = Rz(yaw)Rx(pitch)Ry(roll); yaw 0 with the top edge north, "
            + "counter-clockwise positive; user acceleration = the chip's linear acceleration and gravity = its gravity vector, "
            + "in g with CoreMotion's sign (docs/FUSION.md, docs/IMU.md)"
        if let d = declination {
            info["yawReference"] = "true north (declination \(d * 180 / Double.pi)° east applied to the chip's magnetic heading)"
        } else {
            info["yawReference"] = "magnetic north, the chip's own heading (it refers to north once the chip's system calibration status is above 0)"
        }
        info["calibration"] = "the chip's own (offsets it estimates while running; status at start in calibrationAtStart); "
            + "the config file's calibration: section is not applied"
        return info
    }

    public func deviceMotion(for reading: MotionReading, dt: Double) -> DeviceMotion? {
        guard let c = reading.chipFusion else { return nil }
        let q = reference * c.attitude
        let angles = AttitudeAngles(q)
        return DeviceMotion(rotationRate: c.rotationRate, userAcceleration: c.userAcceleration, gravity: c.gravity,
                            attitude: q, pitch: angles.pitch, roll: angles.roll, yaw: angles.yaw)
    }
}
