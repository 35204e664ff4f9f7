@testable import MotionWeb
import Testing

/// The value axis of the charts: grid lines that differ are labelled differently.
@Suite struct SVGChartTests {
    /// Two pieces of a series (a gap between them) are two pieces of line: the path moves
    /// to the second instead of drawing across the gap.
    @Test func aLineIsNotDrawnAcrossAGap() throws {
        let pieces: [[Int]] = [[0, 1, 2], [3, 4]]
        let svg = try #require(SVGChart.render(title: "Speed", unit: "km/h",
                                               line: .init(t: [0, 1, 2, 3600, 3601], v: [10, 12, 11, 15, 16],
                                                           pieceStarts: SVGChart.Line.starts(of: pieces)), cssClass: "s"))
        let path = try #require(svg.components(separatedBy: "<path class=\"line\" d=\"").dropFirst().first?.prefix { $0 != "\"" })
        #expect(path.filter { $0 == "M" }.count == 2 && path.filter { $0 == "L" }.count == 3, "\(path)")
    }

    @Test func aNarrowRangeGetsEnoughDecimals() throws {
        // An elevation between 34.0 and 34.2 m (a flat ride): "34" three times before.
        let svg = try #require(SVGChart.render(title: "Elevation", unit: "m",
                                               line: .init(t: [0, 1, 2], v: [34.0, 34.1, 34.2]), cssClass: "e"))
        let labels = svg.components(separatedBy: "text-anchor=\"end\">").dropFirst().prefix(3).map { String($0.prefix { $0 != "<" }) }
        #expect(labels.count == 3)
        #expect(Set(labels).count == 3, "\(labels)")
        #expect(labels == ["34.0", "34.1", "34.2"])
    }

    /// Half a millimetre of GPS altitude over a 10 s ride was drawn as a full-height climb,
    /// labelled to four decimals (clipped on a phone): with a 10 m minimum span the line is
    /// flat and the labels whole metres.
    @Test func aChangeBelowTheMinimumSpanIsNotDrawnFullHeight() throws {
        let svg = try #require(SVGChart.render(title: "Elevation", unit: "m", line: .init(t: [0, 1, 2], v: [1.0, 1.0, 1.0005]),
                                               minimumSpan: 10, cssClass: "e"))
        let labels = svg.components(separatedBy: "text-anchor=\"end\">").dropFirst().map { String($0.prefix { $0 != "<" }) }
            .filter { !$0.contains(":") }   // the value axis's, not the time axis's
        #expect(!labels.isEmpty && labels.allSatisfy { Int($0) != nil }, "\(labels)")
        #expect(labels.allSatisfy { (Int($0) ?? -1) >= 0 }, "an altitude of 1 m is not given a negative axis: \(labels)")
        // Speeds of 0–0.4 km/h (a standing GPS) on an axis from 0 to at least 5 km/h.
        let speed = try #require(SVGChart.render(title: "Speed", unit: "km/h", line: .init(t: [0, 1, 2], v: [0, 0.4, 0.1]),
                                                 minimumSpan: 5, cssClass: "s"))
        let speedLabels = speed.components(separatedBy: "text-anchor=\"end\">").dropFirst().map { String($0.prefix { $0 != "<" }) }
            .filter { !$0.contains(":") }
        #expect(speedLabels.compactMap(Double.init).max() ?? 0 >= 4, "\(speedLabels)")
    }

    @Test(arguments: [
        (1234.0, 200.0, "1234"), (34.0, 17.0, "34"), (1.05, 0.1, "1.1"), (0.0123, 0.005, "0.012"),
        (-0.00004, 0.01, "0.00"), (5.0, 2.5, "5"), (0.5, 0.0, "0.5"),
    ])
    func labelsHaveTheDecimalsTheStepNeeds(value: Double, step: Double, text: String) {
        #expect(SVGChart.label(value, step: step) == text)
    }
}

/// The time axis: labels at round multiples of a step, on local hours for wall-clock times.
@Suite struct TimeTicksTests {
    @Test func aNightIsLabelledEveryTwoHours() {
        // Elapsed 0:24 to 8:00:52 was labelled 0:24, 2:40:33, 5:20:43, 8:00:52.
        #expect(TimeTicks.ticks(from: 24, to: 28_852) == [0, 7200, 14_400, 21_600, 28_800])
        // The commute, 43 min 12 s: every 10 min, from 0:00 (its first sample at 1 s).
        #expect(TimeTicks.ticks(from: 1, to: 2592) == [0, 600, 1200, 1800, 2400])
        // No tick far outside the span: 2:00 is 5 % of the span before 2:30, 0:00 more.
        #expect(TimeTicks.ticks(from: 120, to: 720) == [120, 240, 360, 480, 600, 720])
        #expect(TimeTicks.ticks(from: 150, to: 700).first == 240)
        // A few seconds, and a week.
        #expect(TimeTicks.ticks(from: 0, to: 8) == [0, 2, 4, 6, 8])
        #expect(TimeTicks.ticks(from: 0, to: 7 * 86_400).count >= 4)
        #expect(TimeTicks.ticks(from: 5, to: 5).isEmpty && TimeTicks.ticks(from: 0, to: .infinity).isEmpty)
    }

