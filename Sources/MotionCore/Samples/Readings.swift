import MotionMath

/// What an IMU delivers for one tick, already in the format's units and CoreMotion's
/// device frame and signs: accelerometer in g with gravity as −Z when face up (the
/// NEGATIVE of the specific force a chip measures), gyroscope in rad/s right-handed,
/// magnetometer in µT. A field is nil when that sensor has no new sample for this tick
/// (magnetometer slower than the tick rate, data not ready, or a bus error gap).
public struct MotionReading: Sendable, Equatable {
    public var accel: Vector3?
    public var gyro: Vector3?
    public var mag: Vector3?
    /// The IMU chip's own fusion output for this tick (a BNO055 in NDOF mode), already in
    /// the device frame and motionlog's conventions; nil when the chip computes none or had
    /// none valid this tick.
    public var chipFusion: ChipFusionOutput?

    public init(accel: Vector3? = nil, gyro: Vector3? = nil, mag: Vector3? = nil, chipFusion: ChipFusionOutput? = nil) {
        self.accel = accel; self.gyro = gyro; self.mag = mag; self.chipFusion = chipFusion
    }
}

/// Device motion an IMU chip computed itself (the BNO055's fusion), turned by its driver
/// into the device frame and the conventions of motionlog's own D rows (docs/FUSION.md):
/// attitude device → East-North-Up, gravity and user acceleration in g with CoreMotion's
/// sign, rotation rate in rad/s. Yaw refers to magnetic north; no declination applied.
public struct ChipFusionOutput: Sendable, Equatable {
    /// Device → East-North-Up (magnetic north), unit quaternion.
    public var attitude: Quaternion
    /// Gravity in g, device frame, CoreMotion sign: (0, 0, −1) face up.
    public var gravity: Vector3
    /// The chip's linear acceleration in g, device frame, the format's sign (`A − gravity`).
    public var userAcceleration: Vector3
    /// The chip's offset-compensated angular rate, rad/s, device frame.
    public var rotationRate: Vector3

    public init(attitude: Quaternion, gravity: Vector3, userAcceleration: Vector3, rotationRate: Vector3) {
        self.attitude = attitude; self.gravity = gravity; self.userAcceleration = userAcceleration
        self.rotationRate = rotationRate
    }
}

/// Device motion for one tick (a `D` row): CoreMotion's CMDeviceMotion in our frame.
public struct DeviceMotion: Sendable, Equatable {
    /// Bias-corrected rotation rate, rad/s, device frame.
    public var rotationRate: Vector3
    /// User acceleration in g: `A − gravity` (so at rest it is ≈ 0).
    public var userAcceleration: Vector3
    /// Gravity in g in the device frame, CoreMotion sign: (0, 0, −1) face up.
    public var gravity: Vector3
    /// Attitude, device → world (see docs/FUSION.md for frames).
    public var attitude: Quaternion
    /// Euler angles in radians, CoreMotion conventions.
    public var pitch: Double
    public var roll: Double
    public var yaw: Double

    public init(rotationRate: Vector3, userAcceleration: Vector3, gravity: Vector3,
                attitude: Quaternion, pitch: Double, roll: Double, yaw: Double) {
        self.rotationRate = rotationRate; self.userAcceleration = userAcceleration
        self.gravity = gravity; self.attitude = attitude
        self.pitch = pitch; self.roll = roll; self.yaw = yaw
    }
}

/// One GPS fix (an `L` row). `when` is the fix's own time (receiver time), epoch seconds.
/// Values the receiver does not report are `.nan`.
public struct LocationFix: Sendable, Equatable {
    public var when: Double
    public var latitude: Double
    public var longitude: Double
    /// Altitude above mean sea level, metres.
    public var altitudeMSL: Double
    /// Ground speed, m/s.
    public var speed: Double
    /// Course over ground, degrees from true north.
    public var course: Double
    /// Vertical speed, m/s.
    public var climb: Double
    /// Estimated horizontal / vertical position error, metres.
    public var eph: Double
    public var epv: Double
    /// 2 (2-D fix) or 3 (3-D fix).
    public var mode: Int

    public init(when: Double, latitude: Double, longitude: Double, altitudeMSL: Double = .nan,
                speed: Double = .nan, course: Double = .nan, climb: Double = .nan,
                eph: Double = .nan, epv: Double = .nan, mode: Int) {
        self.when = when; self.latitude = latitude; self.longitude = longitude
        self.altitudeMSL = altitudeMSL; self.speed = speed; self.course = course; self.climb = climb
        self.eph = eph; self.epv = epv; self.mode = mode
    }

    public static func == (a: LocationFix, b: LocationFix) -> Bool {
        func same(_ x: Double, _ y: Double) -> Bool { x == y || (x.isNaN && y.isNaN) }
        return same(a.when, b.when) && same(a.latitude, b.latitude) && same(a.longitude, b.longitude)
            && same(a.altitudeMSL, b.altitudeMSL) && same(a.speed, b.speed) && same(a.course, b.course)
            && same(a.climb, b.climb) && same(a.eph, b.eph) && same(a.epv, b.epv) && a.mode == b.mode
    }
}
