import Foundation
import MotionFusion
import MotionMath
import Testing

/// The fusion on real sensor data with optical ground truth: BROAD excerpts (rest, then
/// slow rotation; fast translation), scored as the BROAD publication scores (error
/// quaternion in the earth frame, split into heading and inclination).
@Suite("Real data: BROAD excerpt")
struct RealDataTests {
    struct Sample { var t: Double; var acc: Vector3; var gyro: Vector3; var mag: Vector3; var ref: Quaternion?; var moving: Bool }

    static func load(_ name: String = "02_undisturbed_slow_rotation_B_35-45s.csv") throws -> [Sample] {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/broad/" + name).path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var out: [Sample] = []
        for line in text.split(separator: "\n").dropFirst() {
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard f.count == 15, let v = Optional(f[0..<10].compactMap(Double.init)), v.count == 10 else { continue }
            let q = f[10].isEmpty ? nil : Quaternion(w: Double(f[10]) ?? .nan, x: Double(f[11]) ?? .nan,
                                                     y: Double(f[12]) ?? .nan, z: Double(f[13]) ?? .nan)
            out.append(Sample(t: v[0], acc: Vector3(v[1], v[2], v[3]), gyro: Vector3(v[4], v[5], v[6]),
                              mag: Vector3(v[7], v[8], v[9]), ref: q, moving: f[14] == "1"))
        }
        return out
    }

    @Test("inclination and heading errors on real data stay below a degree and a half")
    func accuracy() throws {
        let samples = try Self.load()
        #expect(samples.count == 2858)
        let filter = try DeviceMotionFilter()
        var last: Double?
        var incl: [Double] = [], head: [Double] = []
        for s in samples {
            // BROAD's accelerometer is specific force in m/s²; the A rows are −specific force in g.
            let m = filter.update(accel: s.acc * (-1 / 9.80665), gyro: s.gyro, mag: s.mag, dt: last.map { s.t - $0 } ?? 0)
            last = s.t
            guard s.moving, let ref = s.ref else { continue }
            // The D row's angles, turned back into a quaternion as documented.
            let q = AttitudeAngles(pitch: m.pitch, roll: m.roll, yaw: m.yaw).quaternion
            incl.append(Synthetic.inclination(q, ref))
            head.append(Synthetic.heading(q, ref))
        }
        func rms(_ x: [Double]) -> Double { (x.map { $0 * $0 }.reduce(0, +) / Double(x.count)).squareRoot() / Synthetic.degree }
        #expect(incl.count > 250)
        #expect(rms(incl) < 0.8, "inclination RMS \(rms(incl))°")
        #expect(rms(head) < 1.5, "heading RMS \(rms(head))°")
    }

    /// RMS inclination and heading errors (degrees) of `filter` over the scored samples
    /// from `settle` seconds after the first sample on.
    static func score(_ samples: [Sample], _ filter: DeviceMotionFilter, settle: Double = 0) -> (inclination: Double, heading: Double, count: Int) {
        var last: Double?
        var incl: [Double] = [], head: [Double] = []
        let t0 = samples.first?.t ?? 0
        for s in samples {
            let m = filter.update(accel: s.acc * (-1 / 9.80665), gyro: s.gyro, mag: s.mag, dt: last.map { s.t - $0 } ?? 0)
            last = s.t
            guard s.moving, s.t - t0 >= settle, let ref = s.ref else { continue }
            let q = AttitudeAngles(pitch: m.pitch, roll: m.roll, yaw: m.yaw).quaternion
            incl.append(Synthetic.inclination(q, ref))
            head.append(Synthetic.heading(q, ref))
        }
        func rms(_ x: [Double]) -> Double { (x.map { $0 * $0 }.reduce(0, +) / Double(max(1, x.count))).squareRoot() / Synthetic.degree }
        return (rms(incl), rms(head), incl.count)
    }

    @Test("fast translation (shaken by hand up to 5 g): the inclination holds, where clipping accelerations did not")
    func fastTranslation() throws {
        let samples = try Self.load("15_undisturbed_fast_translation_A_78-90s.csv")
        #expect(samples.count == 3429)
        // The trial's bias at rest (Fixtures/broad/README.md), as a calibration would give it.
        let calibration = FusionCalibration(gyroBias: Vector3(-0.001762, -0.001506, 0.007826))
        let filter = try DeviceMotionFilter(calibration: calibration)
        // The first sample sets the inclination while the sensor accelerates: give the
        // low-pass two time constants to average that out, then score the last 6 s.
        let result = Self.score(samples, filter, settle: 6)
        #expect(result.count > 300)
        #expect(result.inclination < 1.5, "inclination RMS \(result.inclination)°")
        // The cause of the error this fixes: clipping each sample's acceleration at 0.1 g
        // before the low-pass (the earlier default) biases the average and slows the
        // correction while the sensor is shaken.
        var clipping = FusionParameters()
        clipping.accelRejectionThreshold = 0.1
        let clipped = Self.score(samples, try DeviceMotionFilter(calibration: calibration, parameters: clipping), settle: 6)
        #expect(clipped.inclination > 5 * result.inclination, "with clipping \(clipped.inclination)°, without \(result.inclination)°")
    }
}
