import Foundation

/// Writes a track as a GeoJSON Feature (RFC 7946): a `LineString` of `[lon, lat]` (or
/// `[lon, lat, altitude]` when every point has an altitude) with per-point properties:
/// `coordTimes` (ISO 8601 UTC, the convention of togeojson and others), `times` (epoch
/// seconds, exactly the rows' When), `speed`, `course`, `altitudeMSL`, `mode` (null where
/// unknown) and `segmentStarts` (index of each segment's first point; a new segment
/// starts after a gap, `LocationTrack.gapSeconds`). A single point gives a `Point` geometry, as a
/// LineString needs two. A track with gaps is a `MultiLineString` (one line per segment,
/// never drawn across a gap); segments of a single point, which no line can hold, go into
/// a `MultiPoint` beside it in a `GeometryCollection`. Every point appears exactly once.
public enum GeoJSONWriter {
    struct Geometry: Encodable {
        let type: String
        var coordinates: Coordinates? = nil
        var geometries: [Geometry]? = nil
    }
    enum Coordinates: Encodable {
        case point([Double]), line([[Double]]), lines([[[Double]]])
        func encode(to encoder: Encoder) throws {
            var c = encoder.singleValueContainer()
            switch self {
            case .point(let p): try c.encode(p)
            case .line(let l): try c.encode(l)
            case .lines(let l): try c.encode(l)
            }
        }
    }

    /// Point, LineString, MultiLineString, or a GeometryCollection of a MultiLineString and
    /// the lone points (see the type's comment).
    static func geometry(_ segments: [[[Double]]]) -> Geometry {
        if segments.count == 1 {
            let only = segments[0]
            return only.count == 1 ? Geometry(type: "Point", coordinates: .point(only[0]))
                                   : Geometry(type: "LineString", coordinates: .line(only))
        }
        let lines = segments.filter { $0.count >= 2 }, lone = segments.filter { $0.count == 1 }.map { $0[0] }
        let multi = Geometry(type: "MultiLineString", coordinates: .lines(lines))
        if lone.isEmpty { return multi }
        let points = Geometry(type: "MultiPoint", coordinates: .line(lone))
        return lines.isEmpty ? points : Geometry(type: "GeometryCollection", geometries: [multi, points])
    }
    /// The GeoJSON text (UTF-8), or nil for an empty track.
    public static func document(_ track: LocationTrack, name: String, creator: String) throws -> [UInt8]? {
        var out: [UInt8] = []
        guard try write(track, name: name, creator: creator, to: { out += $0 }) else { return nil }
        return out
    }

    /// Writes the document to `sink` in pieces (false, writing nothing, for an empty
    /// track): the geometry, then each per-point property, each encoded on its own, so that
    /// one of them is held at a time and not the whole Feature (690 bytes per point, built
    /// whole). The bytes are those of the Feature encoded at once with sorted keys.
    @discardableResult
    public static func write(_ track: LocationTrack, name: String, creator: String,
                             to sink: ([UInt8]) throws -> Void) throws -> Bool {
        let points = track.points
        guard !points.isEmpty else { return false }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        func piece(_ text: String) throws { try sink(Array(text.utf8)) }
        func value<T: Encodable>(_ key: String, _ v: T, last: Bool = false) throws {
            try piece("\"\(key)\":")
            try sink(Array(try encoder.encode(v)))
            if !last { try piece(",") }
        }
        let withAltitude = points.allSatisfy { $0.altitudeMSL.isFinite }
        try piece("{")
        try value("geometry", geometry(track.segments.map { segment in
            segment.map { p in withAltitude ? [p.longitude, p.latitude, p.altitudeMSL] : [p.longitude, p.latitude] }
        }))
        func finite(_ v: Double) -> Double? { v.isFinite ? v : nil }
        // The properties, in the order of their sorted keys.
        try piece("\"properties\":{")
        try value("altitudeMSL", points.map { finite($0.altitudeMSL) })
        try value("coordTimes", points.map { ExportText.utc($0.time) })
        try value("course", points.map { finite($0.course) })
        try value("creator", creator)
        try value("mode", points.map(\.mode))
        try value("name", name)
        try value("segmentStarts", track.segmentRanges.map(\.lowerBound))
        try value("speed", points.map { finite($0.speed) })
        try value("times", points.map(\.time), last: true)
        try piece("},\"type\":\"Feature\"}\n")
        return true
    }
}
