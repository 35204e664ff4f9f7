import Foundation

/// The timeline as files: the Moves-style daily JSON (`export --format timeline`) and
/// GeoJSON (`--format timeline-geojson`). docs/ANALYSIS.md describes both.
public enum TimelineExport {
    // MARK: Moves-style daily storyline

    struct Day: Encodable {
        let date: String
        let segments: [Segment]
        let summary: [ActivitySummary]
        let lastUpdate: String
    }
    struct Segment: Encodable {
        let type: String            // place, move, off
        let startTime: String
        let endTime: String
        let place: Place?
        let activities: [MoveActivity]?
    }
    struct Place: Encodable {
        let type = "unknown"
        let location: Location
        let radius: Double?
    }
    struct Location: Encodable { let lat: Double; let lon: Double }
    struct MoveActivity: Encodable {
        let activity: String
        let group: String
        let manual = false
        let startTime: String
        let endTime: String
        let duration: Double
        let distance: Double?
        let trackPoints: [TrackPoint]
    }
    struct TrackPoint: Encodable { let lat: Double; let lon: Double; let time: String }
    struct ActivitySummary: Encodable {
        let activity: String
        let group: String
        let duration: Double
        let distance: Double
    }

    /// Moves' names: `transport` for a vehicle.
    static func movesName(_ a: Activity) -> String { a == .vehicle ? "transport" : a.rawValue }

    /// Moves' compact local time, `yyyyMMddTHHmmss±hhmm`.
    /// (The zone's sign is kept: west of Greenwich it is `-hhmm`.)
    static func movesTime(_ t: Double) -> String {
        let iso = TimeTextBridge.isoLocal(t)   // 2026-11-24T00:29:59-05:00, or …Z
        let clock = iso.prefix(19), zone = iso.dropFirst(19)
        return clock.filter { $0 != "-" && $0 != ":" } + zone.filter { $0 != ":" }
    }

    /// One storyline per local day (a segment crossing midnight is cut at midnight).
    public static func storyline(_ result: AnalysisResult) throws -> [UInt8] {
        var out: [UInt8] = []
        try storyline(result) { out += $0 }
        return out
    }

    /// The storyline handed to `sink` a day at a time: only one day's segments and track
    /// points are held (built whole, 14 days at 1 Hz took 1 GB). The bytes are those of
    /// the whole array encoded at once: each day is encoded alone and indented one level
    /// (not its empty lines), which is exact because JSON strings hold no raw line feed.
    /// (`StorylineWriter`; `export --format timeline` reads the fixes a second time instead
    /// of holding them.)
    public static func storyline(_ result: AnalysisResult, to sink: @escaping ([UInt8]) throws -> Void) throws {
        let writer = StorylineWriter(result.summary, sink: sink)
        for fix in result.fixes { writer.add(fix) }
        try writer.finish()
    }

    static var storylineEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// The local days of the storyline in order, and each one's entries (an entry crossing
    /// midnight is cut there, its distance shared by time; days wholly inside a gap are
    /// left out).
    static func storylineDays(_ summary: AnalysisSummary) -> (order: [String], entries: [String: [TimelineEntry]]) {
        var days: [String: [TimelineEntry]] = [:]
        var order: [String] = []
        for e in summary.timeline {
            var t = e.start
            while true {
                let day = LocalDay.date(t)
                // (A date LocalDay cannot bound keeps the rest of the entry whole, never drops it.)
                let bounds = LocalDay.bounds(day) ?? (start: t, end: e.end)
                var piece = e
                piece.start = max(e.start, bounds.start); piece.end = min(e.end, bounds.end)
                if let d = e.distanceM, e.duration > 0 { piece.distanceM = Text.round(d * piece.duration / e.duration, 1) }
                if days[day] == nil { order.append(day) }
                days[day, default: []].append(piece)
                if bounds.end >= e.end || bounds.end <= t { break }
                t = bounds.end
                // Whole local days inside a gap are left out: nothing was recorded on them
                // (a damaged When at the year 9999 after a ride made 2.9 million "off" days,
                // 714 MB written in 64 s; and holding them took 676 MB).
                if e.type == .gap, let last = LocalDay.bounds(LocalDay.date(e.end)) {
                    if last.start >= e.end { break }
                    t = max(t, last.start)
                }
            }
        }
        return (order, days)
    }

    /// The storyline's `Day` of `entries` (one local day's), with the track points of each
    /// move from `fixes` (time order, holding at least those of the day's moves).
    static func day(_ day: String, _ entries: [TimelineEntry], fixes: [Fix], lastUpdate: Double) -> Day {
        self.day(day, entries, lastUpdate: lastUpdate) { _, e in points(fixes, from: e.start, to: e.end).map(trackPoint) }
    }

    /// A move's track point: position and Moves' local time.
    static func trackPoint(_ fix: Fix) -> TrackPoint { TrackPoint(lat: fix.lat, lon: fix.lon, time: movesTime(fix.time)) }

