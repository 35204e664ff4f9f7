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
/// - The field of the first `magProvisionalReferenceTime` seconds is a provisional
///   reference. It is confirmed (becomes the reference) once the field has stayed
///   consistent with it while the device turned through `magProvisionalConfirmAngle` —
///   so disturbances are rejected from early on, without waiting for fast rotation, while
///   a device that started next to a magnet is never confirmed in that field.
/// - While disturbed the heading correction is off for up to `magMaxRejectionTime`, then
///   `magRejectionFactor` times slower. Time in an undisturbed field earns that allowance
///   back `magRejectionFactor` times faster than it was used. Until a reference exists
///   the correction is `magRejectionFactor` times slower.
struct MagneticDisturbanceDetector: Sendable {
    private let p: FusionParameters
    private var current: ButterworthLowPass<Vector3>
    /// Reference norm (µT) and dip (rad); nil until one has been accepted.
    private(set) var referenceNorm: Double?
    private(set) var referenceDip = 0.0
    private var candidate: (norm: Double, dip: Double)?
    private var candidateTime = 0.0
    private var provisional: (norm: Double, dip: Double)?
    private var provisionalSum = Vector3.zero
    private var provisionalTime = 0.0
    private var provisionalAngle = 0.0
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

        if referenceNorm == nil { updateProvisional(norm: n, dip: d, rotationRate: rotationRate, dt: dt) }

        if let refNorm = referenceNorm {
            if matches(n, d, refNorm, referenceDip) {
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

        if let c = candidate, matches(n, d, c.norm, c.dip) {
            if rotationRate >= p.magNewMinGyro {
                candidateTime += dt
                let updated = (norm: c.norm + refK * (n - c.norm), dip: c.dip + refK * (d - c.dip))
                candidate = updated
                let needed = referenceNorm == nil ? p.magNewFirstTime : p.magNewTime
                if disturbed && candidateTime >= needed {
                    accept(updated)
                }
            }
        } else {
            candidateTime = 0
            candidate = (n, d)
        }

        if referenceNorm == nil {
            // Never seen a field proven undisturbed: correct, but slowly.
            return 1 / p.magRejectionFactor
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

    private func matches(_ n: Double, _ d: Double, _ refNorm: Double, _ refDip: Double) -> Bool {
        abs(n - refNorm) < p.magNormThreshold * refNorm && abs(d - refDip) < p.magDipThreshold
    }

    private mutating func accept(_ field: (norm: Double, dip: Double)) {
        referenceNorm = field.norm
        referenceDip = field.dip
        disturbed = false
        undisturbedTime = p.magMinUndisturbedTime
        provisional = nil
    }

    /// Averages the first seconds into the provisional reference, then confirms it once the
    /// field stayed consistent with it through enough rotation.
    private mutating func updateProvisional(norm n: Double, dip d: Double, rotationRate: Double, dt: Double) {
        guard p.magProvisionalReferenceTime > 0 else { return }
        guard let prov = provisional else {
            if provisionalTime < 0 { return }
            provisionalSum += Vector3(n, d, 1)
            provisionalTime += dt
            if provisionalTime >= p.magProvisionalReferenceTime {
                provisional = (provisionalSum.x / provisionalSum.z, provisionalSum.y / provisionalSum.z)
                provisionalTime = -1
            }
            return
        }
        if matches(n, d, prov.norm, prov.dip) {
            provisionalAngle += rotationRate * dt
            if provisionalAngle >= p.magProvisionalConfirmAngle { accept(prov) }
        } else {
            provisionalAngle = 0
        }
    }
}
