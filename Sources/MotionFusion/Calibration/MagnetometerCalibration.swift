import Foundation
import MotionMath

/// The result of a magnetometer calibration: hard-iron offset and soft-iron matrix, with the
/// figures that say whether to trust it.
public struct MagnetometerCalibration: Sendable, Equatable {
    /// µT, subtracted from the raw field.
    public var hardIron: Vector3
    /// Applied after the offset: `M_cal = softIron · (M − hardIron)`. Symmetric; `det = 1`
    /// unless a field strength was given.
    public var softIron: Matrix3
    /// The field strength after correction, µT.
    public var fieldStrength: Double
    /// RMS of `(|M_cal| − fieldStrength) / fieldStrength` over the samples, 0...1.
    public var residual: Double
    /// Fraction of the sphere of directions covered, 0...1.
    public var coverage: Double
    /// Device axes that never pointed near the field, e.g. `["-Z"]`.
    public var missingAxes: [String]
    /// Longest / shortest semi-axis of the fitted ellipsoid.
    public var axisRatio: Double
    public var samples: Int
    /// Samples left out as far from the rest (glitches, saturation; see `inliers`).
    public var outliers: Int = 0
    /// Median of the raw field magnitudes |M| of the samples used, µT (nil: not known). Hard
    /// iron included, so only a rough figure, but one that needs no fit.
    public var rawMedianStrength: Double? = nil

    /// Whether the orientations cover enough of the sphere for the fit to mean anything: a
    /// device hardly turned gives a patch of the ellipsoid, and a "sphere" fitted to a patch
    /// has any size (a 10 s ride: 0.56 µT from readings of 31 µT).
    public var fitIsMeaningful: Bool { coverage >= MagnetometerCalibrator.minimumCoverage }

    /// The verdict and, when it is not good, why. With too little coverage that is the
    /// reason, and no figure of the fit (residual, stretch, field strength) is judged; the
    /// units hint then comes only from the raw magnitudes.
    public var quality: Quality {
        var reasons: [String] = []
        if !fitIsMeaningful {
            var text = "only \(Int((coverage * 100).rounded())) % of the orientations were covered (need \(Int(MagnetometerCalibrator.minimumCoverage * 100)) %)"
            text += MagnetometerCalibrator.missingText(missingAxes, verb: "never pointed the field along")
            reasons.append(text + ": too little for a fit, so the field strength and fit residual are not known")
            if let raw = rawMedianStrength, !Self.plausibleField.contains(raw) {
                reasons.append("the raw field magnitudes (median \(Self.round2(raw)) µT) are outside Earth's 20–70 µT: check the magnetometer's units or nearby magnets")
            }
            return .poor(reasons)
        }
        if residual > MagnetometerCalibrator.maximumResidual {
            reasons.append("the samples fit an ellipsoid poorly (residual \(Self.percent(residual)) %): a magnet, steel or a moving cable nearby?")
        }
        if axisRatio > MagnetometerCalibrator.maximumAxisRatio {
            reasons.append("the fitted ellipsoid is implausibly stretched (axis ratio \(Self.round2(axisRatio)))")
        }
        if !Self.plausibleField.contains(fieldStrength) {
            reasons.append("the field strength \(Self.round2(fieldStrength)) µT is outside Earth's 20–70 µT: check the magnetometer's units or nearby magnets")
        }
        return reasons.isEmpty ? (residual < 0.02 && coverage >= 0.9 ? .good : .acceptable) : .poor(reasons)
    }

    /// Field strengths (µT) taken as Earth's, with margin around its 20–70 µT.
    static let plausibleField = 10.0...100.0

    /// Good, acceptable, or poor with the reasons (then: do it again).
    public enum Quality: Sendable, Equatable {
        case good, acceptable
        case poor([String])
        public var isUsable: Bool { if case .poor = self { return false } else { return true } }
    }

