import Foundation
@testable import MotionFusion
import MotionMath
import Testing

@Suite("Magnetometer and gyroscope calibration")
struct CalibrationTests {
    static let hardIron = Vector3(12, -7, 20)
    /// Symmetric positive definite distortion (soft iron), as a magnetometer model applies it.
    static let distortion = Matrix3(rows: Vector3(1.10, 0.05, -0.03), Vector3(0.05, 0.92, 0.04), Vector3(-0.03, 0.04, 1.02))
    static let strength = 49.0

    /// Raw samples of a 49 µT field seen from `count` directions drawn by `direction`.
    static func raw(count: Int, noise: Double, seed: UInt64, direction: (inout NoiseSource) -> Vector3) -> [Vector3] {
        var rng = NoiseSource(seed: seed)
        return (0..<count).map { _ in
            distortion * (direction(&rng) * strength) + hardIron + rng.vector(noise)
        }
    }

    func maxDifference(_ a: Matrix3, _ b: Matrix3) -> Double {
        var m = 0.0
        for r in 0..<3 { for c in 0..<3 { m = max(m, abs(a[r, c] - b[r, c])) } }
        return m
    }

    @Test("the ellipsoid fit recovers a known hard- and soft-iron distortion from noisy samples")
    func recoversDistortion() throws {
        var cal = MagnetometerCalibrator()
        for m in Self.raw(count: 3000, noise: 0.3, seed: 1, direction: { $0.direction() }) { cal.add(m) }
        let result = try cal.calibrate(fieldStrength: Self.strength).get()
        #expect((result.hardIron - Self.hardIron).norm < 0.1)
        let inverse = try #require(Self.distortion.inverse)
        #expect(maxDifference(result.softIron, inverse) < 0.005, "\(result.softIron) vs \(inverse)")
        #expect(result.residual < 0.01)
        #expect(result.coverage > 0.95)
        #expect(result.quality == .good)
        // Corrected samples lie on the 49 µT sphere.
        for m in cal.samples.prefix(100) {
            #expect(abs((result.softIron * (m - result.hardIron)).norm - Self.strength) < 1.5)
        }
    }

    /// One glitched or saturated reading among thousands (300 µT, the MPU-9250's 4900 µT
    /// full scale) is left out: it moved the hard iron by 4 µT, or made the fit "no
    /// ellipsoid (coverage 13 %)" for a full turn.
    @Test("a reading far from the rest is left out of the fit", arguments: [300.0, 4900.0])
    func outlierLeftOut(_ value: Double) throws {
        var cal = MagnetometerCalibrator()
        var samples = Self.raw(count: 3000, noise: 0.3, seed: 1, direction: { $0.direction() })
        samples[1500] = Vector3(samples[1500].x, samples[1500].y, value)
        for m in samples { cal.add(m) }
        let result = try cal.calibrate(fieldStrength: Self.strength).get()
        #expect((result.hardIron - Self.hardIron).norm < 0.1, "\(result.hardIron)")
        #expect(result.outliers == 1 && result.quality == .good)
        #expect(cal.provisionalCoverage.fraction > 0.9)
    }

    @Test("without a field strength the soft-iron matrix keeps the average size (determinant 1)")
    func unitDeterminant() throws {
        var cal = MagnetometerCalibrator()
        for m in Self.raw(count: 2000, noise: 0.2, seed: 2, direction: { $0.direction() }) { cal.add(m) }
        let result = try cal.calibrate().get()
        #expect(abs(result.softIron.determinant - 1) < 1e-9)
        let inverse = try #require(Self.distortion.inverse)
        let expected = inverse * Foundation.cbrt(Self.distortion.determinant)
        #expect(maxDifference(result.softIron, expected) < 0.005)
        #expect(abs(result.fieldStrength - Self.strength * Foundation.cbrt(Self.distortion.determinant)) < 0.2)
    }

    @Test("poor coverage — turned only about the vertical — is detected: do it again")
    func poorCoverageFlat() {
        var cal = MagnetometerCalibrator()
        // Lying flat and turning: the field direction only sweeps a cone (dip 65°).
        let samples = Self.raw(count: 2000, noise: 0.3, seed: 3) { rng in
            let heading = 2 * Double.pi * rng.uniform()
            return Vector3(0.42 * sin(heading), 0.42 * cos(heading), -0.91)
        }
        for m in samples { cal.add(m) }
        switch cal.calibrate() {
        case .failure: break
        case .success(let r):
            #expect(!r.quality.isUsable, "coverage \(r.coverage)")
            #expect(r.coverage < MagnetometerCalibrator.minimumCoverage)
        }
    }

    @Test("poor coverage — half the orientations — is detected and names the missing directions")
    func poorCoverageHalf() throws {
        var cal = MagnetometerCalibrator()
        let samples = Self.raw(count: 2000, noise: 0.3, seed: 4) { rng in
            var d = rng.direction()
            if d.z < 0 { d.z = -d.z }  // the field never pointed along −Z of the device
            return d
        }
        for m in samples { cal.add(m) }
        switch cal.calibrate() {
        case .failure(let e):
            #expect("\(e)".contains("do it again"))
        case .success(let r):
            guard case .poor(let reasons) = r.quality else {
                Issue.record("half coverage accepted: \(r.figure)")
                return
            }
            #expect(reasons.contains { $0.contains("orientations") })
            #expect(r.missingAxes.contains("-Z"))
        }
    }

