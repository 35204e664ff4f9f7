import Foundation
import MotionMath

/// The kinematic state of the simulated bike at one instant (world frame: East-North-Up,
/// metres, origin at the start of the first loop).
public struct RideState: Sendable {
    public var position: Vector3
    public var velocity: Vector3
    /// Speed along the road, m/s.
    public var speed: Double
    /// Course over ground, degrees clockwise from true north, in [0, 360).
    public var courseDegrees: Double
    /// Road pitch angle, radians (positive uphill).
    public var pitch: Double
    /// Lean angle, radians (positive: leaning right, into a right turn).
    public var lean: Double
    /// Attitude of the device (handlebar mount: X right, Y forward, Z up), device → ENU.
    public var attitude: Quaternion
    public var roughness: Double
    /// How the device is carried now, and seconds into the current segment.
    public var style: MotionStyle = .cycling
    public var segmentTime: Double = 0
}

/// A realistic bicycle ride of a few minutes, looped forever: start from rest, cruise,
/// turns (yaw rate, centripetal acceleration, lean into the turn), a climb and a descent,
/// braking to a stop at a traffic light, and a rough stretch. Every quantity is a smooth,
/// deterministic function of time, so a real-time run and a `--fast` run sample the very
/// same signals. After each loop the course has turned by 360°, so the next loop continues
/// seamlessly from where the last one ended.
public struct BikeRide: Sendable {
    /// What it is, as the recording's sensor model names it ("scripted bike ride").
    public let name: String
    public let segments: [RideSegment]
    /// Seconds per loop.
    public let loopDuration: Double
    private let starts: [Double]
    private let startSpeeds: [Double]
    private let startCourses: [Double]
    private let startGrades: [Double]
    /// Position samples of one loop every `tableStep` seconds (integrated at construction).
    private let positionTable: [Vector3]
    /// 20 ms, or longer for a loop of more than `maxTableSteps` of them (the 8-hour night,
    /// which stays in bed: 200 000 points instead of 1.44 M, 5 MB instead of 35 MB).
    private let tableStep: Double
    static let maxTableSteps = 200_000.0
    private let loopDisplacement: Vector3
    /// The rider's pedal strokes (rock and surge), or nil for a ride without them.
    public private(set) var pedalling: Pedalling?

    public static let gravity = 9.80665

    /// The standard ride (about 4 minutes per loop).
    public static let standard = BikeRide(segments: standardSegments)

    /// The standard ride's segments.
    public static let standardSegments: [RideSegment] = [
        RideSegment("start from rest", duration: 8, endSpeed: 6),
        RideSegment("cruise, gentle climb", duration: 20, endSpeed: 6, endGrade: 0.03),
        RideSegment("right turn", duration: 6, endSpeed: 5, turn: 90, endGrade: 0),
        RideSegment("descent", duration: 25, endSpeed: 7.5, endGrade: -0.025),
        RideSegment("brake for the traffic light", duration: 6, endSpeed: 0, endGrade: 0),
        RideSegment("wait at the red light", duration: 20, endSpeed: 0),
        RideSegment("pull away", duration: 7, endSpeed: 5.5),
        RideSegment("left turn", duration: 5, endSpeed: 5, turn: -90),
        RideSegment("cruise", duration: 30, endSpeed: 6.5),
        RideSegment("right turn", duration: 6, endSpeed: 5, turn: 90),
        RideSegment("cobbles", duration: 20, endSpeed: 4.5, roughness: 3),
        RideSegment("right turn", duration: 6, endSpeed: 4.5, turn: 90),
        RideSegment("cruise", duration: 25, endSpeed: 6.5),
        RideSegment("right turn", duration: 6, endSpeed: 5, turn: 90),
        RideSegment("cruise", duration: 15, endSpeed: 6),
        RideSegment("right turn", duration: 6, endSpeed: 5, turn: 90),
        RideSegment("slow down", duration: 8, endSpeed: 0),
        RideSegment("rest", duration: 10, endSpeed: 0),
    ]

