import Foundation
import MotionCore
import MotionFusion
import MotionMath
import Testing

/// The velocity-aided inclination on scripted vehicle motion with exact truth: a level
/// device (a car's dashboard) whose only error source is the vehicle's own acceleration.
@Suite("Fusion: GPS velocity takes the vehicle's acceleration out of the inclination")
struct GroundVelocityAidTests {
    static let rate = 100.0
    /// Earth's field in East-North-Up, µT (north and down, as in central Europe).
    static let field = Vector3(0, 19, -45)

    /// What the vehicle does at time t: its yaw (rad, counter-clockwise from north), yaw rate
    /// (rad/s), speed (m/s) and acceleration along the track (m/s²).
    struct Motion { var yaw: Double; var yawRate: Double; var speed: Double; var along: Double }

    /// What a level device feels: accelerometer (g, CoreMotion sign), gyroscope, field in the
    /// device frame, with the vehicle's acceleration along the track plus centripetal.
    static func reading(_ m: Motion) -> (accel: Vector3, gyro: Vector3, mag: Vector3) {
        let attitude = Quaternion(axis: Vector3(0, 0, 1), angle: m.yaw)
        let forward = attitude.rotate(Vector3(0, 1, 0)), left = attitude.rotate(Vector3(-1, 0, 0))
        let acceleration = forward * m.along + left * (m.yawRate * m.speed)
        let specificForce = attitude.inverseRotate(acceleration / FusionParameters.standardGravity + Vector3(0, 0, 1))
        return (-specificForce, Vector3(0, 0, m.yawRate), attitude.inverseRotate(field))
    }

    /// A fix as a receiver reports it: course over ground in degrees clockwise from north.
    static func fix(_ m: Motion, at t: Double) -> LocationFix {
        var course = -m.yaw * 180 / Double.pi
        course = course.truncatingRemainder(dividingBy: 360)
        if course < 0 { course += 360 }
        return LocationFix(when: t, latitude: 52.5, longitude: 13.4, speed: m.speed, course: course, mode: 3)
    }

    /// Runs the filter on a level device driven by `motion`, fixes at whole seconds arriving
    /// `latency` late (transformed by `fixes`, nil: none). Returns the largest inclination
    /// error after `settle` seconds (degrees) and whether the aid was on at the end.
    static func run(seconds: Double, settle: Double = 1, latency: Double = 0.2, motion: (Double) -> Motion,
                    fixes: ((LocationFix) -> LocationFix?)?) throws -> (worst: Double, aided: Bool) {
        let filter = try DeviceMotionFilter()
        var pending: [LocationFix] = []
        var nextFix = 0.0
        var worst = 0.0
        for i in 0..<Int(seconds * rate) {
            let t = Double(i) / rate
            let m = motion(t)
            let r = Self.reading(m)
            let d = filter.update(accel: r.accel, gyro: r.gyro, mag: r.mag, dt: i == 0 ? 0 : 1 / rate)
            if let fixes {
                while nextFix <= t { if let f = fixes(Self.fix(motion(nextFix), at: nextFix)) { pending.append(f) }; nextFix += 1 }
                while let f = pending.first, f.when + latency <= t { filter.observe(f, age: t - f.when); pending.removeFirst() }
            }
            guard t >= settle else { continue }
            let inclination = acos(min(1, d.attitude.inverseRotate(Vector3(0, 0, 1)).z)) * 180 / Double.pi
            worst = max(worst, inclination)
        }
        return (worst, filter.estimate.groundVelocityAided)
    }

    /// Standing 10 s, then 0.2 g along the road for 15 s (0 → 29 m/s), then cruising.
    static func pullAway(_ t: Double) -> Motion {
        let a = 0.2 * FusionParameters.standardGravity
        let accelerating = t >= 10 && t < 25
        let speed = t < 10 ? 0 : a * (min(t, 25) - 10)
        return Motion(yaw: 0.3, yawRate: 0, speed: speed, along: accelerating ? a : 0)
    }

    /// Cruising at 12 m/s, a 40 s left curve at 0.25 rad/s (0.3 g centripetal) from t = 10 s.
    static func curve(_ t: Double) -> Motion {
        let rate = t >= 10 && t < 50 ? 0.25 : 0
        let yaw = 0.25 * (min(max(t, 10), 50) - 10)
        return Motion(yaw: yaw, yawRate: rate, speed: 12, along: 0)
    }

    @Test("pulling away at 0.2 g for 15 s, or a 40 s curve at 0.3 g centripetal: the IMU alone tilts by degrees, with GPS it stays level",
          arguments: ["pull away", "curve"])
    func vehicleAcceleration(_ name: String) throws {
        let seconds: Double = name == "curve" ? 60 : 40
        let motion: (Double) -> Motion
        if name == "curve" { motion = Self.curve } else { motion = Self.pullAway }
        let alone = try Self.run(seconds: seconds, motion: motion, fixes: nil)
        let aided = try Self.run(seconds: seconds, motion: motion, fixes: { $0 })
        #expect(alone.worst > 5, "\(alone.worst)°")
        #expect(aided.worst < 0.5, "\(aided.worst)°")
        #expect(aided.aided && !alone.aided)
    }

