import Foundation
import MotionSystem

/// A time chart as inline SVG: a line (or a min–max band with its mean), or bars per
/// interval, against elapsed time, with its value range and time axis labelled.
enum SVGChart {
    static let width = 400.0, height = 170.0
    static let left = 40.0, right = 8.0, top = 10.0, bottom = 22.0

    /// Values against time; a new piece of line starts at each index in `pieceStarts`
    /// (after a gap in the data), the first always.
    struct Line {
        var t: [Double]
        var v: [Double]
        var pieceStarts: Set<Int> = []

        /// The index ranges of the pieces, in order.
        var pieces: [Range<Int>] {
            let starts = ([0] + pieceStarts.filter { $0 > 0 && $0 < t.count }.sorted()) + [t.count]
            return zip(starts, starts.dropFirst()).map { $0..<$1 }
        }

        /// The index where each piece of `pieces`, joined, starts.
        static func starts<P>(of pieces: [[P]]) -> Set<Int> {
            var starts: Set<Int> = [], at = 0
            for piece in pieces { starts.insert(at); at += piece.count }
            return starts
        }
    }

    /// `band` (min, max) is drawn behind the line when given. The value axis spans at least
    /// `minimumSpan` (centred on the values, never below 0 for values that are not), so
    /// changes smaller than the measurement's noise are not drawn full height.
    static func render(title: String, unit: String, line: Line, band: (lo: [Double], hi: [Double])? = nil,
                       minimumSpan: Double = 0, cssClass: String) -> String? {
        guard line.t.count >= 2, let t0 = line.t.first, let t1 = line.t.last, t1 > t0 else { return nil }
        var lo = line.v.min() ?? 0, hi = line.v.max() ?? 1
        if let band { lo = min(lo, band.lo.min() ?? lo); hi = max(hi, band.hi.max() ?? hi) }
        if hi - lo < minimumSpan {
            let nonNegative = lo >= 0
            let middle = (lo + hi) / 2
            lo = middle - minimumSpan / 2
            hi = middle + minimumSpan / 2
            if nonNegative && lo < 0 { hi -= lo; lo = 0 }
        }
        if hi - lo < 1e-9 { lo -= 1; hi += 1 }
        let pad = (hi - lo) * 0.05
        lo -= pad; hi += pad
        let plotW = width - left - right, plotH = height - top - bottom
        func position(_ t: Double) -> Double { left + (t - t0) / (t1 - t0) * plotW }
        func x(_ t: Double) -> String { SVG.num(position(t)) }
        func y(_ v: Double) -> String { SVG.num(top + (hi - v) / (hi - lo) * plotH) }
        var svg = "<svg class=\"chart \(cssClass)\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"\(title)\">"
        // Grid: lines at round values (0, 10, 20 km/h), each labelled.
        let (grid, step) = roundValues(from: lo, to: hi)
        for v in grid {
            svg += "<line class=\"grid\" x1=\"\(Int(left))\" x2=\"\(Int(width - right))\" y1=\"\(y(v))\" y2=\"\(y(v))\"/>"
            svg += "<text class=\"axis\" x=\"\(Int(left - 4))\" y=\"\(y(v))\" dy=\"4\" text-anchor=\"end\">\(label(v, step: step))</text>"
        }
        svg += timeAxis(TimeTicks.ticks(from: t0, to: t1)) { (position($0), Text.clock($0)) }
        if let band {
            // One closed outline per piece of the line: the band is not drawn across a gap.
            var d = ""
            for piece in line.pieces {
                let upper = piece.map { x(line.t[$0]) + " " + y(band.hi[$0]) }
                let lower = piece.reversed().map { x(line.t[$0]) + " " + y(band.lo[$0]) }
                d += "M\(upper.joined(separator: "L"))L\(lower.joined(separator: "L"))Z"
            }
            svg += "<path class=\"band\" d=\"\(d)\"/>"
        }
        var d = ""
        for piece in line.pieces {
            for i in piece { d += (i == piece.lowerBound ? "M" : "L") + x(line.t[i]) + " " + y(line.v[i]) }
        }
        svg += "<path class=\"line\" d=\"\(d)\"/>"
        svg += "<text class=\"unit\" x=\"\(Int(left))\" y=\"\(Int(top - 1))\" dy=\"8\" dx=\"4\">\(unit)</text>"
        return svg + "</svg>"
    }

