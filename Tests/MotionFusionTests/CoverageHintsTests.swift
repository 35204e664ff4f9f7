import Foundation
import MotionFusion
import MotionMath
import Testing

/// The live hints of `calibrate`: an axis seen once is not asked for again, and with every
/// axis seen but the coverage short, the line still says what to do.
@Suite struct CoverageHintsTests {
    /// Coverage of unit directions.
    static func coverage(_ directions: [Vector3]) -> SphereCoverage {
        var c = SphereCoverage()
        for d in directions { for _ in 0..<3 { c.add(d) } }
        return c
    }

    static let axes = [Vector3(1, 0, 0), Vector3(-1, 0, 0), Vector3(0, 1, 0), Vector3(0, -1, 0), Vector3(0, 0, 1), Vector3(0, 0, -1)]

    @Test func anAxisSeenOnceIsNotAskedForAgain() {
        var hints = CoverageHints(target: 0.9)
        // +Z seen (lying screen up); a later fit puts it outside 30° of +Z again.
        let first = hints.line(10, Self.coverage([Vector3(0, 0, 1), Vector3(1, 0, 0)]))
        #expect(first.contains("still missing") && !first.contains("along +Z") && first.contains("along -Z"), "\(first)")
        let second = hints.line(12, Self.coverage([Vector3(0.7, 0, 0.7), Vector3(1, 0, 0)]))
        #expect(!second.contains("along +Z") && second.contains("along -Z"), "\(second)")
    }

    @Test func everyAxisSeenButCoverageShortSaysKeepTurning() {
        var hints = CoverageHints(target: 0.9)
        let c = Self.coverage(Self.axes)
        #expect(c.missingAxes.isEmpty && c.fraction < 0.9)
        let line = hints.line(30, c)
        #expect(line.contains("keep turning") && line.contains("of 32 directions not seen yet") && !line.contains("missing"), "\(line)")
        #expect(line.contains("(\(c.unseenCells) of 32"), "\(line)")
    }

    @Test func enoughCoverageNeedsNoHint() {
        var hints = CoverageHints(target: 0.15)
        let c = Self.coverage(Self.axes)
        #expect(c.fraction >= 0.15)
        #expect(hints.line(30, c) == "  30 s: coverage \(Int((c.fraction * 100).rounded())) %")
    }
}
