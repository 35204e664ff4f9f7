import Foundation
import MotionAnalysis
import MotionCore
import Testing

/// Outliers of real GPS that each look possible on their own: the first fixes after the
/// signal comes back (GeoLife: 100–600 m off, so one step of 40–120 m/s made bicycle rides'
/// maximum 118–170 km/h), a single multipath spike out and back, and a stale fix after a loss.
@Suite struct TrackOutlierTests {
    let t0 = 1_763_700_000.0

    /// `(seconds after t0, metres north)` as L rows without Doppler speed.
    func summary(_ points: [(Double, Double)]) throws -> AnalysisSummary {
        var text = CSVFormat.headerLine + "\n"
        for (t, north) in points {
            text += "L,W,\(t0 + t),\(48.1 + north / 111_195),11.5,500.0,nan,nan,5.0,nan,nan,3\n"
        }
        return try ScenarioRecording.summarize(text)
    }

    @Test func aFixOffAfterTheSignalReturnsDoesNotSetTheMaximumSpeed() throws {
        // A ride at 5 m/s, 90 s without signal, then a first fix 300 m behind (reacquired
        // badly), and the ride goes on from where it really is.
        var points: [(Double, Double)] = []
        for k in 0...120 { points.append((Double(k), 5 * Double(k))) }
        points.append((210, 5 * 210 - 300))
        for k in 212...330 { points.append((Double(k), 5 * Double(k))) }
        let s = try summary(points)
        let top = try #require(s.maxSpeedMps)
        #expect(top > 4.5 && top < 6, "\(top)")   // 150 m/s from the bad fix before
        for move in s.timeline where move.type == .move {
            #expect((move.maxSpeedMps ?? 0) < 6, "\(move)")
        }
    }

    @Test func aFixOffJustBeforeTheSignalIsLostDoesNotSetTheMaximumSpeed() throws {
        // The last fix before a tunnel is 150 m ahead (75 m/s: possible, so kept); the ride
        // goes on after 90 s.
        var points: [(Double, Double)] = []
        for k in 0...120 { points.append((Double(k), 5 * Double(k))) }
        points.append((122, 5 * 122 + 150))
        for k in 212...330 { points.append((Double(k), 5 * Double(k))) }
        let top = try #require(try summary(points).maxSpeedMps)
        #expect(top > 4.5 && top < 6, "\(top)")
    }

    @Test func aHeldSpeedIsTheMaximum() throws {
        // A car at 25 m/s for a minute between two walks.
        var points: [(Double, Double)] = []
        for k in 0...180 {
            let t = Double(k)
            let north: Double = k <= 60 ? 1.3 * t : k <= 120 ? 78 + 25 * (t - 60) : 1578 + 1.3 * (t - 120)
            points.append((t, north))
        }
        let top = try #require(try summary(points).maxSpeedMps)
        #expect(abs(top - 25) < 1, "\(top)")
    }

    @Test func aSingleSpikeOutAndBackIsDropped() throws {
        // A walk at 1.3 m/s with one fix 150 m ahead of it: out and back in two seconds.
        var points: [(Double, Double)] = []
        for k in 0...300 { points.append((Double(k), 1.3 * Double(k))) }
        points[150].1 += 150
        let s = try summary(points)
        #expect(s.fixesRejected == 1)
        #expect(abs(s.distanceM - 1.3 * 300) < 20, "\(s.distanceM)")   // 300 m more with the spike
    }

    /// A ride logged every 10 s (as GeoLife's 2007 phones did) at 3.5 m/s; after a 65 s loss
    /// the first fix still gives a position from before it, the next one 5 s later the real
    /// one: one step of about 45 m/s. It made such rides `vehicle` (GeoLife user 163).
    func rideWithAStaleFix() -> [(Double, Double)] {
        var points: [(Double, Double)] = []
        for k in stride(from: 0, through: 360, by: 10) { points.append((Double(k), 3.5 * Double(k))) }
        points.append((425, 3.5 * 360 + 10))
        for k in stride(from: 430, through: 700, by: 10) { points.append((Double(k), 3.5 * Double(k))) }
        return points
    }

    @Test func aStaleFixAfterALossIsDroppedAndTheRideStaysARide() throws {
        let s = try summary(rideWithAStaleFix())
        #expect(s.fixesRejected == 1)
        let moves = s.timeline.filter { $0.type == .move }
        #expect(moves.count == 1 && moves.first?.activity == .cycling, "\(s.timeline)")
        #expect(abs(s.distanceM - 3.5 * 700) < 30, "\(s.distanceM)")
    }

    @Test func fixesAfterALossThatGoOnAsBeforeAreKept() throws {
        // A car at 20 m/s through a 60 s tunnel, and a cyclist whose first fix after a loss
        // is right: nothing is dropped.
        var car: [(Double, Double)] = []
        for k in stride(from: 0, through: 300, by: 5) { car.append((Double(k), 20 * Double(k))) }
        for k in stride(from: 360, through: 600, by: 5) { car.append((Double(k), 20 * Double(k))) }
        #expect(try summary(car).fixesRejected == 0)
        var ride = rideWithAStaleFix()
        ride[ride.firstIndex { $0.0 == 425 } ?? 0].1 = 3.5 * 425
        #expect(try summary(ride).fixesRejected == 0)
    }
}
