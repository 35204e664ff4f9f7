import Foundation
import MotionCore
import MotionMath
import MotionSimulator
import Testing

@Suite("The simulated ride is physically consistent")
struct RideTests {
    let ride = BikeRide.standard

    func segmentStart(_ note: String, occurrence: Int = 0) -> (start: Double, segment: RideSegment) {
        var t = 0.0, seen = 0
        for s in ride.segments {
            if s.note == note { if seen == occurrence { return (t, s) }; seen += 1 }
            t += s.duration
        }
        return (.nan, ride.segments[0])
    }

    @Test func atTheRedLightTheIMUReadsGravityOnlyAndNoRotation() {
        let (t0, _) = segmentStart("wait at the red light")
        let truth = ride.truth(at: t0 + 10)
        #expect((truth.accel - Vector3(0, 0, -1)).norm < 1e-9)
        #expect(truth.gyro.norm < 1e-9)
        #expect(abs(truth.mag.norm - 49) < 1e-9)
    }

    @Test func gravityMatchesTheAttitudeEverywhere() {
        for t in stride(from: 0.5, to: ride.loopDuration * 1.5, by: 1.7) {
            let truth = ride.truth(at: t)
            #expect((truth.gravity - truth.attitude.inverseRotate(Vector3(0, 0, -1))).norm < 1e-12)
            #expect(abs(truth.gravity.norm - 1) < 1e-12)
            // The field in the device frame rotates back to the Earth field.
            #expect((truth.attitude.rotate(truth.mag) - EarthField().enu).norm < 1e-9)
        }
    }

    @Test func aRightTurnShowsYawRateCentripetalAccelerationAndLean() {
        let (t0, seg) = segmentStart("right turn")
        let mid = t0 + seg.duration / 2
        let truth = ride.truth(at: mid)
        let state = ride.state(at: mid)
        // Turning clockwise seen from above: negative rate about the (nearly vertical) Z axis.
        #expect(truth.gyro.z < -0.2)
        // Leaning into the turn, gravity and centripetal force add up along the lean: the
        // accelerometer's lateral component stays small while |A| exceeds 1 g.
        #expect(state.lean > 0.1)
        #expect(truth.accel.norm > 1.02)
        // Integrating the yaw rate over the turn gives 90°.
        var angle = 0.0
        let dt = 0.001
        var t = t0
        while t < t0 + seg.duration { angle += ride.state(at: t).attitude.rotate(ride.truth(at: t).gyro).z * dt; t += dt }
        #expect(abs(angle * 180 / Double.pi + 90) < 0.5)
    }

    @Test func brakingShowsAsForwardSpecificForceWithCoreMotionSign() {
        let (t0, seg) = segmentStart("brake for the traffic light")
        let truth = ride.truth(at: t0 + seg.duration / 2)
        // Decelerating: specific force points backward (−Y), so A = −f/g has +Y.
        #expect(truth.accel.y > 0.1)
    }

    @Test func theLoopIsSeamless() {
        let d = ride.loopDuration
        let before = ride.state(at: d - 1e-6), after = ride.state(at: d + 1e-6)
        #expect((before.position - after.position).norm < 1e-3)
        #expect(abs(before.speed - after.speed) < 1e-6)
        #expect(before.attitude.inverseRotate(Vector3(0, 1, 0)).y > 0.999 || (before.attitude.conjugate * after.attitude).angle < 1e-5)
    }

    @Test func gpsFixesFollowTheSameRouteWithMatchingSpeedAndCourse() {
        let gps = SimulatedGPS()
        let (t0, _) = segmentStart("cruise")
        let a = gps.fix(at: 1000, elapsed: t0 + 10), b = gps.fix(at: 1001, elapsed: t0 + 11)
        // Distance between consecutive fixes ≈ speed × 1 s (equirectangular, short distance).
        let north = (b.latitude - a.latitude) * Double.pi / 180 * 6_378_137
        let east = (b.longitude - a.longitude) * Double.pi / 180 * 6_378_137 * cos(52.52 * Double.pi / 180)
        let moved = (north * north + east * east).squareRoot()
        #expect(abs(moved - (a.speed + b.speed) / 2) < 0.05)
        let course = atan2(east, north) * 180 / Double.pi
        #expect(abs(((course - a.course + 540).truncatingRemainder(dividingBy: 360)) - 180) < 1)
        #expect(a.mode == 3 && a.when == 1000)
    }

    @Test func imuSamplesAreDeterministicFunctionsOfTime() {
        let imu = SimulatedIMU()
        let t = Tick(index: 123, monotonicNanos: 0, when: 1.23, elapsed: 1.23, epoch: 1_763_735_406.23)
        #expect(imu.read(at: t) == imu.read(at: t))
        #expect(SimulatedIMU().read(at: t) == imu.read(at: t))
    }
}

/// A scenario's length comes from its segments (the help of `record` and `daemon` gives
/// every length, and building every route at each start cost 44 MB and 1.8 s); it is the
/// length of the route the simulator plays.
@Suite struct ScenarioLengthTests {
    @Test(arguments: SimulatorScenario.allCases)
    func theLengthFromTheSegmentsIsTheRoutesLoop(_ scenario: SimulatorScenario) {
        #expect(scenario.duration == scenario.route.loopDuration)
        #expect(scenario.segments.map(\.note) == scenario.route.segments.map(\.note))
    }
}
