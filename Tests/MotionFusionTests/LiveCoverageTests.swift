import Foundation
import MotionCore
import MotionFusion
import MotionMath
import MotionSimulator
import Testing

/// The coverage `calibrate` shows live is the one its result reports and is judged by, on
/// the same samples. Before, the live figure was measured around the median of the raw
/// samples without the soft-iron correction, the result's around the fitted centre with it:
/// the simulator's run stopped at "coverage 91 %" and reported 81 % ("acceptable").
@Suite("Live calibration coverage")
struct LiveCoverageTests {
    /// The simulator's turning IMU, handing out its magnetometer only once turning has
    /// begun (the tick that starts the turning phase carries none), and keeping what it
    /// handed out: the samples each live line was computed from.
    final class WatchedIMU: MotionSensor {
        let inner: SimulatedTurningIMU
        let rate: Int
        private(set) var handedOut: [Vector3] = []
        init(_ inner: SimulatedTurningIMU, rate: Int) { self.inner = inner; self.rate = rate }
        var info: SensorInfo { inner.info }
        var health: SensorHealth { inner.health }
        func start(rateHz: Int) throws {}
        func read(at tick: Tick) -> MotionReading {
            var r = inner.read(at: tick)
            if tick.elapsed <= inner.stillSeconds + 0.5 / Double(rate) { r.mag = nil }
            if let m = r.mag { handedOut.append(m) }
            return r
        }
    }

    /// A magnetometer far from the simulator's near-identity one: strong hard and soft iron.
    static var distorted: IMUImperfections {
        var p = IMUImperfections()
        p.magHardIron = Vector3(35, -60, 25)
        p.magSoftIron = Matrix3(rows: Vector3(1.25, 0.10, 0.05), Vector3(0.10, 0.80, -0.05), Vector3(0.05, -0.05, 1.05))
        return p
    }

    /// The result's coverage in whole percent on `samples` (nil: too few for any figure).
    static func resultPercent(_ samples: [Vector3], fieldStrength: Double? = nil) -> Int? {
        var c = MagnetometerCalibrator()
        for m in samples { c.add(m) }
        switch c.calibrate(fieldStrength: fieldStrength) {
        case .success(let r): return Int((r.coverage * 100).rounded())
        case .failure(.noEllipsoid(let coverage, _)): return Int((coverage * 100).rounded())
        case .failure: return nil
        }
    }

    /// Runs a live calibration on the simulated clock; every coverage line with the samples
    /// handed out when it was said.
    static func run(_ imu: SimulatedTurningIMU, maxTurnSeconds: Double)
        -> (lines: [(percent: Int, samples: [Vector3])], mag: MagnetometerCalibrator) {
        let rate = 100
        let sensor = WatchedIMU(imu, rate: rate)
        let clock = SimulatedClock(epoch: 1_763_735_405_000_000_000)
        let session = LiveCalibration(sensor: sensor, clock: clock, rate: rate, maxTurnSeconds: maxTurnSeconds)
        var lines: [(percent: Int, samples: [Vector3])] = []
        let (_, mag) = session.run { line in
            guard let r = line.range(of: " s: coverage "),
                  let percent = Int(line[r.upperBound...].prefix { $0.isNumber }) else { return }
            lines.append((percent, sensor.handedOut))
        }
        return (lines, mag)
    }

    @Test("every live figure is the result's coverage on the samples seen so far, and the last is the result's",
          arguments: [("simulator", 120.0), ("strong hard and soft iron", 120.0), ("strong hard and soft iron", 25.0)])
    func liveFigureIsTheResults(_ magnetometer: String, _ maxTurnSeconds: Double) throws {
        let imu = magnetometer == "simulator" ? SimulatedTurningIMU() : SimulatedTurningIMU(imperfections: Self.distorted)
        let (lines, mag) = Self.run(imu, maxTurnSeconds: maxTurnSeconds)
        #expect(lines.count >= 5)
        for (k, line) in lines.enumerated() {
            let expected = Self.resultPercent(line.samples)
            #expect(expected == nil || line.percent == expected, "line \(k + 1) (\(line.samples.count) samples): live \(line.percent) %, result \(expected ?? -1) %")
        }
        // The last line was computed from every sample the result uses.
        let last = try #require(lines.last)
        #expect(last.samples == mag.samples)
        let result = try mag.calibrate().get()
        #expect(last.percent == Int((result.coverage * 100).rounded()), "live \(last.percent) %, result \(result.figure)")
    }

    @Test("the simulator's run stops when the result's coverage reaches 90 %, and the result says so")
    func stopsAtTheResultsTarget() throws {
        let (lines, mag) = Self.run(SimulatedTurningIMU(), maxTurnSeconds: 120)
        let result = try mag.calibrate().get()
        #expect(result.coverage >= 0.9 && result.quality == .good, "\(result.figure)")
        #expect(try #require(lines.last).percent >= 90)
    }

    @Test("the live coverage equals the result's exactly, its unseen axes too, with or without a field strength")
    func sameNumbers() throws {
        var cal = MagnetometerCalibrator()
        let imu = SimulatedTurningIMU(imperfections: Self.distorted)
        // 30 s of turning: most but not all directions.
        for k in 0..<3000 {
            let tick = Tick(index: Int64(k), monotonicNanos: 0, when: 0, elapsed: imu.stillSeconds + 0.01 * Double(k + 1))
            if let m = imu.read(at: tick).mag { cal.add(m) }
        }
        let live = cal.provisionalCoverage
        for field in [nil, 30.0] {
            let result = try cal.calibrate(fieldStrength: field).get()
            #expect(live.fraction == result.coverage, "live \(live.fraction), result \(result.coverage)")
            #expect(live.missingAxes == result.missingAxes)
        }
    }
}
