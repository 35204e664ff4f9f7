@testable import MotionWeb
import Testing

/// The value axis of the charts: grid lines that differ are labelled differently.
@Suite struct SVGChartTests {
    @Test func aNarrowRangeGetsEnoughDecimals() throws {
        // An elevation between 34.0 and 34.2 m (a flat ride): "34" three times before.
        let svg = try #require(SVGChart.render(title: "Elevation", unit: "m",
                                               line: .init(t: [0, 1, 2], v: [34.0, 34.1, 34.2]), cssClass: "e"))
        let labels = svg.components(separatedBy: "text-anchor=\"end\">").dropFirst().prefix(3).map { String($0.prefix { $0 != "<" }) }
        #expect(labels.count == 3)
        #expect(Set(labels).count == 3, "\(labels)")
        #expect(labels == ["34.0", "34.1", "34.2"])
    }

    @Test(arguments: [
        (1234.0, 200.0, "1234"), (34.0, 17.0, "34"), (1.05, 0.1, "1.1"), (0.0123, 0.005, "0.012"),
        (-0.00004, 0.01, "0.00"), (5.0, 2.5, "5"), (0.5, 0.0, "0.5"),
    ])
    func labelsHaveTheDecimalsTheStepNeeds(value: Double, step: Double, text: String) {
        #expect(SVGChart.label(value, step: step) == text)
    }
}