    @Test("the fix's latency does not matter up to 2.5 s: its time, not its arrival, places the interval")
    func latency() throws {
        for latency in [0.0, 0.45, 0.9] {
            let aided = try Self.run(seconds: 40, latency: latency, motion: Self.pullAway, fixes: { $0 })
            #expect(aided.worst < 0.5, "latency \(latency) s: \(aided.worst)°")
        }
        // Reported 3 s after its time: the clocks disagree, the fix is not used.
        let late = try Self.run(seconds: 40, latency: 3, motion: Self.pullAway, fixes: { $0 })
        #expect(!late.aided)
    }

    @Test("missing fixes (one in three lost): the aid bridges them; a long outage falls back to the IMU")
    func missingFixes() throws {
        let thinned = try Self.run(seconds: 40, motion: Self.pullAway,
                                   fixes: { Int($0.when) % 3 == 1 ? nil : $0 })
        #expect(thinned.worst < 0.5, "\(thinned.worst)°")
        let outage = try Self.run(seconds: 40, motion: Self.pullAway, fixes: { $0.when < 12 ? $0 : nil })
        #expect(!outage.aided, "the aid lapses without fixes")
        #expect(outage.worst > 3, "without fixes the acceleration tilts it again: \(outage.worst)°")
    }

    @Test("bad fixes are never used: no speed, no course while moving, a 100 m/s jump, times in the future")
    func badFixes() throws {
        let still = { (_: Double) in Motion(yaw: 0.3, yawRate: 0, speed: 0, along: 0) }
        // A standing device given nonsense stays level (nothing is subtracted that did not happen).
        let cases: [(String, (LocationFix) -> LocationFix?)] = [
            ("nan speed", { var f = $0; f.speed = .nan; return f }),
            ("no course at speed", { var f = $0; f.speed = 5; f.course = .nan; return f }),
            ("a jump", { var f = $0; if Int(f.when) % 7 == 3 { f.speed = 100 }; return f }),
            ("future", { var f = $0; f.when += 30; return f }),
            ("a clock 3 s off", { var f = $0; f.when -= 3; return f }),
            ("infinite", { var f = $0; f.speed = .infinity; return f }),
        ]
        for (name, transform) in cases {
            let r = try Self.run(seconds: 30, motion: still, fixes: transform)
            #expect(r.worst < 0.2, "\(name): \(r.worst)°")
        }
    }

    @Test("switched off by the parameter, the filter ignores fixes")
    func switchedOff() throws {
        var p = FusionParameters()
        p.groundVelocityAiding = false
        #expect(p.set("groundVelocityAiding=true") == nil && p.groundVelocityAiding)
        p.groundVelocityAiding = false
        let filter = try DeviceMotionFilter(parameters: p)
        _ = filter.update(accel: Vector3(0, 0, -1), gyro: .zero, mag: Self.field, dt: 0)
        for i in 1...300 {
            _ = filter.update(accel: Vector3(0, 0, -1), gyro: .zero, mag: Self.field, dt: 0.01)
            if i % 100 == 0 { filter.observe(LocationFix(when: Double(i) / 100, latitude: 0, longitude: 0, speed: 0, course: 0, mode: 3), age: 0) }
        }
        #expect(!filter.estimate.groundVelocityAided)
    }

    /// The recorder gives the filter exact periods (from the monotonic clock); `fuse` gives
    /// it differences of When as written (epoch seconds: steps of 2.4e-7 s); both measure a
    /// fix's age in When. Both must make the same decisions —
    /// whether a fix is used, when a warm-up ends — or their D rows part by degrees.
    @Test("exact periods and When differences give the same attitude, a fix at the very first sample included",
          arguments: [1_795_674_459.0, 1_795_674_459.37])
    func clocksThatDifferByRoundings(start: Double) throws {
        let exact = try DeviceMotionFilter(), rounded = try DeviceMotionFilter()
        var worst = 0.0
        var lastWhen = start
        for i in 0..<4_000 {
            let t = Double(i) / Self.rate
            let when = start + t   // as the file holds it
            let m = Self.pullAway(t + 9)   // standing 1 s, then pulling away
            let r = Self.reading(m)
            let a = exact.update(accel: r.accel, gyro: r.gyro, mag: r.mag, dt: i == 0 ? 0 : 1 / Self.rate)
            let b = rounded.update(accel: r.accel, gyro: r.gyro, mag: r.mag, dt: i == 0 ? 0 : when - lastWhen)
            lastWhen = when
            // A fix on every whole second of the recording's clock, arriving 0.15 s later.
            let fixTime = (when - 0.15).rounded(.down)
            if fixTime >= start, ((when - 0.15) - fixTime) * Self.rate < 0.5 {
                let fix = Self.fix(Self.pullAway(fixTime - start + 9), at: fixTime)
                // Both take the age from When, as the recorder and `fuse` do.
                exact.observe(fix, age: when - fixTime)
                rounded.observe(fix, age: when - fixTime)
            }
            worst = max(worst, (a.attitude * b.attitude.conjugate).angle)
        }
        #expect(worst < 1e-4, "\(worst) rad")
    }
}
