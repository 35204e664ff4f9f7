import Foundation
import MotionCore
@testable import MotionWeb
import Testing

/// What the recording page plots (`RecordingSeries`) from the rows as they are.
@Suite struct WebChartSeriesTests {
    let start = 1_790_000_000.0

    /// The series of a 20 s recording (metadata and all) with `lines` appended to its CSV.
    func seriesOf20Seconds(appending lines: [String]) throws -> RecordingSeries {
        let fixture = try WebFixture()
        try fixture.addRecording("20260911120000", start: start, seconds: 20)
        let path = fixture.folder + "/20260911120000.csv"
        let csv = try String(contentsOfFile: path, encoding: .utf8) + lines.joined()
        try csv.write(toFile: path, atomically: false, encoding: .utf8)
        let entry = try #require(RecordingFolder(path: fixture.folder).list().first)
        let inputs = RecordingSeries.inputs(try #require(RecordingParts([entry])), folder: fixture.folder)
        return try RecordingSeries.read(inputs, duration: 21)
    }

    /// The acceleration chart leaves out what the summary leaves out: one A value of 1e100
    /// (finite, its square too) once stretched the chart's scale to 1e100 g.
    @Test func theAccelerationChartLeavesOutValuesNoSensorGives() throws {
        let series = try seriesOf20Seconds(appending: [
            "A,W,\(start + 20.05),1e100,0.0,1.0\n",
        ])
        let bins = series.acceleration.joined()
        #expect(!bins.isEmpty && bins.allSatisfy { $0.max < 10 }, "\(bins.map(\.max).max() ?? 0)")
    }

    /// The charts leave out rows stamped outside what the recorder wrote (the metadata's
    /// first and last When), as the summary does: a last fix damaged to the year 9999 put a
    /// speed point 7973 years along, an A row a year back a bin before the recording.
    @Test func theChartsLeaveOutRowsOutsideWhatTheRecorderWrote() throws {
        let series = try seriesOf20Seconds(appending: [
            "A,W,\(start - 365 * 86400),0.01,-0.02,1.0\n",
            "L,W,253402300000.0,48.2,11.6,540.0,5.0,45.0,3.0,5.0,0.0,3\n",
        ])
        let speed = series.speed.joined(), bins = series.acceleration.joined()
        #expect(!speed.isEmpty && speed.allSatisfy { $0.t >= 0 && $0.t < 21 }, "\(speed.map(\.t).max() ?? 0)")
        #expect(!bins.isEmpty && bins.allSatisfy { $0.t >= 0 && $0.t < 21 }, "\(bins.map(\.t).min() ?? 0)")
        #expect(series.track.joined().count == 20)
    }

    /// The charts read the rows the summary reads (its fast scanner, `RowScanner`), less
    /// those `motionlog check` refuses as out of range: an L row with a negative speed, a
    /// latitude past 90 or a mode other than 2 or 3, an A row with an infinite value. A
    /// defective line between them does not end the reading.
    @Test func theChartsLeaveOutWhatCheckCallsOutOfRange() throws {
        let series = try seriesOf20Seconds(appending: [
            "L,W,\(start + 19.5),48.2,11.6,540.0,-5.0,45.0,3.0,5.0,0.0,3\n",
            "L,W,\(start + 19.6),91.0,11.6,540.0,5.0,45.0,3.0,5.0,0.0,3\n",
            "L,W,\(start + 19.7),48.2,11.6,540.0,5.0,45.0,3.0,5.0,0.0,4\n",
            "A,W,\(start + 19.8),inf,0.0,1.0\n",
            "\u{1}\u{2}garbage\n",
            "A,W,\(start + 19.9),0.0,0.0,7.5\n",
        ])
        #expect(series.track.joined().count == 20)
        #expect(series.speed.joined().allSatisfy { $0.v >= 0 })
        #expect(series.defectiveLines == 5, "\(series.defectiveLines)")
        #expect(series.acceleration.joined().map(\.max).max() == 7.5)   // the row after the defective line
    }

    /// A CSV without its metadata (copied in, converted) has no duration to size the bins:
    /// a 4.5 s file was one 6 s bin, and its page said "no accelerometer rows".
    @Test(arguments: [(4.5, 100.0), (7200.0, 1.0)])
    func binsWithoutMetadataFollowTheRows(seconds: Double, rateHz: Double) throws {
        let fixture = try WebFixture()
        var csv = CSVFormat.headerLine + "\n"
        for k in 0...Int(seconds * rateHz) {
            csv += "A,W,\(start + Double(k) / rateHz),0.0,\(0.01 * Double(k % 7)),1.0\n"
        }
        try csv.write(toFile: fixture.folder + "/copied.csv", atomically: false, encoding: .utf8)
        let entry = try #require(RecordingFolder(path: fixture.folder).list().first)
        #expect(entry.metadata == nil)
        let inputs = RecordingSeries.inputs(try #require(RecordingParts([entry])), folder: fixture.folder)
        let series = try RecordingSeries.read(inputs, duration: nil)
        #expect(series.acceleration.count == 1, "\(series.acceleration.count) pieces")
        let bins = Array(series.acceleration.joined())
        #expect(bins.count >= RecordingSeries.bins / 8 && bins.count <= 2 * RecordingSeries.bins, "\(bins.count) bins")
        #expect(bins.allSatisfy { $0.t <= seconds * 1.01 } && (bins.last?.t ?? 0) > seconds * 0.9, "\(bins.suffix(2))")
        #expect(bins.allSatisfy { $0.min >= 1 && $0.max <= 1.002 })
    }

    /// A day of fixes every second (every 5 s, every 15 s: a sparse logger) with a 60 s loss
    /// in the middle: the map draws two lines of many points. The track was thinned first and then split wherever two kept points
    /// were more than 10 s apart, so past about 13 hours every point was a segment of its
    /// own and the map drew nothing but the start and the end.
    @Test(arguments: [1.0, 5.0, 15.0])
    func aLongDaysTrackIsALineBrokenOnlyAtItsGaps(interval: Double) throws {
        let fixture = try WebFixture()
        let seconds = 20.0 * 3600, lossStart = 10.0 * 3600, loss = 60.0
        var csv = CSVFormat.headerLine + "\n"
        var t = 0.0
        while t <= seconds {
            if t < lossStart || t >= lossStart + loss {
                csv += "L,W,\(start + t),\(48.1 + t * 1e-6),11.5,500.0,1.0,0.0,0.0,5.0,nan,3\n"
            }
            t += interval
        }
        try csv.write(toFile: fixture.folder + "/day.csv", atomically: false, encoding: .utf8)
        let entry = try #require(RecordingFolder(path: fixture.folder).list().first)
        let inputs = RecordingSeries.inputs(try #require(RecordingParts([entry])), folder: fixture.folder)
        let series = try RecordingSeries.read(inputs, duration: nil)
        let track = series.track
        #expect(track.count == 2, "\(track.count) segments")
        // The speed and elevation charts are broken there too, not drawn across the loss.
        #expect(series.speed.count == 2 && series.elevation.count == 2, "\(series.speed.count), \(series.elevation.count)")
        #expect(track.allSatisfy { $0.count > 500 } && track.joined().count <= 2 * RecordingSeries.maxPoints,
                "\(track.map(\.count))")
        let lastBefore = try #require(track.first?.last?.time), firstAfter = try #require(track.last?.first?.time)
        #expect(lastBefore < start + lossStart && firstAfter >= start + lossStart + loss)
    }

    /// A track without gpsd's speed (converted from GPX): the speed chart is the speed from
    /// positions (it said "no GPS speed"), about the ride's 18 km/h despite ±3 m of jitter,
    /// broken at a 2-minute loss, and without the jump of one wrong fix 2 km off.
    @Test func aTrackWithoutGPSSpeedChartsTheSpeedFromPositions() throws {
        let fixture = try WebFixture()
        var csv = CSVFormat.headerLine + "\n"
        var random = SystemRandomNumberGenerator()
        var north = 0.0
        for k in 0..<1200 {
            north += 5
            if (600..<720).contains(k) { continue }   // a 2-minute loss
            let jitter = Double.random(in: -3...3, using: &random)
            let offset = k == 300 ? 2000.0 : 0   // one wrong fix
            csv += "L,W,\(start + Double(k)),\(48.1 + (north + jitter + offset) / 111_195),11.5,500.0,nan,nan,nan,5.0,nan,3\n"
        }
        try csv.write(toFile: fixture.folder + "/imported.csv", atomically: false, encoding: .utf8)
        let entry = try #require(RecordingFolder(path: fixture.folder).list().first)
        let inputs = RecordingSeries.inputs(try #require(RecordingParts([entry])), folder: fixture.folder)
        let series = try RecordingSeries.read(inputs, duration: nil)
        #expect(series.speedIsFromPositions && series.speedFromGPSD == 0)
        #expect(series.speed.count == 2, "\(series.speed.count) pieces")
        let speeds = series.speed.joined().map(\.v)
        #expect(speeds.count > 1000, "\(speeds.count) points")
        // Never the 2 km in a second of the wrong fix, nor a second's jitter after it.
        #expect(speeds.allSatisfy { abs($0 - 18) <= 5 }, "\(speeds.min() ?? 0)–\(speeds.max() ?? 0) km/h")
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
        #expect(series.acceleration.count == 1, "\(series.acceleration.count) pieces")
        let bins = Array(series.acceleration.joined())
        #expect(bins.count == RecordingSeries.bins, "\(bins.count) bins over \(duration) s")
        #expect(bins.allSatisfy { $0.t <= duration }, "\(bins.suffix(2))")
    }

    /// Ten minutes of accelerometer rows at 50 Hz with two minutes missing in the middle (a
    /// sensor that stopped answering): the acceleration chart is two pieces, its mean line
    /// and its min–max band each broken at the gap. Both were drawn straight across it, as if
    /// the accelerometer had measured a steady 1 g for two minutes.
    @Test func theAccelerationChartIsNotDrawnAcrossAGap() throws {
        let fixture = try WebFixture()
        var csv = CSVFormat.headerLine + "\n"
        for k in 0...(600 * 50) where !(240 * 50..<360 * 50).contains(k) {
            csv += "A,W,\(start + Double(k) / 50),0.0,\(0.2 * Double(k % 5)),1.0\n"
        }
        try csv.write(toFile: fixture.folder + "/gap.csv", atomically: false, encoding: .utf8)
        let entry = try #require(RecordingFolder(path: fixture.folder).list().first)
        let inputs = RecordingSeries.inputs(try #require(RecordingParts([entry])), folder: fixture.folder)
        let series = try RecordingSeries.read(inputs, duration: 600)
        let pieces = series.acceleration
        #expect(pieces.count == 2, "\(pieces.map(\.count)) bins per piece")
        let end = try #require(pieces.first?.last?.t), resume = try #require(pieces.last?.first?.t)
        #expect(end < 240 && end > 238 && resume > 360 && resume < 362, "\(end) → \(resume)")
        #expect(pieces.joined().count == RecordingSeries.bins * 4 / 5, "\(pieces.joined().count) bins")
        let page = RecordingPage.acceleration(series)
        let paths = page.components(separatedBy: "<path ").dropFirst()
        let band = try #require(paths.first { $0.hasPrefix("class=\"band\"") })
        let line = try #require(paths.first { $0.hasPrefix("class=\"line\"") })
        #expect(band.filter { $0 == "M" }.count == 2 && band.filter { $0 == "Z" }.count == 2, "\(band.prefix(200))")
        #expect(line.filter { $0 == "M" }.count == 2, "\(line.prefix(200))")
    }
}
