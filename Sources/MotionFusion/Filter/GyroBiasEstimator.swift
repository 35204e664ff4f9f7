import MotionMath

/// A Kalman filter on the gyroscope bias (rad/s, device frame).
///
/// The bias is modelled as a slow random walk whose variance grows by (0.1 °/s)² every
/// `biasForgettingTime` seconds (capped at the initial variance). Two kinds of measurement
/// correct it:
/// - at rest, the low-pass filtered rotation rate measures the bias directly;
/// - in motion, the inclination correction does: an uncorrected bias makes the
///   gyroscope-only attitude drift, and the accelerometer correction turns it back at the
///   same rate. The horizontal components of that rate, in the earth frame, measure the
///   (low-pass filtered) bias rotated into the earth frame. The vertical component is not
///   observable without the magnetometer (deliberately not used here, so a magnetic
///   disturbance cannot corrupt the bias); a very weak zero measurement lets it decay.
///
/// The measurement noise is chosen so that the steady-state standard deviation equals the
/// configured sigma: for a scalar filter with process noise V per step and measurement
/// noise W, the steady-state variance P solves P² + V·P = V·W, so W = P²/V + P.
struct GyroBiasEstimator: Sendable {
    private let initialVariance: Double
    private let forgettingTime: Double
    private let clip: Double
    private let motionVariance: Double
    private let restVariance: Double
    private let verticalForgettingFactor: Double
    private(set) var bias: Vector3
    private(set) var covariance: Matrix3

    init(_ p: FusionParameters, initialBias: Vector3) {
        initialVariance = p.biasSigmaInitial * p.biasSigmaInitial
        forgettingTime = p.biasForgettingTime
        clip = p.biasClip
        motionVariance = p.biasSigmaMotion * p.biasSigmaMotion
        restVariance = p.biasSigmaRest * p.biasSigmaRest
        verticalForgettingFactor = p.biasVerticalForgettingFactor
        bias = initialBias
        covariance = .diagonal(Vector3(initialVariance, initialVariance, initialVariance))
    }

    /// Process noise variance for one step of `dt` seconds.
    private func processNoise(_ dt: Double) -> Double {
        let grown = 0.1 * Double.pi / 180
        return grown * grown * dt / forgettingTime
    }

    /// Measurement variance giving a steady-state variance `p` with steps of `dt`.
    private func measurementNoise(steadyVariance p: Double, dt: Double) -> Double {
        p * p / processNoise(dt) + p
    }

    /// Time update: the bias may have wandered.
    mutating func predict(dt: Double) {
        let v = processNoise(dt)
        for i in 0..<3 where covariance[i, i] < initialVariance {
            covariance[i, i] += v
        }
    }

    /// Measurement update at rest: `filteredGyro` is a direct measurement of the bias.
    mutating func correctAtRest(filteredGyro: Vector3, dt: Double) {
        let w = measurementNoise(steadyVariance: restVariance, dt: dt)
        correct(model: .identity, innovation: filteredGyro - bias, noise: Vector3(w, w, w))
    }

    /// Measurement update in motion. `rotation` is the low-pass filtered device→earth
    /// rotation matrix, `measured` the measured earth-frame bias (only x and y are
    /// observable; z is an artificial zero measurement).
    mutating func correctInMotion(rotation: Matrix3, measured: Vector3, dt: Double) {
        let w = measurementNoise(steadyVariance: motionVariance, dt: dt)
        let predicted = rotation * bias
        let innovation = Vector3(measured.x - predicted.x, measured.y - predicted.y, -predicted.z)
        correct(model: rotation, innovation: innovation, noise: Vector3(w, w, w / verticalForgettingFactor))
    }

    /// The Kalman update with measurement model `model`, innovation `innovation` (clipped to
    /// the largest plausible bias) and diagonal measurement noise `noise`.
    private mutating func correct(model c: Matrix3, innovation: Vector3, noise: Vector3) {
        let e = Vector3(clamp(innovation.x), clamp(innovation.y), clamp(innovation.z))
        let pct = covariance * c.transposed
        let s = (c * pct).fusionPlus(.diagonal(noise))
        guard let sInverse = s.inverse else { return }
        let gain = pct * sInverse
        let updated = bias + gain * e
        bias = Vector3(clamp(updated.x), clamp(updated.y), clamp(updated.z))
        covariance = covariance.fusionMinus(gain * (c * covariance)).fusionSymmetrized
    }

    private func clamp(_ x: Double) -> Double { min(max(x, -clip), clip) }
}
