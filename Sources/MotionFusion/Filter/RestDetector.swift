import MotionMath

/// Decides whether the device is at rest: the gyroscope and the accelerometer each stay
/// close to their own low-pass filtered value, the filtered rotation rate is small enough
/// to be a bias, and this has lasted `restMinTime`. While at rest, the filtered rotation
/// rate is a direct measurement of the gyroscope bias.
struct RestDetector: Sendable {
    private let gyroThreshold: Double
    private let accelThreshold: Double
    private let maxRate: Double
    private let minTime: Double
    private var gyroLowPass: ButterworthLowPass<Vector3>
    private var accelLowPass: ButterworthLowPass<Vector3>
    private var quietTime = 0.0
    /// True once the device has been quiet for the minimum time.
    private(set) var atRest = false
    /// The low-pass filtered gyroscope (rad/s): the bias measurement while at rest.
    var filteredGyro: Vector3 { gyroLowPass.output }

    init(_ p: FusionParameters) {
        gyroThreshold = p.restGyroThreshold
        accelThreshold = p.restAccelThreshold
        maxRate = p.biasClip
        minTime = p.restMinTime
        gyroLowPass = ButterworthLowPass(tau: p.restFilterTimeConstant)
        accelLowPass = ButterworthLowPass(tau: p.restFilterTimeConstant)
    }

    /// Feeds one gyroscope (rad/s) and accelerometer (g) sample.
    mutating func update(gyro: Vector3, accel: Vector3, dt: Double) {
        let g = gyroLowPass.filter(gyro, dt: dt)
        let a = accelLowPass.filter(accel, dt: dt)
        let quiet = (gyro - g).norm < gyroThreshold
            && abs(g.x) <= maxRate && abs(g.y) <= maxRate && abs(g.z) <= maxRate
            && (accel - a).norm < accelThreshold
        if quiet {
            quietTime += dt
            atRest = quietTime >= minTime
        } else {
            quietTime = 0
            atRest = false
        }
    }
}