    /// A fit to a patch of the sphere has any size: with too little coverage the coverage is
    /// the reason, the fit's field strength is neither judged nor shown, and the units hint
    /// comes only from the raw magnitudes (a 10 s ride said "0.56 µT … check the units" of
    /// readings of 31 µT).
    @Test("too little coverage: the coverage is the reason, not the fitted field strength")
    func lowCoverageJudgesNoFit() {
        func result(coverage: Double, field: Double, raw: Double?) -> MagnetometerCalibration {
            MagnetometerCalibration(hardIron: Vector3(13, 12, -25), softIron: .identity, fieldStrength: field, residual: 0.418,
                                    coverage: coverage, missingAxes: coverage < 0.7 ? ["+X", "-X"] : [], axisRatio: 1.2,
                                    samples: 990, rawMedianStrength: raw)
        }
        let ride = result(coverage: 0, field: 0.56, raw: 31.2)
        guard case .poor(let reasons) = ride.quality else { Issue.record("accepted: \(ride.figure)"); return }
        #expect(reasons.count == 1 && reasons[0].contains("only 0 % of the orientations") && reasons[0].contains("too little for a fit"), "\(reasons)")
        #expect(!reasons.joined().contains("units") && !reasons.joined().contains("0.56"), "\(reasons)")
        #expect(!ride.figure.contains("0.56") && !ride.figure.contains("residual") && ride.figure.contains("raw field median 31.2 µT"), "\(ride.figure)")
        // Readings in gauss (0.31) instead of µT: the raw magnitudes themselves say so.
        let gauss = result(coverage: 0.2, field: 0.004, raw: 0.31)
        guard case .poor(let gaussReasons) = gauss.quality else { Issue.record("accepted"); return }
        #expect(gaussReasons.contains { $0.contains("raw field magnitudes (median 0.31 µT)") && $0.contains("units") }, "\(gaussReasons)")
        // Enough coverage: the fit's field strength is judged, as before.
        let covered = result(coverage: 0.95, field: 0.49, raw: 0.5)
        guard case .poor(let coveredReasons) = covered.quality else { Issue.record("accepted"); return }
        #expect(coveredReasons.contains { $0.contains("field strength 0.49 µT") && $0.contains("units") }, "\(coveredReasons)")
    }

    @Test("too few samples is an error with advice")
    func tooFew() {
        var cal = MagnetometerCalibrator()
        for m in Self.raw(count: 20, noise: 0, seed: 5, direction: { $0.direction() }) { cal.add(m) }
        #expect(throws: CalibrationError.self) { try cal.calibrate().get() }
    }

    @Test("a disturbed fit (samples not on an ellipsoid) is rejected")
    func disturbed() {
        var cal = MagnetometerCalibrator()
        var rng = NoiseSource(seed: 6)
        for m in Self.raw(count: 2000, noise: 0.3, seed: 7, direction: { $0.direction() }) {
            // A magnet waved around: large random offsets on a third of the samples.
            cal.add(rng.uniform() < 0.33 ? m + rng.vector(15) : m)
        }
        if case .success(let r) = cal.calibrate() { #expect(!r.quality.isUsable, "\(r.figure)") }
    }

    @Test("coverage counts equal-area cells and names unseen axes")
    func coverage() {
        var c = SphereCoverage(minimumPerCell: 1)
        #expect(c.fraction == 0)
        var rng = NoiseSource(seed: 8)
        for _ in 0..<5000 { c.add(rng.direction()) }
        #expect(c.fraction == 1)
        #expect(c.missingAxes.isEmpty)
        var top = SphereCoverage(minimumPerCell: 1)
        for _ in 0..<5000 { var d = rng.direction(); d.z = abs(d.z); top.add(d) }
        #expect(top.fraction == 0.5)
        #expect(top.missingAxes == ["-Z"])
    }

    @Test("gyroscope bias from rest: the mean rate while still, refused when never still")
    func gyroBias() throws {
        var still = GyroBiasCalibrator()
        var rng = NoiseSource(seed: 9)
        let bias = Vector3(0.03, -0.05, 0.02)  // up to 2.9 °/s: more than the fusion itself expects
        for _ in 0..<600 { still.add(gyro: bias + rng.vector(0.002), accel: Vector3(0, 0, -1) + rng.vector(0.002), dt: 0.01) }
        let r = try still.result.get()
        #expect((r.bias - bias).norm < 0.0005)
        #expect(r.spread.x < 0.003)

        var moving = GyroBiasCalibrator()
        for k in 0..<600 {
            let t = Double(k) * 0.01
            moving.add(gyro: Vector3(0.5 * sin(3 * t), 0, 0), accel: Vector3(0, 0.2 * sin(3 * t), -1), dt: 0.01)
        }
        #expect(throws: CalibrationError.self) { try moving.result.get() }
    }
}
