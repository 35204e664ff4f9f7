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
    /// the lone points (see the type's comment), built whole: the reference that
    /// `writeGeometry` writes a point at a time (tests compare the two).
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
    public static func document(_ track: some TrackPointSource, name: String, creator: String) throws -> [UInt8]? {
        var out: [UInt8] = []
        guard try write(track, name: name, creator: creator, to: { out += $0 }) else { return nil }
        return out
    }

    /// Writes the document to `sink` in pieces of about 64 KiB (false, writing nothing, for
    /// an empty track). The geometry and each per-point property are an array over every
    /// point, so the track is walked once for each of them (seven times) and its values
    /// encoded a few thousand at a time: memory holds neither the Feature nor the track
    /// (a `StreamedTrack` reads its files again each time). The bytes are those of the
    /// Feature encoded at once with sorted keys (`geometry(_:)`, `ExportTests`).
    @discardableResult
    public static func write(_ track: some TrackPointSource, name: String, creator: String,
                             to sink: ([UInt8]) throws -> Void) throws -> Bool {
        guard track.count > 0 else { return false }
        try withoutActuallyEscaping(sink) { sink in try write(track, name: name, creator: creator, to: JSONPieces(sink)) }
        return true
    }

    private static func write(_ track: some TrackPointSource, name: String, creator: String, to out: JSONPieces) throws {
        try out.text("{\"geometry\":")
        try writeGeometry(track, out)
        try out.text(",")
        func finite(_ v: Double) -> Double? { v.isFinite ? v : nil }
        func property<T: Encodable>(_ key: String, last: Bool = false, _ value: (TrackPoint) -> T) throws {
            try out.text("\"\(key)\":")
            let array = try JSONArrayPieces<T>(out)
            try track.forEachPoint { try array.append(value($0)) }
            try array.close()
            if !last { try out.text(",") }
        }
        func small<T: Encodable>(_ key: String, _ value: T) throws {
            try out.text("\"\(key)\":"); try out.value(value); try out.text(",")
        }
        // The properties, in the order of their sorted keys.
        try out.text("\"properties\":{")
        try property("altitudeMSL") { finite($0.altitudeMSL) }
        try property("coordTimes") { ExportText.utc($0.time) }
        try property("course") { finite($0.course) }
        try small("creator", creator)
        try property("mode") { $0.mode }
        try small("name", name)
        try small("segmentStarts", track.segmentStarts)
        try property("speed") { finite($0.speed) }
        try property("times", last: true) { $0.time }
        try out.text("},\"type\":\"Feature\"}\n")
        try out.flush()
    }

    /// The geometry of `geometry(_:)`, written as the track is walked once; the lone points
    /// of a GeometryCollection (one per segment of a single fix) are held until the lines
    /// are written.
    static func writeGeometry(_ track: some TrackPointSource, _ out: JSONPieces) throws {
        let withAltitude = track.allHaveAltitude
        func coordinates(_ p: TrackPoint) -> [Double] {
            withAltitude ? [p.longitude, p.latitude, p.altitudeMSL] : [p.longitude, p.latitude]
        }
        let starts = track.segmentStarts, count = track.count
        // Segment sizes, in order.
        let sizes = zip(starts, starts.dropFirst() + [count]).map { $1 - $0 }
        if sizes.count == 1 {
            if count == 1 {
                var only: [Double] = []
                try track.forEachPoint { only = coordinates($0) }
                try out.text("{\"coordinates\":"); try out.value(only); try out.text(",\"type\":\"Point\"}")
                return
            }
            try out.text("{\"coordinates\":")
            let line = try JSONArrayPieces<[Double]>(out)
            try track.forEachPoint { try line.append(coordinates($0)) }
            try line.close()
            try out.text(",\"type\":\"LineString\"}")
            return
        }
        let lines = sizes.filter { $0 >= 2 }.count, loneCount = sizes.count - lines
        if lines > 0 && loneCount > 0 { try out.text("{\"geometries\":[") }
        var lone: [[Double]] = []
        if lines > 0 {
            try out.text("{\"coordinates\":[")
            var segment = 0, left = sizes[0], firstLine = true
            var line: JSONArrayPieces<[Double]>?
            try track.forEachPoint { p in
                while left == 0 { segment += 1; left = sizes[segment] }
                left -= 1
                guard sizes[segment] >= 2 else { lone.append(coordinates(p)); return }
                if line == nil {
                    if !firstLine { try out.text(",") }
                    firstLine = false
                    line = try JSONArrayPieces<[Double]>(out)
                }
                try line?.append(coordinates(p))
                if left == 0 { try line?.close(); line = nil }
            }
            try out.text("],\"type\":\"MultiLineString\"}")
        } else {
            try track.forEachPoint { lone.append(coordinates($0)) }
        }
        guard loneCount > 0 else { return }
        if lines > 0 { try out.text(",") }
        try out.text("{\"coordinates\":"); try out.value(lone); try out.text(",\"type\":\"MultiPoint\"}")
        if lines > 0 { try out.text("],\"type\":\"GeometryCollection\"}") }
    }
}

/// Bytes for a sink, passed on in pieces of about 64 KiB; values encoded as `encoder`
/// (by default `JSONEncoder` with sorted keys) encodes them.
public final class JSONPieces {
    private let sink: ([UInt8]) throws -> Void
    private var buffer: [UInt8] = []
    let encoder: JSONEncoder

    public init(_ sink: @escaping ([UInt8]) throws -> Void, outputFormatting: JSONEncoder.OutputFormatting = [.sortedKeys]) {
        self.sink = sink
        encoder = JSONEncoder()
        encoder.outputFormatting = outputFormatting
    }

    public func text(_ text: String) throws { try bytes(text.utf8) }

    public func value<T: Encodable>(_ value: T) throws { try bytes(try encoder.encode(value)) }

    public func bytes(_ bytes: some Collection<UInt8>) throws {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { try flush() }
    }

    /// Hands what is buffered to the sink.
    public func flush() throws {
        guard !buffer.isEmpty else { return }
        try sink(buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}

/// A JSON array written a few thousand elements at a time: each batch encoded as an array,
/// its brackets dropped, batches joined by commas; the bytes are those of the whole array
/// encoded at once.
public final class JSONArrayPieces<Element: Encodable> {
    static var batch: Int { 4096 }
    private let out: JSONPieces
    private var pending: [Element] = []
    private var wroteAny = false

    public init(_ out: JSONPieces) throws {
        self.out = out
        try out.text("[")
    }

    public func append(_ element: Element) throws {
        pending.append(element)
        if pending.count >= Self.batch { try encodePending() }
    }

    public func close() throws {
        try encodePending()
        try out.text("]")
    }

    private func encodePending() throws {
        guard !pending.isEmpty else { return }
        let encoded = try out.encoder.encode(pending)
        if wroteAny { try out.text(",") }
        try out.bytes(encoded.dropFirst().dropLast())
        wroteAny = true
        pending.removeAll(keepingCapacity: true)
    }
}
