import MotionMath

/// Measures the gyroscope bias as the mean rotation rate while the device is detected at
/// rest (the fusion's rest detector: gyroscope and accelerometer steady for 1.5 s).
public struct GyroBiasCalibrator: Sendable {
    /// Seconds of rest needed for a result.
    public static let minimumRestSeconds = 2.0
    private var detector: RestDetector
    private var sum = Vector3.zero
    private var sumSquares = Vector3.zero
    private var count = 0
    /// Seconds of rest seen.
    public private(set) var restSeconds = 0.0

    /// Rest is detected with the fusion's thresholds, except that a steady rate up to
    /// `maximumBias` (default 10 °/s) still counts as rest: an uncalibrated gyroscope may
    /// have a larger bias than the fusion itself expects.
    public init(parameters: FusionParameters = FusionParameters(), maximumBias: Double = 10 * FusionParameters.degree) {
        var p = parameters
        p.biasClip = max(p.biasClip, maximumBias)
        detector = RestDetector(p)
    }

    /// Feeds one sample: gyroscope rad/s, accelerometer g (either sign), `dt` seconds.
    public mutating func add(gyro: Vector3, accel: Vector3, dt: Double) {
        guard dt > 0, dt.isFinite, gyro.x.isFinite, gyro.y.isFinite, gyro.z.isFinite,
              accel.x.isFinite, accel.y.isFinite, accel.z.isFinite else { return }
        detector.update(gyro: gyro, accel: accel, dt: dt)
        guard detector.atRest else { return }
        sum += gyro
        sumSquares += gyro.scaled(by: gyro)
        count += 1
        restSeconds += dt
    }

    /// The bias (rad/s) and its per-axis standard deviation, or why there is none.
    public var result: Result<(bias: Vector3, spread: Vector3), CalibrationError> {
        guard restSeconds >= Self.minimumRestSeconds, count > 1 else {
            return .failure(.notStill(seconds: (restSeconds * 10).rounded() / 10))
        }
        let n = Double(count)
        let mean = sum / n
        let variance = sumSquares / n - mean.scaled(by: mean)
        return .success((mean, Vector3(max(0, variance.x).squareRoot(), max(0, variance.y).squareRoot(),
                                       max(0, variance.z).squareRoot())))
    }
}
