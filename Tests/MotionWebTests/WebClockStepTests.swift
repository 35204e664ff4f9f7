import Foundation
import MotionCore
@testable import MotionWeb
import Testing

/// A recording whose clock was stepped to GPS time (a logger booted without network) is
/// shown as the ride it was: start, length and charts place the rows stamped before the
/// step, as the summary does.
@Suite struct WebClockStepTests {
    let start = 1_790_000_000.0
    let behind = 9 * 86_400 + 0.25

    @Test func theStartTheLengthAndTheChartsPlaceTheRowsBeforeTheStep() throws {
        let fixture = try WebFixture()
        try fixture.addRecording("20260911120000", start: start, seconds: 20, clockBehindFor: (behind, start + 5))
        let folder = RecordingFolder(path: fixture.folder)
        let entry = try #require(folder.list().first)
        #expect(entry.startEpoch == start)
        #expect(abs((entry.durationSeconds ?? 0) - 19.9) < 1e-6, "\(String(describing: entry.durationSeconds))")
        let inputs = RecordingSeries.inputs(try #require(RecordingParts([entry])), folder: fixture.folder)
        #expect(inputs.map(\.step) == [ClockStep(entry.metadata)])
        let series = try RecordingSeries.read(inputs, duration: entry.durationSeconds)
        #expect(series.firstWhen == start)
        // Placed by the step, the rows are one continuous piece, not two with a gap.
        let bins = Array(series.acceleration.joined())
        #expect(series.acceleration.count == 1, "\(series.acceleration.map(\.count)) bins per piece")
        #expect(bins.count > 100 && bins.allSatisfy { $0.t >= 0 && $0.t <= 20 }, "\(bins.map(\.t).suffix(3))")
        #expect(series.speed.joined().allSatisfy { $0.t >= 0 && $0.t <= 20 })
    }
}
