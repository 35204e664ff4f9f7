import Testing
@testable import MotionAnalysis

/// Where the GPS speed profile alone puts the line between a bicycle and traffic
/// (docs/ANALYSIS.md, "Activity", 4.): everyday riders stay below 25 km/h at the 85th
/// percentile; a run held above it is a vehicle unless the logger feels a bicycle's road.
@Suite struct CyclingSpeedLimitTests {
    /// A run of fixes with these speeds (m/s) and nothing from the IMU.
    static func run(p50: Double, p85: Double, p95: Double, accelP90: Double = 0.5, stillShare: Double = 0.05) -> ModeClassifier.Features {
        var f = ModeClassifier.Features()
        f.duration = 900; f.movingFixes = 800
        f.p50 = p50; f.p85 = p85; f.p95 = p95
        f.accelP90 = accelP90; f.stillShare = stillShare
        return f
    }

    /// A bus in flowing town traffic: 26 km/h at the 85th percentile, no bursts, no hard
    /// starts. It was `cycling` (none of the traffic signs reached two).
    @Test func aBusInFlowingTrafficIsAVehicle() {
        #expect(ModeClassifier.classifyFast(Self.run(p50: 5.5, p85: 7.3, p95: 8.8)) == (.vehicle, .speed))
    }

    /// Faster than everyday riders and bursting to 35 km/h between stops: two signs of
    /// traffic. It was `cycling`.
    @Test func aRunAbove21KmhWithBurstsIsAVehicle() {
        #expect(ModeClassifier.classifyFast(Self.run(p50: 4.8, p85: 6.4, p95: 9.8)) == (.vehicle, .speed))
    }

    /// An everyday ride, and a pedelec held at its motor's 25 km/h limit, stay bicycles.
    @Test func everydayRidesAndPedelecsStayBicycles() {
        #expect(ModeClassifier.classifyFast(Self.run(p50: 4.2, p85: 5.6, p95: 6.5)) == (.cycling, .speed))
        #expect(ModeClassifier.classifyFast(Self.run(p50: 6.2, p85: 6.9, p95: 7.4)) == (.cycling, .speed))
        // A stop-and-go ride at everyday speeds: one sign (the red lights) is not traffic.
        #expect(ModeClassifier.classifyFast(Self.run(p50: 4.0, p85: 5.5, p95: 6.8, stillShare: 0.3)) == (.cycling, .speed))
    }

    /// A fast rider whose logger feels the road (handlebar vibration) is a bicycle at
    /// speeds the GPS alone calls a vehicle.
    @Test func aFastRiderWithAVibratingLoggerIsABicycle() {
        var f = Self.run(p50: 7.2, p85: 8.3, p95: 9.6)
        #expect(ModeClassifier.classifyFast(f) == (.vehicle, .speed))
        f.imuWindows = 150; f.stepShare = 0; f.motion = 0.2
        f.vibration = 0.12; f.vibrationKnown = true
        #expect(ModeClassifier.classifyFast(f) == (.cycling, .speedAndIMU))
    }
}