    /// Bars from zero, one per interval of `interval` seconds starting at `starts`: the
    /// sleep tracker's movement per interval. `timeLabel` writes a start on the time axis.
    /// With `recorded` (the span of the data), a bar covers only the part of its interval
    /// that was recorded: a one-minute recording is not drawn as ten minutes of movement.
    static func bars(title: String, unit: String, starts: [Double], values: [Double], interval: Double,
                     recorded: ClosedRange<Double>? = nil, cssClass: String, timeLabel: (Double) -> String) -> String? {
        guard !starts.isEmpty, starts.count == values.count, interval > 0, let t0 = starts.first, let last = starts.last else { return nil }
        let t1 = last + interval
        let finite = values.filter(\.isFinite)
        var hi = max(finite.max() ?? 0, 0)
        if hi < 1e-12 { hi = 1 }
        hi *= 1.05
        let plotW = width - left - right, plotH = height - top - bottom
        func x(_ t: Double) -> Double { left + (t - t0) / (t1 - t0) * plotW }
        func y(_ v: Double) -> Double { top + (hi - v) / hi * plotH }
        var svg = "<svg class=\"chart \(cssClass)\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"\(title)\">"
        let (grid, step) = roundValues(from: 0, to: hi)
        for v in grid {
            svg += "<line class=\"grid\" x1=\"\(Int(left))\" x2=\"\(Int(width - right))\" y1=\"\(SVG.num(y(v)))\" y2=\"\(SVG.num(y(v)))\"/>"
            svg += "<text class=\"axis\" x=\"\(Int(left - 4))\" y=\"\(SVG.num(y(v)))\" dy=\"4\" text-anchor=\"end\">\(label(v, step: step))</text>"
        }
        let offset = Double(CalendarTime.wholeSeconds(t0).map { CalendarTime.utcOffset(epochSeconds: $0) } ?? 0)
        svg += timeAxis(TimeTicks.ticks(from: t0, to: t1, offset: offset)) { (x($0), timeLabel($0)) }
        let gap = min(1.0, (x(t0 + interval) - x(t0)) * 0.1)
        for (t, v) in zip(starts, values) where v.isFinite && v > 0 {
            let a = max(t, recorded?.lowerBound ?? t), b = min(t + interval, recorded?.upperBound ?? t + interval)
            let x0 = x(a) + gap / 2, w = max(x(b) - x(a) - gap, 0.5)
            svg += "<rect class=\"bar\" x=\"\(SVG.num(x0))\" y=\"\(SVG.num(y(v)))\" width=\"\(SVG.num(w))\" height=\"\(SVG.num(y(0) - y(v)))\"><title>\(timeLabel(t)) \(label(v, step: v / 100))</title></rect>"
        }
        svg += "<text class=\"unit\" x=\"\(Int(left))\" y=\"\(Int(top - 1))\" dy=\"8\" dx=\"4\">\(unit)</text>"
        return svg + "</svg>"
    }

    /// Two to four multiples of a round step (1, 2 or 5 × 10ⁿ) within `[lo, hi]`, else five
    /// (0.6–1.4 g had one line, "1.0", and the size of the band could not be read), else
    /// whatever one step gives; and the step.
    static func roundValues(from lo: Double, to hi: Double) -> (values: [Double], step: Double) {
        guard lo.isFinite, hi.isFinite, hi > lo else { return ([], 0) }
        let magnitude = pow(10, (log10((hi - lo) / 4)).rounded(.down))
        let steps = [1.0, 2, 5, 10, 20].map { $0 * magnitude }
        func lines(_ step: Double) -> (first: Double, last: Double) { ((lo / step).rounded(.up), (hi / step).rounded(.down)) }
        for wanted in [2...4, 5...5, 1...4] {
            for step in steps {
                let (first, last) = lines(step)
                if wanted.contains(Int(last - first) + 1) { return (stride(from: first, through: last, by: 1).map { $0 * step }, step) }
            }
        }
        return ([lo, hi], hi - lo)
    }

    /// The time axis' labels at `ticks`, placed by `place` (x and text); a label near an
    /// edge is anchored to it so that it is not cut off.
    static func timeAxis(_ ticks: [Double], place: (Double) -> (Double, String)) -> String {
        var svg = ""
        for t in ticks {
            let (x, text) = place(t)
            let anchor = x - left < 20 ? "start" : width - right - x < 20 ? "end" : "middle"
            svg += "<text class=\"axis\" x=\"\(SVG.num(x))\" y=\"\(Int(height - 6))\" text-anchor=\"\(anchor)\">\(text)</text>"
        }
        return svg
    }

    /// `v` with as many decimals as grid lines `step` apart need to read differently
    /// (an elevation between 34.0 and 34.2 m is not "34, 34, 34"), at most four.
    static func label(_ v: Double, step: Double) -> String {
        let decimals = step > 0 && step.isFinite ? min(4, max(0, Int((-log10(step) - 1e-9).rounded(.up)))) : 1
        let unit = pow(10, Double(-decimals))
        guard abs(v) < 1e15 else { return "\(v)" }   // 1e+19, not a label of 20 to 309 digits
        return String(format: "%.\(decimals)f", abs(v) < unit / 2 ? 0 : v)
    }
}
