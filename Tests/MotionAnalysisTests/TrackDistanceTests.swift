import Foundation
import MotionAnalysis
import MotionCore
import MotionTestSupport
import Testing

/// The figures of the track agree with each other: the distance is the moves' (not the
/// position jitter of a stop), and the maximum speed is never below the average.
@Suite struct TrackDistanceTests {
    let t0 = 1_763_700_000.0

    /// `(seconds after t0, metres north, metres east, gpsd speed or nan)` as L rows.
    func summary(_ points: [(Double, Double, Double, Double)]) throws -> AnalysisSummary {
        var text = CSVFormat.headerLine + "\n"
        for (t, north, east, speed) in points {
            let lat = 48.1 + north / 111_195, lon = 11.5 + east / (111_195 * cos(48.1 * .pi / 180))
            text += "L,W,\(t0 + t),\(lat),\(lon),500.0,\(speed),nan,nan,5.0,nan,3\n"
        }
        return try ScenarioRecording.summarize(text)
    }

    @Test func aStopsJitterIsNotDistanceAndTheMovesAddUpToTheTrack() throws {
        // Walk north 5 min at 1.3 m/s, stand 10 min with fixes scattered ±8 m around one
        // place (a café: each fix up to 16 m from the one before), walk on 5 min.
        var random = SplitMix(state: 7)
        var points: [(Double, Double, Double, Double)] = []
        for k in 0..<300 { points.append((Double(k), 1.3 * Double(k), 0, .nan)) }
        for k in 300..<900 { points.append((Double(k), 390 + Double.random(in: -8...8, using: &random), Double.random(in: -8...8, using: &random), .nan)) }
        for k in 900...1200 { points.append((Double(k), 390 + 1.3 * Double(k - 900), 0, .nan)) }
        let s = try summary(points)
        let stops = s.timeline.filter { $0.type == .stop }
        try #require(stops.count == 1, "\(s.timeline)")
        // 2 × 390 m walked, less the last 100 m before the café that are inside the stay
        // point (trackintel's: within 100 m for 5 min). The ±8 m jitter counted before:
        // 5.5 km, "avg 20.5 km/h, max 4.7 km/h".
        #expect(s.distanceM > 640 && s.distanceM < 790, "\(s.distanceM)")
        #expect((s.averageSpeedMps ?? 0) < 1.5, "\(String(describing: s.averageSpeedMps))")
        let moves = s.timeline.compactMap(\.distanceM).reduce(0, +)
        #expect(abs(moves - s.distanceM) < 0.5, "moves \(moves) m, track \(s.distanceM) m")
    }

    @Test func theReportWritesDistancesBelowAKilometreInMetres() throws {
        // 5 min walking at 1.3 m/s: 390 m, which read "0.39 km" (and a few metres "0.00 km").
        let walk = try summary((0..<300).map { (Double($0), 1.3 * Double($0), 0, Double.nan) })
        let report = SummaryReport.text(walk, title: "walk").split(separator: "\n")
        let metres = Int(walk.distanceM.rounded())
        #expect(metres > 370 && metres < 400, "\(walk.distanceM)")
        #expect(report.contains { $0.hasPrefix("  Distance   \(metres) m   moving") }, "\(report)")
        #expect(report.contains { $0.contains("walking") && $0.contains(" \(metres) m ") && $0.hasSuffix("km/h") }, "\(report)")
        #expect(Text.distance(999.4) == "999 m" && Text.distance(999.6) == "1.00 km" && Text.distance(15_449) == "15.45 km")
    }

    @Test func aShortRideSpeedingUpHasAMaximumAtLeastItsAverage() throws {
        // 8 s from standing to 6 m/s (gpsd's speeds), as a ride recorded for a few seconds.
        var points: [(Double, Double, Double, Double)] = []
        for k in 0...8 {
            let t = Double(k), v = 0.75 * t
            points.append((t, 0.375 * t * t, 0, v))
        }
        let s = try summary(points)
        let average = try #require(s.averageSpeedMps), top = try #require(s.maxSpeedMps)
        #expect(top >= average, "avg \(average) m/s, max \(top) m/s")
        for move in s.timeline where move.type == .move {
            #expect((move.maxSpeedMps ?? 0) >= (move.meanSpeedMps ?? 0), "\(move)")
        }
    }

    /// A climb of 30 m, an hour without data, and a flat walk 50 m lower: the 50 m between
    /// the two logs are not a descent (the way taken is unknown, as for the distance); a
    /// 90 s tunnel on the climb is still part of it.
    @Test func elevationIsNotCountedAcrossALossOfData() throws {
        var text = CSVFormat.headerLine + "\n"
        func row(_ t: Double, north: Double, alt: Double) {
            text += "L,W,\(t0 + t),\(48.1 + north / 111_195),11.5,\(alt),nan,nan,nan,5.0,nan,3\n"
        }
        for k in 0...600 where !(300..<390).contains(k) { row(Double(k), north: 1.3 * Double(k), alt: 500 + 0.05 * Double(k)) }
        for k in 0...600 { row(4200 + Double(k), north: 2000 + 1.3 * Double(k), alt: 480) }
        let s = try ScenarioRecording.summarize(text)
        #expect(abs(s.elevationGainM - 30) <= 5, "gain \(s.elevationGainM)")
        #expect(s.elevationLossM == 0, "loss \(s.elevationLossM)")
    }

    @Test func aTunnelsSecondsCountWithItsMetres() throws {
        // A ride at 5 m/s with 90 s without signal (a tunnel): the distance counts the way
        // through it, so the moving time must count its time (the average was 6.9 m/s).
        var points: [(Double, Double, Double, Double)] = []
        for k in 0...120 { points.append((Double(k), 5 * Double(k), 0, .nan)) }
        for k in 212...330 { points.append((Double(k), 5 * Double(k), 0, .nan)) }
        let s = try summary(points)
        #expect(abs(s.distanceM - 1650) < 20, "\(s.distanceM)")
        let average = try #require(s.averageSpeedMps)
        #expect(abs(average - 5) < 0.2, "\(average)")
    }

    @Test func aShortWalkWhoseSpeedDipsHasAMaximumAtLeastItsAverage() throws {
        // 72 s of walking at 1.6 m/s that stops for 4 s every 16 s: no 20 s at full
        // speed, so the speed held for 20 s alone is far below the average.
        var points: [(Double, Double, Double, Double)] = []
        var north = 0.0
        for k in 0...72 {
            if k % 20 < 16 && k > 0 { north += 1.6 }
            points.append((Double(k), north, 0, .nan))
        }
        let s = try summary(points)
        let average = try #require(s.averageSpeedMps), top = try #require(s.maxSpeedMps)
        #expect(top >= average, "avg \(average) m/s, max \(top) m/s")
    }
}
