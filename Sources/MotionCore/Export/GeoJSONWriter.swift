import Foundation

/// Writes a track as a GeoJSON Feature (RFC 7946): a `LineString` of `[lon, lat]` (or
/// `[lon, lat, altitude]` when every point has an altitude) with per-point properties:
/// `coordTimes` (ISO 8601 UTC, the convention of togeojson and others), `times` (epoch
/// seconds, exactly the rows' When), `speed`, `course`, `altitudeMSL`, `mode` (null where
/// unknown) and `segmentStarts` (index of each segment's first point; a new segment
/// starts after a gap of more than 10 s). A single point gives a `Point` geometry, as a
/// LineString needs two. A track with gaps is a `MultiLineString` (one line per segment,
/// never drawn across a gap); segments of a single point, which no line can hold, go into
/// a `MultiPoint` beside it in a `GeometryCollection`. Every point appears exactly once.
public enum GeoJSONWriter {
    struct Feature: Encodable {
        let type = "Feature"
        let geometry: Geometry
        let properties: Properties
    }
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
    struct Properties: Encodable {
        let name: String
        let creator: String
        let coordTimes: [String]
        let times: [Double]
        let altitudeMSL: [Double?]
        let speed: [Double?]
        let course: [Double?]
        let mode: [Int]
        let segmentStarts: [Int]
    }

    /// The GeoJSON text (UTF-8), or nil for an empty track.
    public static func document(_ track: LocationTrack, name: String, creator: String) throws -> [UInt8]? {
        let points = track.points
        guard !points.isEmpty else { return nil }
        let withAltitude = points.allSatisfy { $0.altitudeMSL.isFinite }
        let segments = track.segments.map { segment in
            segment.map { p in withAltitude ? [p.longitude, p.latitude, p.altitudeMSL] : [p.longitude, p.latitude] }
        }
        var starts: [Int] = []
        var index = 0
        for s in track.segments { starts.append(index); index += s.count }
        func finite(_ v: Double) -> Double? { v.isFinite ? v : nil }
        let feature = Feature(
            geometry: geometry(segments),
            properties: Properties(
                name: name, creator: creator, coordTimes: points.map { ExportText.utc($0.time) },
                times: points.map(\.time), altitudeMSL: points.map { finite($0.altitudeMSL) },
                speed: points.map { finite($0.speed) }, course: points.map { finite($0.course) },
                mode: points.map(\.mode), segmentStarts: starts))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return Array(try encoder.encode(feature)) + [0x0A]
    }
}
