import MotionCore
import MotionFusion
import MotionMath
import Testing

/// An estimator that records what it was given and answers with recognisable numbers.
final class RecordingEstimator: DeviceMotionEstimator {
    var periods: [Double] = []
    var mags: [Vector3?] = []
    var info: [String: String] { [:] }
    func update(accel: Vector3, gyro: Vector3, mag: Vector3?, dt: Double) -> DeviceMotion {
        periods.append(dt)
        mags.append(mag)
        return DeviceMotion(rotationRate: gyro, userAcceleration: accel, gravity: .zero, attitude: .identity,
                            pitch: 1, roll: 2, yaw: Double(periods.count))
    }
}

@Suite("D-row rewriter (motionlog fuse)")
struct DeviceMotionRewriterTests {
    func row(_ s: Source, _ when: Double, _ v: Double = 0.5, label: UInt8 = Label.defaultLetter) -> Row {
        s.valueCount == 3 ? Row(source: s, label: label, when: when, v, v, v)
            : Row(source: s, label: label, when: when, values: (v, v, v, v, v, v, v, v, 3))
    }

    func rewrite(_ rows: [Row], _ estimator: RecordingEstimator, firstPeriod: Double = 0.01)
        -> (out: [Row], rewriter: DeviceMotionRewriter) {
        var r = DeviceMotionRewriter(estimator: estimator, firstPeriod: firstPeriod)
        var out: [Row] = []
        for x in rows { r.push(x) { out.append($0) } }
        r.finish { out.append($0) }
        return (out, r)
    }

    @Test("old D rows are replaced, one new D row per tick with A and G, in recorder order; L rows kept")
    func order() {
        let input = [
            row(.accelerometer, 1.00), row(.gyroscope, 1.00), row(.magnetometer, 1.00), row(.deviceMotion, 1.00, 9),
            row(.location, 0.5),
            row(.accelerometer, 1.01), row(.gyroscope, 1.01), row(.deviceMotion, 1.01, 9),
            row(.accelerometer, 1.03, label: Label.turning), row(.gyroscope, 1.03, label: Label.turning),
            row(.magnetometer, 1.03, label: Label.turning), row(.location, 1.0),
        ]
        let e = RecordingEstimator()
        let (out, r) = rewrite(input, e)
        #expect(out.map(\.source.letter) == ["A", "G", "M", "D", "L", "A", "G", "D", "A", "G", "M", "D", "L"])
        let d = out.filter { $0.source == .deviceMotion }
        #expect(d.map(\.when) == [1.00, 1.01, 1.03])
        #expect(d.map { $0[8] } == [1, 2, 3], "the new rows, not the old ones")
        #expect(d[2].label == Label.turning)
        #expect(r.replacedRows == 2 && r.deviceMotionRows == 3)
        #expect(out.filter { $0.source != .deviceMotion } == input.filter { $0.source != .deviceMotion })
        // Measured periods: the first is the given one, then When differences.
        #expect(e.periods.count == 3)
        #expect(e.periods[0] == 0.01)
        #expect(abs(e.periods[1] - 0.01) < 1e-12 && abs(e.periods[2] - 0.02) < 1e-12)
        #expect(e.mags.map { $0 != nil } == [true, false, true])
    }

    @Test("a clock step to GPS time is no gap: periods and fix ages use the placed times")
    func clockStep() {
        // Ticks at 100 Hz; the first three stamped 1000 s early, then the clock was stepped.
        let t0 = 1_763_735_405.0, behind = 1000.0
        var input: [Row] = []
        for k in 0..<6 {
            let t = t0 + Double(k) / 100
            let stamped = k < 3 ? t - behind : t
            input += [row(.accelerometer, stamped), row(.gyroscope, stamped)]
        }
        let step = ClockStep(firstCorrectedWhen: t0 + 0.03, seconds: behind)
        let e = RecordingEstimator()
        var r = DeviceMotionRewriter(estimator: e, firstPeriod: 0.01, clockStep: step)
        var out: [Row] = []
        for x in input { r.push(x) { out.append($0) } }
        r.finish { out.append($0) }
        #expect(e.periods.allSatisfy { abs($0 - 0.01) < 1e-6 }, "\(e.periods)")
        // The rows keep the When they were written with.
        #expect(out.filter { $0.source == .deviceMotion }.map(\.when) == input.filter { $0.source == .accelerometer }.map(\.when))
    }

    @Test("a tick with only A or only G gets no D row and is counted")
    func incomplete() {
        let e = RecordingEstimator()
        let (out, r) = rewrite([row(.accelerometer, 2), row(.gyroscope, 2.01), row(.accelerometer, 2.02), row(.gyroscope, 2.02)], e)
        #expect(out.filter { $0.source == .deviceMotion }.count == 1)
        #expect(r.incompleteTicks == 2)
    }

    @Test("the real filter writes D rows whose A − UA is a unit gravity vector")
    func realFilter() throws {
        let filter = try DeviceMotionFilter()
        var rows: [Row] = []
        let q = Quaternion(axis: Vector3(1, 0.3, 0), angle: 0.6)
        let a = Synthetic.accel(q), m = Synthetic.mag(q)
        for k in 0..<200 {
            let w = 1_763_735_405 + Double(k) / 100
            rows += [Row(source: .accelerometer, label: 0x57, when: w, a.x, a.y, a.z),
                     Row(source: .gyroscope, label: 0x57, when: w, 0, 0, 0),
                     Row(source: .magnetometer, label: 0x57, when: w, m.x, m.y, m.z)]
        }
        var r = DeviceMotionRewriter(estimator: filter)
        var d: [Row] = []
        for x in rows { r.push(x) { if $0.source == .deviceMotion { d.append($0) } } }
        r.finish { if $0.source == .deviceMotion { d.append($0) } }
        #expect(d.count == 200)
        for row in d {
            let ua = Vector3(row[3], row[4], row[5])
            #expect(abs((a - ua).norm - 1) < 1e-9)
            let angles = AttitudeAngles(pitch: row[6], roll: row[7], yaw: row[8])
            #expect(Synthetic.angle(angles.quaternion, q) < 1e-6)
        }
    }
}
