/// The live lines of `calibrate`'s turning step: the coverage, and what to do next.
///
/// An axis direction is named as still missing only until it has been seen once: the
/// provisional fit moves while samples come in, and a direction seen at 10 s and "missing"
/// again at 12 s made the hint flip between lines. With every axis seen but the coverage
/// short of the target, the line says to keep turning through the in-between tilts (before,
/// it gave no hint at all from about 24 s on).
public struct CoverageHints {
    public let target: Double
    /// Axis directions some line's coverage has seen.
    private var seen: Set<String> = []

    public init(target: Double) { self.target = target }

    /// `  12 s: coverage 44 % — still missing: …`, or `— keep turning: …`.
    public mutating func line(_ turned: Double, _ coverage: SphereCoverage) -> String {
        let missingNow = coverage.missingAxes
        seen.formUnion(SphereCoverage.axisNames.filter { !missingNow.contains($0) })
        let missing = SphereCoverage.axisNames.filter { !seen.contains($0) }
        var line = "  \(Int(turned)) s: coverage \(Int((coverage.fraction * 100).rounded())) %"
        if !missing.isEmpty {
            line += " — still missing: " + missing.map(Self.hint).joined(separator: ", ")
        } else if coverage.fraction < target {
            line += " — keep turning: tilt it about 45° towards each edge and each corner in turn"
                + " (\(coverage.unseenCells) of \(SphereCoverage.cellCount) directions not seen yet)"
        }
        return line
    }

    /// What to do for a field direction never seen along a device axis.
    static func hint(_ axis: String) -> String {
        switch axis {
        case "+Z", "-Z": return "field along \(axis) (lay the device flat, screen up and screen down, facing different ways)"
        case "+Y", "-Y": return "field along \(axis) (stand the device on its top and bottom edges)"
        default: return "field along \(axis) (stand the device on its left and right edges)"
        }
    }
}