    /// A one-line quality figure, e.g. `fit residual 0.8 %, coverage 94 %, field 48.9 µT`.
    /// Without enough coverage no fit figure is given (`fitIsMeaningful`), only the raw magnitudes.
    public var figure: String {
        let fit = fitIsMeaningful
            ? "fit residual \(Self.percent(residual)) %, coverage \(Int((coverage * 100).rounded())) % of orientations, field \(Self.round2(fieldStrength)) µT"
            : "coverage \(Int((coverage * 100).rounded())) % of orientations (too little for a fit)"
                + (rawMedianStrength.map { ", raw field median \(Self.round2($0)) µT" } ?? "")
        return fit + ", \(samples) samples" + (outliers > 0 ? " (\(outliers) far from the rest left out)" : "")
    }

    static func percent(_ x: Double) -> Double { (x * 1000).rounded() / 10 }
    static func round2(_ x: Double) -> Double { (x * 100).rounded() / 100 }
}

/// Collects raw magnetometer samples while the device is turned through all orientations
/// and fits the hard- and soft-iron correction (an ellipsoid fit); readings far from the
/// rest are left out. The live coverage (`provisionalCoverage`) is computed as the result's.
public struct MagnetometerCalibrator: Sendable {
    /// Coverage below which the calibration is rejected.
    public static let minimumCoverage = 0.7
    /// Fit residual above which the calibration is rejected.
    public static let maximumResidual = 0.05
    /// Ellipsoid axis ratio above which the calibration is rejected.
    public static let maximumAxisRatio = 2.0
    /// Fewest samples for a fit.
    public static let minimumSamples = 50

    public private(set) var samples: [Vector3] = []

    public init() {}

    /// Adds one raw sample (µT); non-finite samples are ignored.
    public mutating func add(_ m: Vector3) {
        guard m.x.isFinite, m.y.isFinite, m.z.isFinite else { return }
        samples.append(m)
    }

    /// The coverage the result would report on the samples so far, for live guidance: the
    /// same samples (`inliers`), centre and correction (the ellipsoid fit) and cells as
    /// `calibrate`, so the last live figure is the result's. While no ellipsoid fits (too
    /// few samples, or too few directions), around the per-axis median of the samples, as
    /// the result's error then says — not the midpoint of the extremes, which one glitched
    /// reading (a saturated 4900 µT) moved far off ("coverage 13 %" of a full turn).
    public var provisionalCoverage: SphereCoverage {
        let kept = Self.inliers(samples)
        guard kept.count >= Self.minimumSamples, let fit = EllipsoidFit.fit(kept) else { return Self.medianCoverage(kept) }
        return Self.coverage(of: kept, fit: fit)
    }

    /// Directions of the samples corrected by the fit (`sphereCorrection()`: scaling by a
    /// field strength changes no direction, so the coverage does not depend on it).
    /// Samples within `minimumSpread` of the centre point nowhere.
    static func coverage(of kept: [Vector3], fit: EllipsoidFit) -> SphereCoverage {
        let soft = fit.sphereCorrection()
        var c = SphereCoverage()
        for m in kept where (m - fit.center).norm >= minimumSpread { c.add(soft * (m - fit.center)) }
        return c
    }

    /// Directions of the samples seen from their per-axis median (those at least
    /// `minimumSpread` from it).
    static func medianCoverage(_ kept: [Vector3]) -> SphereCoverage {
        var c = SphereCoverage()
        guard kept.count > 1 else { return c }
        let center = medianCenter(kept)
        for m in kept where (m - center).norm >= minimumSpread { c.add(m - center) }
        return c
    }

    /// `; never pointed along -Z`, or, with no axis seen at all, that the field hardly
    /// changed direction: a ride's readings all within a few µT listed every axis as never
    /// pointed along, though the device had pointed most ways while hardly turning.
    static func missingText(_ missing: [String], verb: String) -> String {
        if missing.count == SphereCoverage.axisNames.count {
            return "; the field's direction hardly changed (the readings stay close together: the device was hardly turned)"
        }
        return missing.isEmpty ? "" : "; \(verb) \(missing.joined(separator: ", "))"
    }

