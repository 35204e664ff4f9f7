import Foundation
import MotionCore
import MotionMath

/// Imperfections of the simulated IMU: noise, road vibration, gyro bias, magnetometer
/// hard- and soft-iron distortion. Raw A/G/M rows include them, as real raw data does.
public struct IMUImperfections: Sendable, Equatable {
    public var accelNoise: Double = 0.003          // g, standard deviation
    public var gyroNoise: Double = 0.002           // rad/s
    public var magNoise: Double = 0.25             // µT
    public var gyroBias = Vector3(0.004, -0.006, 0.002)        // rad/s
    public var magHardIron = Vector3(12, -7, 20)               // µT
    public var magSoftIron = Matrix3.identity
    /// Vibration amplitude in g at 6 m/s on ordinary asphalt (scales with speed and roughness).
    public var vibration: Double = 0.06

    public init() {}

    /// No noise, no bias, no vibration: the truth itself.
    public static let none: IMUImperfections = {
        var p = IMUImperfections()
        p.accelNoise = 0; p.gyroNoise = 0; p.magNoise = 0; p.gyroBias = .zero; p.magHardIron = .zero; p.vibration = 0
        return p
    }()
}

/// The simulator board's IMU: samples the scripted ride at each tick's time. Deterministic:
/// the value for a tick depends only on the tick's time since the start (it remembers the
/// last ride states it computed, which are pure functions of their times, so consecutive
/// ticks share them; like any sensor it is read by one thread at a time).
public final class SimulatedIMU: MotionSensor {
    public let ride: BikeRide
    public let field: EarthField
    public let imperfections: IMUImperfections
    /// Never changes (the simulated IMU has no bus to fail); a `let`, so reading it per tick needs no exclusivity check.
    public let health = SensorHealth()
    /// `field.enu`, computed once (four trigonometric calls).
    private let fieldENU: Vector3
    /// The ride states of the last ticks' central differences.
    private let states = RideStateCache()

    public init(ride: BikeRide = .standard, field: EarthField = EarthField(), imperfections: IMUImperfections = IMUImperfections()) {
        self.ride = ride; self.field = field; self.imperfections = imperfections
        fieldENU = field.enu
    }

    public var info: SensorInfo {
        SensorInfo(model: "simulated 9-axis IMU (\(ride.name))", accelRangeG: 16, gyroRangeDegPerSec: 2000,
                   magRangeMicroTesla: 4900, notes: ["deterministic noise, vibration, gyro bias and magnetometer hard iron included in raw rows"])
    }

    public func start(rateHz: Int) throws {}

    public func read(at tick: Tick) -> MotionReading {
        readingAndTruth(at: tick.elapsed).reading
    }

    /// The reading at `t` seconds and the ride's truth it was made from (attitude, gravity),
    /// computed once for both.
    public func readingAndTruth(at t: Double) -> (reading: MotionReading, truth: MotionTruth) {
        let (truth, state) = ride.truthAndState(at: t, fieldENU: fieldENU, states: states)
        let ns = DeterministicNoise.nanos(t)
        return (MotionReading(accel: accel(truth, state, t, ns), gyro: gyro(truth, state, ns), mag: mag(truth, ns)), truth)
    }

    func accel(_ truth: MotionTruth, _ state: RideState, _ t: Double, _ ns: UInt64) -> Vector3 {
        let p = imperfections
        if state.style != .cycling {
            return truth.accel + CarriedMotion.accel(state.style, t: t, segmentTime: state.segmentTime, scale: p.vibration / 0.06)
                + noise(ns, p.accelNoise, base: 0)
        }
        let amp = p.vibration * state.roughness * min(1.5, state.speed / 6)
        // Road vibration: a few wheel/frame resonances plus broadband roughness, mostly vertical.
        let vib = amp * (0.6 * sin(2 * Double.pi * 11.3 * t) + 0.3 * sin(2 * Double.pi * 17.9 * t + 1.1)
                         + 0.5 * DeterministicNoise.gaussian(nanos: ns, channel: 10))
        let lateral = amp * 0.3 * DeterministicNoise.gaussian(nanos: ns, channel: 11)
        return truth.accel + Vector3(lateral, 0.2 * vib, vib)
            + noise(ns, p.accelNoise, base: 0)
    }

    func gyro(_ truth: MotionTruth, _ state: RideState, _ ns: UInt64) -> Vector3 {
        let p = imperfections
        let amp = p.vibration * state.roughness * min(1.5, state.speed / 6) * 0.5
        return truth.gyro + p.gyroBias + Self.shake(ns) * amp + noise(ns, p.gyroNoise, base: 3)
    }

    /// Knots of the frame's angular vibration, nanoseconds apart (40 per second).
    static let shakeKnotNanos: UInt64 = 25_000_000

    /// The frame's angular vibration on a rough road, as a rate with standard deviation 1
    /// per axis: the derivative of an angle that moves linearly between Gaussian knots
    /// (`shakeKnotNanos` apart). Its integral is that bounded angle (standard deviation
    /// Δ/√2 per unit of rate: 0.07° at the cobbles' 0.07 rad/s), as a shaking frame turns
    /// back and forth; independent draws per sample, as before, would be a gyroscope
    /// reporting rotations that never happen — an angle random walk 80 times a MEMS
    /// gyroscope's, and larger the lower the sample rate.
    static func shake(_ ns: UInt64) -> Vector3 {
        let k = ns / shakeKnotNanos * shakeKnotNanos, next = k + shakeKnotNanos
        func axis(_ channel: UInt64) -> Double {
            DeterministicNoise.gaussian(nanos: next, channel: channel) - DeterministicNoise.gaussian(nanos: k, channel: channel)
        }
        return Vector3(axis(20), axis(21), axis(22)) * (1 / 2.0.squareRoot())
    }

    func mag(_ truth: MotionTruth, _ ns: UInt64) -> Vector3 {
        let p = imperfections
        return p.magSoftIron * truth.mag + p.magHardIron + noise(ns, p.magNoise, base: 6)
    }

    private func noise(_ ns: UInt64, _ sigma: Double, base: UInt64) -> Vector3 {
        guard sigma > 0 else { return .zero }
        return Vector3(DeterministicNoise.gaussian(nanos: ns, channel: base),
                       DeterministicNoise.gaussian(nanos: ns, channel: base + 1),
                       DeterministicNoise.gaussian(nanos: ns, channel: base + 2)) * sigma
    }
}