    @Test func wallClockLabelsFallOnLocalHours() {
        // 22:10 to 06:10 local time in India (UTC+5:30): labels at 00:00, 02:00, 04:00, 06:00
        // local, which are not multiples of 2 h in UTC.
        let offset = 19_800.0, localMidnight = 1_795_737_600.0 - offset
        let ticks = TimeTicks.ticks(from: localMidnight - 6600, to: localMidnight + 22_200, offset: offset)
        #expect(ticks == [localMidnight, localMidnight + 7200, localMidnight + 14_400, localMidnight + 21_600])
    }

    @Test func theChartsAxisCarriesTheTicks() throws {
        let t = Array(stride(from: 24.0, through: 28_852, by: 49))
        let svg = try #require(SVGChart.render(title: "a", unit: "g", line: .init(t: t, v: t.map { _ in 1 }), cssClass: "a"))
        for label in ["0:00", "2:00:00", "4:00:00", "6:00:00", "8:00:00"] { #expect(svg.contains(">\(label)</text>"), "\(label)") }
        #expect(!svg.contains(">0:24</text>"))
    }
}

/// The value axis: grid lines at round values.
@Suite struct RoundValuesTests {
    @Test(arguments: [
        // Speeds up to 22 km/h were labelled 0, 11, 22; an elevation of 34–40 m 34, 37, 40.
        (-1.1, 23.1, [0.0, 10, 20]), (33.7, 40.3, [34.0, 36, 38, 40]), (0.555, 1.545, [1.0, 1.5]),
        (33.99, 34.21, [34.0, 34.1, 34.2]), (0.0, 73.5, [0.0, 20, 40, 60]),
        // A commute's |a| of 0.62–1.45 g had one line, "1.0".
        (0.58, 1.49, [0.6, 0.8, 1.0, 1.2, 1.4]),
    ])
    func gridLinesFallOnRoundValues(lo: Double, hi: Double, values: [Double]) {
        let got = SVGChart.roundValues(from: lo, to: hi).values
        #expect(got.count == values.count && zip(got, values).allSatisfy { abs($0 - $1) < 1e-9 }, "\(got)")
    }
}

/// The movement bars: one per interval, as high as its value.
@Suite struct MovementBarsTests {
    @Test func eachBarIsAsHighAsItsValue() throws {
        let values = [10.5, 69.9, 16.7, 6.0, 0, 33.3]
        let starts = values.indices.map { 1_795_729_800 + 600 * Double($0) }
        let svg = try #require(SVGChart.bars(title: "Movement", unit: "g·s", starts: starts, values: values, interval: 600,
                                             cssClass: "m", timeLabel: { String(Int($0)) }))
        let heights = svg.components(separatedBy: "<rect ").dropFirst().compactMap { rect -> Double? in
            guard let r = rect.range(of: "height=\"") else { return nil }
            return Double(rect[r.upperBound...].prefix { $0 != "\"" })
        }
        let drawn = values.filter { $0 > 0 }
        try #require(heights.count == drawn.count, "\(heights)")
        for (h, v) in zip(heights, drawn) { #expect(abs(h / heights[1] - v / 69.9) < 0.01, "\(heights)") }
    }
}

@Suite struct MovementBarsSpanTests {
    /// The x and width of each bar.
    func boxes(_ svg: String) -> [(x: Double, w: Double)] {
        svg.components(separatedBy: "<rect ").dropFirst().compactMap { rect in
            func attr(_ name: String) -> Double? {
                guard let r = rect.range(of: " \(name)=\"") ?? rect.range(of: "\(name)=\"") else { return nil }
                return Double(rect[r.upperBound...].prefix { $0 != "\"" })
            }
            guard let x = attr("x"), let w = attr("width") else { return nil }
            return (x, w)
        }
    }

    /// A one-minute recording inside a 10-minute interval is drawn as one minute; the bars
    /// of a recording that covers whole intervals are unchanged.
    @Test func aBarCoversOnlyTheRecordedPartOfItsInterval() throws {
        let t0 = 1_795_743_600.0   // 01:40
        func draw(_ recorded: ClosedRange<Double>?) throws -> [(x: Double, w: Double)] {
            boxes(try #require(SVGChart.bars(title: "Movement", unit: "g·s", starts: [t0], values: [4], interval: 600,
                                             recorded: recorded, cssClass: "m", timeLabel: { String(Int($0)) })))
        }
        let whole = try #require(try draw(nil).first)
        let minute = try #require(try draw((t0 + 370)...(t0 + 430)).first)
        #expect(abs(minute.w / whole.w - 0.1) < 0.02, "\(minute) \(whole)")
        #expect(abs((minute.x - whole.x) / whole.w - 370.0 / 600) < 0.02, "\(minute) \(whole)")
        let covering = try #require(try draw((t0 - 5)...(t0 + 900)).first)
        #expect(covering.x == whole.x && covering.w == whole.w)
    }
}