    /// µT a sample must lie from the centre for its direction to count: a device hardly
    /// turned (20 s of a ride) gives a cluster of readings, and a fit or median inside that
    /// cluster saw its noise (about 0.5 µT) in every direction — "coverage 100 %" with a
    /// field of 0.64 µT. Earth's field is 20–70 µT from a true centre; 5 µT is a tenth of it.
    static let minimumSpread = 5.0

    /// Median of the magnitudes |m|.
    static func medianNorm(_ points: [Vector3]) -> Double? {
        let norms = points.map(\.norm).sorted()
        return norms.isEmpty ? nil : norms[norms.count / 2]
    }

    /// Per-axis median.
    static func medianCenter(_ points: [Vector3]) -> Vector3 {
        func median(_ v: [Double]) -> Double { let s = v.sorted(); return s.isEmpty ? 0 : s[s.count / 2] }
        return Vector3(median(points.map(\.x)), median(points.map(\.y)), median(points.map(\.z)))
    }

    /// The samples whose distance from the median centre is within a factor of 4 of the
    /// median distance: the field seen from the sensor has one strength (an ellipsoid of
    /// axis ratio 2 at most passes), so a reading 6 times as far is a glitch or saturation,
    /// and one of 30 000 moved the fitted hard iron by 4 µT.
    static func inliers(_ points: [Vector3]) -> [Vector3] {
        guard points.count >= 10 else { return points }
        let center = medianCenter(points)
        let distances = points.map { ($0 - center).norm }
        let typical = distances.sorted()[distances.count / 2]
        guard typical > 0 else { return points }
        return zip(points, distances).filter { $0.1 >= typical / 4 && $0.1 <= typical * 4 }.map(\.0)
    }

    /// The fitted calibration, or an error saying why there is none. `fieldStrength` (µT)
    /// scales the soft-iron matrix so that the corrected field has that strength.
    public func calibrate(fieldStrength: Double? = nil) -> Result<MagnetometerCalibration, CalibrationError> {
        let samples = Self.inliers(self.samples)
        guard samples.count >= Self.minimumSamples else {
            return .failure(.tooFewSamples(samples.count, needed: Self.minimumSamples))
        }
        guard let fit = EllipsoidFit.fit(samples) else {
            let cov = Self.medianCoverage(samples)
            return .failure(.noEllipsoid(coverage: cov.fraction, missingAxes: cov.missingAxes))
        }
        let soft = fit.sphereCorrection(radius: fieldStrength)
        let strength = fieldStrength ?? Foundation.cbrt(fit.radii.x * fit.radii.y * fit.radii.z)
        let coverage = Self.coverage(of: samples, fit: fit)
        var sumSquares = 0.0
        for m in samples {
            let e = (soft * (m - fit.center)).norm / strength - 1
            sumSquares += e * e
        }
        return .success(MagnetometerCalibration(
            hardIron: fit.center, softIron: soft, fieldStrength: strength,
            residual: (sumSquares / Double(samples.count)).squareRoot(), coverage: coverage.fraction,
            missingAxes: coverage.missingAxes, axisRatio: fit.radii.z / fit.radii.x, samples: samples.count,
            outliers: self.samples.count - samples.count, rawMedianStrength: Self.medianNorm(samples)))
    }
}

/// Why a calibration could not be computed, with what to do.
public enum CalibrationError: Error, Sendable, Equatable, CustomStringConvertible {
    case tooFewSamples(Int, needed: Int)
    case noEllipsoid(coverage: Double, missingAxes: [String])
    case notStill(seconds: Double)

    public var description: String {
        switch self {
        case .tooFewSamples(let n, let needed):
            return "only \(n) magnetometer samples (need at least \(needed)): record longer while turning the device"
        case .noEllipsoid(let coverage, let missing):
            var text = "the magnetometer samples do not describe an ellipsoid (coverage \(Int((coverage * 100).rounded())) %)"
            text += MagnetometerCalibrator.missingText(missing, verb: "never pointed along")
            return text + ": do it again, turning the device slowly through all orientations (screen up, down, each edge up and down)"
        case .notStill(let seconds):
            return "the device was not still long enough for the gyroscope bias (\(seconds) s, need 2 s): keep it on a table without touching it"
        }
    }
}
