import Foundation
import MotionMath

/// What the accelerometer feels, besides the route's own accelerations, for each way of
/// carrying the device (g, device frame). Deterministic functions of time.
enum CarriedMotion {
    /// Step cadence of the walking segments, Hz (the 1.8 Hz: 108 steps a minute).
    static let stepHz = 1.8

    static func accel(_ style: MotionStyle, t: Double, segmentTime: Double, scale: Double) -> Vector3 {
        guard scale > 0 else { return .zero }
        let twoPi = 2 * Double.pi
        switch style {
        case .cycling:
            return .zero   // SimulatedIMU's road vibration
        case .walking:
            // Heel strikes: a vertical bounce at the step rate with its harmonic, sway at half of it.
            let vertical = 0.32 * sin(twoPi * stepHz * t) + 0.09 * sin(twoPi * 2 * stepHz * t + 0.7)
            let sway = 0.07 * sin(twoPi * stepHz / 2 * t + 0.3)
            let jitter = 0.02 * DeterministicNoise.gaussian(time: t, channel: 30)
            return Vector3(sway, 0.05 * sin(twoPi * stepHz * t + 1.2), vertical + jitter) * scale
        case .vehicle:
            // Engine and tyres (13.7 Hz plus broadband), slow body pitch and heave.
            let engine = 0.008 * sin(twoPi * 13.7 * t) + 0.006 * DeterministicNoise.gaussian(time: t, channel: 31)
            let body = 0.016 * sin(twoPi * 0.6 * t + 0.4) + 0.01 * sin(twoPi * 3.1 * t)
            return Vector3(0.004 * DeterministicNoise.gaussian(time: t, channel: 32), 0.3 * body, engine + body) * scale
        case .still:
            return .zero
        case .inBed:
            // Breathing: 0.25 Hz, barely measurable.
            return Vector3(0, 0, 0.002 * sin(twoPi * 0.25 * t)) * scale
        case .turningOver:
            // Rolling over for about 4 s: gravity swings between axes.
            let u = min(1, max(0, segmentTime / 4))
            let swing = sin(Double.pi * u)
            return Vector3(0.45 * swing, 0.1 * sin(twoPi * 1.3 * segmentTime) * swing, 0.25 * swing) * scale
        }
    }
}
