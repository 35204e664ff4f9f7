import Foundation
import MotionCore
@testable import MotionWeb
import Testing

/// What the recording page plots (`RecordingSeries`) from the rows as they are.
@Suite struct WebChartSeriesTests {
    let start = 1_790_000_000.0

    /// The acceleration chart leaves out what the summary leaves out: one A value of 1e100
    /// (finite, its square too) once stretched the chart's scale to 1e100 g.
    @Test func theAccelerationChartLeavesOutValuesNoSensorGives() throws {
        let fixture = try WebFixture()
        try fixture.addRecording("20260911120000", start: start, seconds: 20)
        let path = fixture.folder + "/20260911120000.csv"
        var csv = try String(contentsOfFile: path, encoding: .utf8)
        csv += "A,W,\(start + 20.05),1e100,0.0,1.0\n"
        try csv.write(toFile: path, atomically: false, encoding: .utf8)
        let entry = try #require(RecordingFolder(path: fixture.folder).list().first)
        let inputs = RecordingSeries.inputs(try #require(RecordingParts([entry])), folder: fixture.folder)
        let series = try RecordingSeries.read(inputs, duration: 21)
        #expect(!series.acceleration.isEmpty && series.acceleration.allSatisfy { $0.max < 10 },
                "\(series.acceleration.map(\.max).max() ?? 0)")
    }

    /// The row at the very end (t == duration) fell into a 601st bin of its own, a spike
    /// (min = mean = max) at the right edge of every acceleration chart.
    @Test func theLastRowIsInTheLastBin() throws {
        let fixture = try WebFixture()
        try fixture.addRecording("20260911120000", start: start, seconds: 60)
        let entry = try #require(RecordingFolder(path: fixture.folder).list().first)
        let duration = try #require(entry.durationSeconds)
        let inputs = RecordingSeries.inputs(try #require(RecordingParts([entry])), folder: fixture.folder)
        let series = try RecordingSeries.read(inputs, duration: duration)
        #expect(series.acceleration.count == RecordingSeries.bins, "\(series.acceleration.count) bins over \(duration) s")
        #expect(series.acceleration.allSatisfy { $0.t <= duration }, "\(series.acceleration.suffix(2))")
    }
}
