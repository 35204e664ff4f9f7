import Foundation

/// A stay point: fixes `first..<endIndex` stayed within the radius of fix `first`.
struct StayPoint: Equatable {
    var first: Int
    /// Index of the first fix that left (the stop ends at its time, as in trackintel), or of
    /// the last fix when the stop lasted to the end.
    var endIndex: Int
    var start: Double
    var end: Double
    var lat: Double
    var lon: Double
    var radius: Double
}

/// Stay-point detection with trackintel's sliding method (after Li et al. 2008, "Mining
/// user similarity based on location history"): an anchor fix; the first later fix at
/// least `radius` away closes the window; if the window lasted at least `minSeconds`
/// (anchor to the closing fix) the fixes before the closing one are a stay point. A gap
/// between consecutive fixes longer than `maxGap` restarts the anchor. The centre is the
/// mean position of the stay point's fixes; its radius the farthest of them from it.
///
/// The fixes after the last departure are a stay point too when they lasted `minSeconds`
/// (trackintel's `include_last=True`; `AnalysisOptions.finalStop`): without it, 30 minutes
/// waiting at the end of a recording were part of the last move ("walking 1 h 20 min").
enum StayPoints {
    static func detect(_ fixes: [Fix], options: AnalysisOptions) -> [StayPoint] {
        guard fixes.count >= 2 else { return [] }
        var result: [StayPoint] = []
        var start = 0
        for current in 1..<fixes.count {
            if fixes[current].time - fixes[current - 1].time > options.stopMaxGapSeconds || fixes[current].jumped {
                start = current
                continue
            }
            if fixes[start].distance(to: fixes[current]) >= options.stopRadiusM {
                if fixes[current].time - fixes[start].time >= options.stopMinSeconds {
                    result.append(make(fixes, start, current))
                }
                start = current
            }
        }
        // Every fix from the anchor on stayed within the radius of it: nothing left.
        let last = fixes.count - 1
        if options.finalStop, start < last, fixes[last].time - fixes[start].time >= options.stopMinSeconds {
            result.append(make(fixes, start, last, throughEnd: true))
        }
        return result
    }

    /// The stay point of fixes `first..<endIndex`, ending at fix `endIndex`'s time (the fix
    /// that left); `throughEnd`: of fixes `first...endIndex` (the last stay, nothing left).
    static func make(_ fixes: [Fix], _ first: Int, _ endIndex: Int, throughEnd: Bool = false) -> StayPoint {
        let slice = fixes[first..<(throughEnd ? endIndex + 1 : endIndex)]
        let n = Double(slice.count)
        let lat = slice.reduce(0) { $0 + $1.lat } / n
        let lon = slice.reduce(0) { $0 + $1.lon } / n
        let radius = slice.map { Geo.distance(lat, lon, $0.lat, $0.lon) }.max() ?? 0
        return StayPoint(first: first, endIndex: endIndex, start: fixes[first].time, end: fixes[endIndex].time,
                         lat: lat, lon: lon, radius: radius)
    }
}
