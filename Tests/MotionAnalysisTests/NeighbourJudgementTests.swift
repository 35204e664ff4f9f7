import Foundation
@testable import MotionAnalysis
import MotionCore
import Testing

/// Moves whose own evidence is thin, judged by the moves they meet (`TimelineBuilder.judgeByNeighbours`):
/// * a piece of a sparse track too short to judge (two fixes, faster than a walk) between
///   two bridged losses is `unknown` on its own; when the moves it meets agree on `cycling`
///   or `vehicle`, it takes theirs (a logger saving a fix a minute in a bus left such pieces
///   between its `vehicle` moves);
/// * a loss bridged at a bicycle's speed between rides is part of the ride, not a vehicle.
@Suite struct NeighbourJudgementTests {
    let t0 = 1_763_700_000.0

    /// Fixes going north: every 10 s for 300 s at `speedBefore`, a loss of 150 s
    /// covered at 10 m/s, two fixes 90 s and 600 m apart, another such loss, then
    /// `speedAfter` for 300 s (nil: the track ends after the piece).
    func timeline(speedBefore: Double, speedAfter: Double?) throws -> [TimelineEntry] {
        var fixes: [(Double, Double)] = []   // (time, metres north)
        for k in 0...30 { fixes.append((Double(k) * 10, Double(k) * 10 * speedBefore)) }
        var (t, y) = fixes[fixes.count - 1]
        t += 150; y += 1500; fixes.append((t, y))
        t += 90; y += 600; fixes.append((t, y))
        if let speedAfter {
            t += 150; y += 1500
            for k in 0...30 { fixes.append((t + Double(k) * 10, y + Double(k) * 10 * speedAfter)) }
        }
        var text = CSVFormat.headerLine + "\n"
        for (time, north) in fixes {
            text += "L,W,\(t0 + time),\(48.1 + north / 111_200),11.5,500.0,nan,nan,nan,nan,nan,3\n"
        }
        return try ScenarioRecording.summarize(text).timeline
    }

    func piece(_ timeline: [TimelineEntry]) throws -> TimelineEntry {
        let pieceStart = t0 + 300 + 150
        return try #require(timeline.first { $0.type == .move && $0.start <= pieceStart && $0.end >= pieceStart + 90 })
    }

    @Test func aPieceBetweenVehicleMovesIsAVehicle() throws {
        let bus = try timeline(speedBefore: 12, speedAfter: 12)
        #expect(!bus.contains { $0.activity == .unknown }, "\(bus)")
        #expect(try piece(bus).activity == .vehicle, "\(bus)")
    }

    @Test func aPieceAfterTheLastVehicleMoveIsAVehicle() throws {
        let bus = try timeline(speedBefore: 12, speedAfter: nil)
        #expect(try piece(bus).activity == .vehicle, "\(bus)")
    }

    /// A ride: fixes every 10 s at 5 m/s for 300 s, a loss of 150 s covered at `lossSpeed`
    /// in a straight line, and 300 s more of riding; `walk`: at 1.3 m/s instead.
    func ride(lossSpeed: Double, walk: Bool = false) throws -> [TimelineEntry] {
        let speed = walk ? 1.3 : 5.0
        var text = CSVFormat.headerLine + "\n"
        func fix(_ t: Double, _ north: Double) {
            text += "L,W,\(t0 + t),\(48.1 + north / 111_200),11.5,500.0,nan,nan,nan,nan,nan,3\n"
        }
        for k in 0...30 { fix(Double(k) * 10, Double(k) * 10 * speed) }
        let resume = 300 * speed + 150 * lossSpeed
        for k in 0...30 { fix(450 + Double(k) * 10, resume + Double(k) * 10 * speed) }
        return try ScenarioRecording.summarize(text).timeline
    }

    @Test func aLossAtABicyclesSpeedBetweenRidesIsCycling() throws {
        let timeline = try ride(lossSpeed: 4.5)
        #expect(timeline.count == 1 && timeline[0].activity == .cycling, "\(timeline)")
    }

    @Test func aLossFasterThanABicycleOrBetweenWalksStaysAVehicle() throws {
        // A bicycle does not cover 8 m/s in a straight line; walk, metro, walk is a vehicle.
        for timeline in [try ride(lossSpeed: 8), try ride(lossSpeed: 4.5, walk: true)] {
            let loss = try #require(timeline.first { $0.start == t0 + 300 }, "\(timeline)")
            #expect(loss.activity == .vehicle && loss.basis == .gapSpeed, "\(timeline)")
        }
    }

    /// GPS moves of `(activity, seconds)` one after another; a nil activity is a stop.
    func moves(_ parts: [(Activity?, Double)]) -> [TimelineEntry] {
        var t = t0
        return parts.map { activity, seconds in
            var e = TimelineEntry(type: activity == nil ? .stop : .move, start: t, end: t + seconds)
            e.activity = activity
            if activity != nil { e.distanceM = 100 }
            t += seconds
            return e
        }
    }

    @Test func aPieceWhoseNeighboursDisagreeOrWalkStaysUnknown() {
        // Cycling, then a vehicle: the change happened somewhere unseen; a walk: the piece
        // is faster than one; stops: nothing moving to go by.
        for parts: [(Activity?, Double)] in [[(.cycling, 300), (.unknown, 90), (.vehicle, 300)],
                                             [(.walking, 300), (.unknown, 90), (.walking, 300)],
                                             [(.walking, 300), (.unknown, 90), (.vehicle, 300)],
                                             [(nil, 300), (.unknown, 90), (nil, 300)]] {
            let out = TimelineBuilder.judgeByNeighbours(moves(parts))
            #expect(out[1].activity == .unknown, "\(parts)")
        }
    }

    @Test func aPieceBesideAStopTakesTheOneMoveItMeets() {
        let out = TimelineBuilder.judgeByNeighbours(moves([(.cycling, 300), (.unknown, 90), (nil, 600)]))
        #expect(out[1].activity == .cycling && out[1].basis == .neighbours)
    }

    @Test func anIMUMoveIsNotJudgedByGPSNeighbours() {
        // A moving window sampled below 20 Hz says nothing; it is not a fast GPS piece.
        var parts = moves([(.vehicle, 300), (.unknown, 90), (.vehicle, 300)])
        parts[1].distanceM = nil
        #expect(TimelineBuilder.judgeByNeighbours(parts)[1].activity == .unknown)
    }
}
