import Foundation

/// The rider's pedal strokes, as the handlebar feels them: the bike rocks from side to side
/// once per crank revolution (each leg's stroke leans it its own way) and surges forward
/// twice per revolution (two power strokes). Both fade in with speed and stop while the
/// rider brakes or coasts down. The rock turns the handlebar about the tyres' contact
/// line, so a device mounted `handlebarHeight` above the road also moves sideways: a fast,
/// periodic translation on top of the ride's slow accelerations.
public struct Pedalling: Sendable, Equatable {
    /// Crank revolutions per second (1.4 Hz = 84 rpm).
    public var cadenceHz: Double = 1.4
    /// Peak side-to-side rock of the bike, degrees.
    public var rockDegrees: Double = 1.5
    /// Height of the device above the road, metres.
    public var handlebarHeight: Double = 1.0
    /// Peak forward surge acceleration from the power strokes, m/s².
    public var surge: Double = 0.3

    public init() {}

    /// How hard the rider pedals (0...1): fades in with speed up to 3 m/s and out while
    /// slowing down (0 at 0.5 m/s² of deceleration). Continuous, so the motion is smooth.
    func effort(speed: Double, speedRate: Double) -> Double {
        min(1, max(0, speed / 3)) * min(1, max(0, 1 + speedRate / 0.5))
    }

    /// Rock angle (rad) and its rate (rad/s) at `time`, and the surge speed (m/s).
    func motion(at time: Double, effort: Double) -> (rock: Double, rockRate: Double, surgeSpeed: Double) {
        let w = 2 * Double.pi * cadenceHz
        let a = rockDegrees * Double.pi / 180 * effort
        // Surge acceleration s·sin(2wt) integrates to a speed of −s/(2w)·cos(2wt), and
        // cos(2wt) = 1 − 2·sin²(wt).
        let s = sin(w * time), c = cos(w * time)
        return (a * s, a * w * c, -surge * effort / (2 * w) * (1 - 2 * s * s))
    }
}
