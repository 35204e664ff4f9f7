import Foundation
import MotionAnalysis
import MotionCore

/// The GPS track as inline SVG: an equirectangular projection around the track's centre
/// (metres east and north; exact enough for a ride), a scale bar, a north arrow, the start
/// (green) and end (red).
enum SVGTrack {
    static let width = 400.0, height = 300.0, pad = 16.0

    /// Moves in `timeline` colour the track by activity; its stops are drawn as circles.
    static func render(_ segments: [[TrackPoint]], timeline: [TimelineEntry] = []) -> String? {
        let all = segments.joined()
        guard let first = all.first else { return nil }
        var minLat = first.latitude, maxLat = first.latitude, minLon = first.longitude, maxLon = first.longitude
        for p in all {
            minLat = min(minLat, p.latitude); maxLat = max(maxLat, p.latitude)
            minLon = min(minLon, p.longitude); maxLon = max(maxLon, p.longitude)
        }
        let lat0 = (minLat + maxLat) / 2, lon0 = (minLon + maxLon) / 2
        let r = 6_371_008.8, rad = Double.pi / 180
        let kx = r * rad * cos(lat0 * rad), ky = r * rad
        func metres(_ p: TrackPoint) -> (Double, Double) { ((p.longitude - lon0) * kx, (p.latitude - lat0) * ky) }
        let spanX = max((maxLon - minLon) * kx, 1), spanY = max((maxLat - minLat) * ky, 1)
        let scale = min((width - 2 * pad) / spanX, (height - 2 * pad) / spanY)
        func xy(_ p: TrackPoint) -> String {
            let (x, y) = metres(p)
            return SVG.num(width / 2 + x * scale) + " " + SVG.num(height / 2 - y * scale)
        }
        var svg = "<svg class=\"track\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"GPS track\">"
        svg += "<rect width=\"100%\" height=\"100%\" class=\"map-bg\"/>"
        let moves = timeline.filter { $0.type == .move }
        func colour(_ p: TrackPoint) -> String? {
            moves.first { p.time >= $0.start && p.time <= $0.end }.map { RecordingPage.activityColours[$0.activity ?? .unknown] ?? "#6e7781" }
        }
        for seg in segments where !seg.isEmpty {
            // Runs of points of one colour, each sharing its first point with the previous run.
            var runStart = 0
            for i in 1...seg.count {
                if i < seg.count && colour(seg[i]) == colour(seg[runStart]) { continue }
                let run = seg[runStart..<min(i + 1, seg.count)]
                let style = colour(seg[runStart]).map { " style=\"stroke:\($0)\"" } ?? ""
                svg += "<path class=\"move\"\(style) d=\"M" + run.map(xy).joined(separator: "L") + "\"/>"
                runStart = i
            }
        }
        for stop in timeline where stop.type == .stop {
            guard let lat = stop.lat, let lon = stop.lon else { continue }
            let p = TrackPoint(time: stop.start, latitude: lat, longitude: lon)
            let parts = xy(p).split(separator: " ")
            let radius = max(6, (stop.radiusM ?? 0) * scale)
            svg += "<circle class=\"stop\" r=\"\(SVG.num(radius))\" cx=\"\(parts[0])\" cy=\"\(parts[1])\"><title>stop, \(Text.duration(stop.duration))</title></circle>"
        }
        // Scale bar: the longest 1-2-5 length that fits a quarter of the width.
        let target = (width / 4) / scale
        let magnitude = pow(10, floor(log10(target)))
        let nice = [5.0, 2, 1].map { $0 * magnitude }.first { $0 <= target } ?? magnitude
        let barPixels = nice * scale
        let label = nice >= 1000 ? SVG.num(nice / 1000) + " km" : SVG.num(nice) + " m"
        let y = height - 12
        svg += "<g class=\"scale\"><path d=\"M12 \(SVG.num(y - 5))V\(SVG.num(y))H\(SVG.num(12 + barPixels))V\(SVG.num(y - 5))\"/>"
        svg += "<text x=\"12\" y=\"\(SVG.num(y - 8))\">\(label)</text></g>"
        svg += "<g class=\"north\" transform=\"translate(\(Int(width) - 22) 14)\"><path d=\"M0 0L7 20L0 15L-7 20Z\"/>"
        svg += "<text x=\"0\" y=\"33\" text-anchor=\"middle\">N</text></g>"
        if let s = segments.first?.first {
            svg += "<circle class=\"start\" r=\"6\" cx=\"\(xy(s).split(separator: " ")[0])\" cy=\"\(xy(s).split(separator: " ")[1])\"><title>start</title></circle>"
        }
        if let e = segments.last?.last {
            svg += "<circle class=\"end\" r=\"6\" cx=\"\(xy(e).split(separator: " ")[0])\" cy=\"\(xy(e).split(separator: " ")[1])\"><title>end</title></circle>"
        }
        return svg + "</svg>"
    }
}

/// Small helpers for writing SVG and HTML text.
enum SVG {
    /// A coordinate with at most one decimal (0 for one no drawing has: not finite, or
    /// beyond ±1e15).
    static func num(_ v: Double) -> String {
        guard v.isFinite, abs(v) < 1e15 else { return "0" }
        let r = (v * 10).rounded() / 10
        return r == r.rounded() ? String(Int(r)) : String(r)
    }
}