    public init(name: String = "scripted bike ride", segments: [RideSegment]) {
        self.name = name
        self.segments = segments
        var t = 0.0, v = 0.0, c = 0.0, g = 0.0
        var starts: [Double] = [], speeds: [Double] = [], courses: [Double] = [], grades: [Double] = []
        for s in segments {
            starts.append(t); speeds.append(v); courses.append(c); grades.append(g)
            t += s.duration; v = s.endSpeed; c += s.turn; g = s.endGrade
        }
        self.starts = starts; startSpeeds = speeds; startCourses = courses; startGrades = grades
        loopDuration = t
        let tableStep = max(0.02, t / Self.maxTableSteps)
        self.tableStep = tableStep
        // Integrate velocity over one loop (trapezoid, 2 ms sub-steps) into a position table.
        var table: [Vector3] = [.zero]
        var p = Vector3.zero
        let sub = 10
        let h = tableStep / Double(sub)
        var k = 0
        var prev = Self.velocity(speed: speeds.first ?? 0, course: 0, grade: 0)
        while Double(k) * tableStep < t {
            for j in 1...sub {
                let time = Double(k) * tableStep + Double(j) * h
                let vel = Self.profileVelocity(at: min(time, t), starts: starts, speeds: speeds, courses: courses,
                                               grades: grades, segments: segments)
                p += (prev + vel) * (h / 2)
                prev = vel
            }
            table.append(p)
            k += 1
        }
        positionTable = table
        loopDisplacement = Self.interpolate(table, step: tableStep, at: t)
    }

    /// The same ride with the rider's pedal strokes added (rocking and surging; the
    /// position table ignores them: they move the device by centimetres at most).
    public func withPedalling(_ pedalling: Pedalling = Pedalling()) -> BikeRide {
        var ride = self
        ride.pedalling = pedalling
        return ride
    }

    // MARK: Profiles

    /// Over u ∈ [0, 1]: the raised-cosine ramp 0 → 1, (1 − cos πu)/2, and the turn shape,
    /// the integral of a raised-cosine yaw rate (zero rate at both ends), u − sin(2πu)/(2π),
    /// each with its derivative with respect to u. Both from one sine and cosine of πu:
    /// sin 2πu = 2·sin πu·cos πu and 1 − cos 2πu = 2·sin² πu.
    static func shapes(_ u: Double) -> (ramp: (value: Double, slope: Double), turn: (value: Double, slope: Double)) {
        let s = sin(Double.pi * u), c = cos(Double.pi * u)
        return ((value: (1 - c) / 2, slope: Double.pi / 2 * s),
                (value: u - 2 * s * c / (2 * Double.pi), slope: 2 * s * s))
    }

    struct Profile {
        var speed: Double, speedRate: Double
        var course: Double, courseRate: Double   // degrees, degrees/s
        var grade: Double
        var roughness: Double
        var style: MotionStyle
        var segmentTime: Double
    }

