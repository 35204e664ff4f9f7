import Foundation
import MotionMath

/// Decides whether the magnetometer currently sees the undisturbed (Earth's) field, by
/// comparing the field's norm and dip angle with a learned reference, and turns that into
/// the gain factor of the heading correction.
///
/// - A field within `magNormThreshold` (relative) and `magDipThreshold` of the reference for
///   `magMinUndisturbedTime` is undisturbed; the reference then slowly follows it.
/// - A different field that stays consistent while the device rotates (at least
///   `magNewMinGyro`) for `magNewTime` seconds (`magNewFirstTime` while there is no
///   reference yet) becomes the new reference: a homogeneous field is consistent under
///   rotation, a nearby magnet or steel is not.
/// - While disturbed the heading correction is off for up to `magMaxRejectionTime`, then
///   `magRejectionFactor` times slower. Time in an undisturbed field earns that allowance
///   back `magRejectionFactor` times faster than it was used.
struct MagneticDisturbanceDetector: Sendable {
    private let p: FusionParameters
    private var current: ButterworthLowPass<Vector3>
    /// Reference norm (µT) and dip (rad); nil until one has been accepted.
    private(set) var referenceNorm: Double?
    private(set) var referenceDip = 0.0
    private var candidateNorm: Double?
    private var candidateDip = 0.0
    private var candidateTime = 0.0
    private var undisturbedTime = 0.0
    private var rejectionTime = 0.0
    /// True while the field is regarded as disturbed (also before a reference exists).
    private(set) var disturbed = true

    init(_ p: FusionParameters) {
        self.p = p
        current = ButterworthLowPass(tau: p.magCurrentTimeConstant)
    }

    /// Feeds one magnetometer sample expressed in the earth frame (heading irrelevant),
    /// `rotationRate` the bias-corrected gyroscope norm (rad/s), `dt` the seconds since the
    /// previous magnetometer sample. Returns the factor (0...1) for the heading gain.
    mutating func update(fieldInEarth m: Vector3, rotationRate: Double, dt: Double) -> Double {
        let norm = m.norm
        guard norm > 0 else { return 0 }
        let dip = -asin(max(-1, min(1, m.z / norm)))
        var value = Vector3(norm, dip, 0)
        if p.magCurrentTimeConstant > 0 { value = current.filter(value, dt: dt) }
        let n = value.x, d = value.y
        let refK = 1 - exp(-dt / p.magReferenceTimeConstant)

        if let refNorm = referenceNorm {
            if abs(n - refNorm) < p.magNormThreshold * refNorm && abs(d - referenceDip) < p.magDipThreshold {
                undisturbedTime += dt
                if undisturbedTime >= p.magMinUndisturbedTime {
                    disturbed = false
                    referenceNorm = refNorm + refK * (n - refNorm)
                    referenceDip += refK * (d - referenceDip)
                }
            } else {
                undisturbedTime = 0
                disturbed = true
            }
        }

        if let cand = candidateNorm, abs(n - cand) < p.magNormThreshold * cand,
           abs(d - candidateDip) < p.magDipThreshold {
            if rotationRate >= p.magNewMinGyro {
                candidateTime += dt
                candidateNorm = cand + refK * (n - cand)
                candidateDip += refK * (d - candidateDip)
                let needed = referenceNorm == nil ? p.magNewFirstTime : p.magNewTime
                if disturbed && candidateTime >= needed, let accepted = candidateNorm {
                    referenceNorm = accepted
                    referenceDip = candidateDip
                    disturbed = false
                    undisturbedTime = p.magMinUndisturbedTime
                }
            }
        } else {
            candidateTime = 0
            candidateNorm = n
            candidateDip = d
        }

        if disturbed {
            if rejectionTime <= p.magMaxRejectionTime {
                rejectionTime += dt
                return 0
            }
            return 1 / p.magRejectionFactor
        }
        rejectionTime = max(rejectionTime - p.magRejectionFactor * dt, 0)
        return 1
    }
}
