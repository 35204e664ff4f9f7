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
/// user similarity based on location history"), fix by fix: an anchor fix; the first later
/// fix at least `radius` away closes the window; if the window lasted at least `minSeconds`
/// (anchor to the closing fix) the fixes before the closing one are a stay point. A gap
/// between consecutive fixes longer than `maxGap`, or a jump, restarts the anchor. The
/// centre is the mean position of the stay point's fixes; its radius the farthest of them
/// from it.
///
/// The fixes after the last departure are a stay point too when they lasted `minSeconds`
/// (trackintel's `include_last=True`; `AnalysisOptions.finalStop`): without it, 30 minutes
/// waiting at the end of a recording were part of the last move ("walking 1 h 20 min").
/// The same holds before a break (a long loss or a jump), the end of what was seen there.
///
/// Fixes are given by their index in the track: `fixes[k - base]` is fix `k`, and must
/// hold every fix from the anchor on.
struct StayPoints {
    let options: AnalysisOptions
    /// The first fix of the window being looked at.
    private(set) var anchor = 0

    init(options: AnalysisOptions) { self.options = options }

    /// Fix `current` follows fix `current - 1`: the stay point it closes, if any.
    mutating func next(_ current: Int, in fixes: [Fix], base: Int) -> StayPoint? {
        let fix = fixes[current - base]
        if fix.time - fixes[current - 1 - base].time > options.stopMaxGapSeconds || fix.jumped {
            // A break (a loss longer than `maxGap`, or a jump): the window restarts after
            // it, and the fixes before it are a stay point when they stayed a stop's time, as
            // at the end of the track. Dropped, an hour sitting still before GPS was lost
            // indoors was "walking, 4.0 km/h" (the jitter of a receiver that did not move).
            defer { anchor = current }
            return final(current - 1, in: fixes, base: base)
        }
        let first = fixes[anchor - base]
        guard first.distance(to: fix) >= options.stopRadiusM else { return nil }
        defer { anchor = current }
        guard fix.time - first.time >= options.stopMinSeconds else { return nil }
        return Self.make(fixes, base: base, anchor, current)
    }

    /// At the end of the track, `last` its last fix: the stay point of the fixes from the
    /// anchor on (nothing left them), if there is one.
    func final(_ last: Int, in fixes: [Fix], base: Int) -> StayPoint? {
        guard options.finalStop, anchor < last,
              fixes[last - base].time - fixes[anchor - base].time >= options.stopMinSeconds else { return nil }
        return Self.make(fixes, base: base, anchor, last, throughEnd: true)
    }

    /// The stay point of fixes `first..<endIndex`, ending at fix `endIndex`'s time (the fix
    /// that left); `throughEnd`: of fixes `first...endIndex` (the last stay, nothing left).
    static func make(_ fixes: [Fix], base: Int, _ first: Int, _ endIndex: Int, throughEnd: Bool = false) -> StayPoint {
        let slice = fixes[(first - base)..<(throughEnd ? endIndex + 1 : endIndex) - base]
        let n = Double(slice.count)
        let lat = slice.reduce(0) { $0 + $1.lat } / n
        let lon = slice.reduce(0) { $0 + $1.lon } / n
        let radius = slice.map { Geo.distance(lat, lon, $0.lat, $0.lon) }.max() ?? 0
        return StayPoint(first: first, endIndex: endIndex, start: fixes[first - base].time, end: fixes[endIndex - base].time,
                         lat: lat, lon: lon, radius: radius)
    }
}
