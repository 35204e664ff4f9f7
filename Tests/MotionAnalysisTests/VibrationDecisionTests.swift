import Testing
@testable import MotionAnalysis

/// How the accelerometer's vibration weighs against the GPS speed profile for a run at the
/// speeds a bicycle and town traffic share (docs/ANALYSIS.md, "Activity", 5.).
@Suite struct VibrationDecisionTests {
    /// A car in town: 4–8 m/s with bursts and motor acceleration, step-free windows.
    static func townTraffic(vibration: Double) -> ModeClassifier.Features {
        var f = ModeClassifier.Features()
        f.duration = 600; f.movingFixes = 500
        f.p50 = 5; f.p85 = 7; f.p95 = 10.5
        f.accelP90 = 1.2; f.stillShare = 0.25
        f.imuWindows = 120; f.stepShare = 0; f.motion = 0.06
        f.vibration = vibration; f.vibrationKnown = true
        return f
    }

    /// A steady ride at bicycle speeds: no bursts, gentle acceleration.
    static func steadyRide(vibration: Double) -> ModeClassifier.Features {
        var f = townTraffic(vibration: vibration)
        f.p50 = 4.5; f.p85 = 5.5; f.p95 = 6.2
        f.accelP90 = 0.4; f.stillShare = 0.05
        return f
    }

    /// A cabin's vibration (a real dashboard phone gave 0.026–0.033 g) no longer overrules
    /// the motor signs of the speed profile: it was `cycling`.
    @Test func aCabinsVibrationLeavesTheDecisionToTheSpeedProfile() {
        let (activity, basis) = ModeClassifier.classifyFast(Self.townTraffic(vibration: 0.03))
        #expect(activity == .vehicle)
        #expect(basis == .speed)
        #expect(ModeClassifier.classifyFast(Self.steadyRide(vibration: 0.03)).0 == .cycling)
    }

    /// A handlebar's vibration is a bicycle even in stop-and-go; a smooth ride is a vehicle
    /// even at a steady bicycle speed.
    @Test func decisiveVibrationStillDecides() {
        #expect(ModeClassifier.classifyFast(Self.townTraffic(vibration: 0.12)) == (.cycling, .speedAndIMU))
        #expect(ModeClassifier.classifyFast(Self.steadyRide(vibration: 0.008)) == (.vehicle, .speedAndIMU))
    }
}