    /// The `Day` of `entries`, the track points of the day's k-th move given by `track`.
    static func day(_ day: String, _ entries: [TimelineEntry], lastUpdate: Double,
                    track: (Int, TimelineEntry) -> [TrackPoint]) -> Day {
        var totals: [String: (Double, Double)] = [:]
        var moveIndex = 0
        let segments = entries.map { e -> Segment in
            switch e.type {
            case .stop:
                let place = e.lat.flatMap { lat in e.lon.map { Place(location: Location(lat: lat, lon: $0), radius: e.radiusM) } }
                return Segment(type: "place", startTime: movesTime(e.start), endTime: movesTime(e.end), place: place, activities: nil)
            case .gap:
                return Segment(type: "off", startTime: movesTime(e.start), endTime: movesTime(e.end), place: nil, activities: nil)
            case .move:
                let name = movesName(e.activity ?? .unknown)
                let distance = e.distanceM ?? 0
                var total = totals[name] ?? (0, 0)
                total.0 += e.duration; total.1 += distance
                totals[name] = total
                let points = track(moveIndex, e)
                moveIndex += 1
                let activity = MoveActivity(activity: name, group: name, startTime: movesTime(e.start), endTime: movesTime(e.end),
                                            duration: e.duration.rounded(), distance: e.distanceM, trackPoints: points)
                return Segment(type: "move", startTime: movesTime(e.start), endTime: movesTime(e.end), place: nil, activities: [activity])
            }
        }
        let summary = totals.keys.sorted().map { k in
            ActivitySummary(activity: k, group: k, duration: (totals[k]?.0 ?? 0).rounded(),
                            distance: Text.round(totals[k]?.1 ?? 0, 1))
        }
        return Day(date: day.replacingOccurrences(of: "-", with: ""), segments: segments, summary: summary,
                   lastUpdate: movesTime(lastUpdate))
    }

    /// The fixes with time in `[from, to]`.
    static func points(_ fixes: [Fix], from: Double, to: Double) -> ArraySlice<Fix> {
        var lo = 0, hi = fixes.count
        while lo < hi { let m = (lo + hi) / 2; if fixes[m].time < from { lo = m + 1 } else { hi = m } }
        var end = lo
        while end < fixes.count && fixes[end].time <= to { end += 1 }
        return fixes[lo..<end]
    }

    // MARK: GeoJSON

    /// The whole collection, as `TimelineGeoJSONWriter` writes it a feature at a time (tests
    /// encode it at once to compare).
    struct FeatureCollection: Encodable {
        let type = "FeatureCollection"
        let features: [Feature]
    }
    struct Feature: Encodable {
        let type = "Feature"
        let geometry: Geometry?
        let properties: Properties
        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(type, forKey: .type)
            try c.encode(geometry, forKey: .geometry)   // null for gaps (RFC 7946 §3.2)
            try c.encode(properties, forKey: .properties)
        }
        enum CodingKeys: String, CodingKey { case type, geometry, properties }
    }
    struct Geometry: Encodable {
        let type: String
        let coordinates: Coordinates
    }
    enum Coordinates: Encodable {
        case point([Double]), line([[Double]])
        func encode(to encoder: Encoder) throws {
            var c = encoder.singleValueContainer()
            switch self {
            case .point(let p): try c.encode(p)
            case .line(let l): try c.encode(l)
            }
        }
    }
    struct Properties: Encodable {
        let kind: String
        let start: Double
        let end: Double
        let startTime: String
        let endTime: String
        let durationS: Double
        let activity: String?
        let distanceM: Double?
        let meanSpeedMps: Double?
        let radiusM: Double?
        enum CodingKeys: String, CodingKey {
            case kind = "type", start, end, startTime = "start_time", endTime = "end_time", durationS = "duration_s"
            case activity, distanceM = "distance_m", meanSpeedMps = "mean_speed_mps", radiusM = "radius_m"
        }
    }

    /// The properties of entry `e`'s feature.
    static func properties(_ e: TimelineEntry) -> Properties {
        Properties(kind: e.type.rawValue, start: e.start, end: e.end,
                   startTime: TimeTextBridge.isoUTC(e.start), endTime: TimeTextBridge.isoUTC(e.end),
                   durationS: e.duration.rounded(), activity: e.activity?.rawValue, distanceM: e.distanceM,
                   meanSpeedMps: e.meanSpeedMps, radiusM: e.radiusM)
    }

    /// Stops as Points, moves as LineStrings (a Point when a move has a single fix) with
    /// their activity, gaps as features without geometry (`TimelineGeoJSONWriter`).
    public static func geoJSON(_ result: AnalysisResult) throws -> [UInt8] {
        var out: [UInt8] = []
        let writer = TimelineGeoJSONWriter(result.summary) { out += $0 }
        for fix in result.fixes { writer.add(fix) }
        try writer.finish()
        return out
    }

    static let geoJSONFormatting: JSONEncoder.OutputFormatting = [.sortedKeys, .withoutEscapingSlashes]

    static var geoJSONEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = geoJSONFormatting
        return encoder
    }

    /// The feature of entry `e`, a move's line drawn through `fixes` (time order, holding
    /// at least the move's).
    static func feature(_ e: TimelineEntry, fixes: [Fix]) -> Feature {
        let props = properties(e)
        switch e.type {
        case .stop:
            guard let lat = e.lat, let lon = e.lon else { return Feature(geometry: nil, properties: props) }
            return Feature(geometry: Geometry(type: "Point", coordinates: .point([lon, lat])), properties: props)
        case .move:
            let line = points(fixes, from: e.start, to: e.end).map { [$0.lon, $0.lat] }
            if line.count >= 2 { return Feature(geometry: Geometry(type: "LineString", coordinates: .line(line)), properties: props) }
            if let p = line.first { return Feature(geometry: Geometry(type: "Point", coordinates: .point(p)), properties: props) }
            return Feature(geometry: nil, properties: props)
        case .gap:
            return Feature(geometry: nil, properties: props)
        }
    }
}