    static func profile(at time: Double, starts: [Double], speeds: [Double], courses: [Double],
                        grades: [Double], segments: [RideSegment]) -> Profile {
        // The last segment starting at or before `time` (0 when none does): a binary search
        // of the ascending starts (a scan from the end costs a comparison per later segment).
        var low = 0, high = segments.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if time >= starts[mid] { low = mid } else { high = mid - 1 }
        }
        let i = low
        let s = segments[i]
        let u = min(1, max(0, (time - starts[i]) / s.duration))
        let (r, tu) = shapes(u)
        return Profile(speed: speeds[i] + (s.endSpeed - speeds[i]) * r.value,
                       speedRate: (s.endSpeed - speeds[i]) * r.slope / s.duration,
                       course: courses[i] + s.turn * tu.value,
                       courseRate: s.turn * tu.slope / s.duration,
                       grade: grades[i] + (s.endGrade - grades[i]) * r.value,
                       roughness: s.roughness, style: s.style, segmentTime: time - starts[i])
    }

    func profile(at loopTime: Double) -> Profile {
        Self.profile(at: loopTime, starts: starts, speeds: startSpeeds, courses: startCourses,
                     grades: startGrades, segments: segments)
    }

    static func velocity(speed: Double, course: Double, grade: Double) -> Vector3 {
        let c = course * Double.pi / 180, pitch = atan(grade)
        return Vector3(sin(c) * cos(pitch), cos(c) * cos(pitch), sin(pitch)) * speed
    }

    static func profileVelocity(at time: Double, starts: [Double], speeds: [Double], courses: [Double],
                                grades: [Double], segments: [RideSegment]) -> Vector3 {
        let p = profile(at: time, starts: starts, speeds: speeds, courses: courses, grades: grades, segments: segments)
        return velocity(speed: p.speed, course: p.course, grade: p.grade)
    }

    static func interpolate(_ table: [Vector3], step: Double, at time: Double) -> Vector3 {
        let x = time / step
        let i = min(max(0, Int(x)), table.count - 2)
        let f = x - Double(i)
        return table[i] + (table[i + 1] - table[i]) * f
    }

    // MARK: State

    /// The segment at `time` seconds since the start (the ride loops).
    public func segment(at time: Double) -> RideSegment {
        let lt = time - (time / loopDuration).rounded(.down) * loopDuration
        var i = 0
        for j in stride(from: segments.count - 1, through: 0, by: -1) where lt >= starts[j] { i = j; break }
        return segments[i]
    }

    /// The state at `time` seconds since the ride started (any time ≥ 0; the ride loops).
    public func state(at time: Double) -> RideState {
        let loops = (time / loopDuration).rounded(.down)
        let lt = time - loops * loopDuration
        let p = profile(at: lt)
        let pitch = atan(p.grade)
        let courseRad = p.course * Double.pi / 180
        // Each angle's sine and cosine once, shared by the velocity and the attitude: the
        // course's from its half angle (sin c = 2·sin(c/2)·cos(c/2), cos c = 1 − 2·sin²(c/2)),
        // the pitch's from the grade (cos p = 1/√(1 + g²), sin p = g·cos p) and the pitch's
        // half angle from those (cos(p/2) = √((1 + cos p)/2), sin(p/2) = sin p / (2·cos(p/2)),
        // |p| < π/2): the same quantities as before with 5 calls instead of 14.
        let sinHalfCourse = sin(courseRad / 2), cosHalfCourse = cos(courseRad / 2)
        let sinCourse = 2 * sinHalfCourse * cosHalfCourse, cosCourse = 1 - 2 * sinHalfCourse * sinHalfCourse
        let cosPitch = 1 / (1 + p.grade * p.grade).squareRoot(), sinPitch = p.grade * cosPitch
        let cosHalfPitch = ((1 + cosPitch) / 2).squareRoot(), sinHalfPitch = sinPitch / (2 * cosHalfPitch)
        // Lean into the turn: tan(lean) = v·ω / g (steady-turn balance of a bicycle).
        var lean = atan(p.speed * (p.courseRate * Double.pi / 180) / Self.gravity)
        var velocity = Vector3(sinCourse * cosPitch, cosCourse * cosPitch, sinPitch) * p.speed
        if let pedalling {
            let m = pedalling.motion(at: time, effort: pedalling.effort(speed: p.speed, speedRate: p.speedRate))
            lean += m.rock
            // Forward surge, and the handlebar swinging sideways (to the right for a
            // growing lean) about the contact line.
            let forward = Vector3(sinCourse, cosCourse, 0), right = Vector3(cosCourse, -sinCourse, 0)
            velocity += forward * m.surgeSpeed + right * (pedalling.handlebarHeight * m.rockRate)
        }
        // Device → ENU: heading about Up (course is clockwise from north), then the road
        // pitch about the device X axis, then the lean about the device Y axis (each the
        // rotation quaternion (cos(θ/2), sin(θ/2)·axis)).
        let sinHalfLean = sin(lean / 2), cosHalfLean = cos(lean / 2)
        let q = Quaternion(w: cosHalfCourse, x: 0, y: 0, z: -sinHalfCourse)
            * Quaternion(w: cosHalfPitch, x: sinHalfPitch, y: 0, z: 0)
            * Quaternion(w: cosHalfLean, x: 0, y: sinHalfLean, z: 0)
        let position = Self.interpolate(positionTable, step: tableStep, at: lt) + loopDisplacement * loops
        var course = p.course.truncatingRemainder(dividingBy: 360)
        if course < 0 { course += 360 }
        return RideState(position: position, velocity: velocity,
                         speed: p.speed, courseDegrees: course, pitch: pitch, lean: lean, attitude: q,
                         roughness: p.roughness, style: p.style, segmentTime: p.segmentTime)
    }
}
