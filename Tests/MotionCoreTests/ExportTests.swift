import Foundation
import MotionCore
import Testing
import MotionTestSupport

/// GPX and GeoJSON export of `L` rows, read back by independent parsers (Debian's
/// python3-gpxpy for GPX, Foundation's JSONSerialization for GeoJSON).
struct ExportTests {
    /// L rows as a recorder writes them: fractional fix times (5 Hz), a 2-D fix without
    /// altitude, a gap of 31.2 s (new segment), a gap of exactly 30 s (same segment), tiny
    /// and negative coordinates that Swift prints in exponent form.
    static let csv = """
        Source, Label, When, X, Y, Z, UA_X, UA_Y, UA_Z, Pitch, Roll, Yaw
        A,W,1584538099.6,0.0,0.0,-1.0
        L,W,1584538099.6,41.57496591,-93.750571901,285.4,0.02,261.35,nan,0.412,1.1,3
        L,W,1584538099.8,41.574965907,-93.750571904,285.4,0.021,nan,0.0,0.412,1.1,3
        L,W,1584538100.0,41.574953528,-93.750575438,nan,0.5,12.5,nan,3.2,nan,2
        L,W,1584538131.2,1e-05,-1.5e-07,-12.25,0.0,0.0,0.0,0.4,1.1,3
        L,W,1584538161.2,-33.8688197,151.2092955,58.0,1.25,359.99,-0.1,0.4,1.1,3
        L,W,1584538162.0,-33.86882,151.2093,58.5,1.5,0.0,0.2,0.4,1.1,3

        """

    static func track() throws -> (LocationTrack, [Row]) {
        let path = NSTemporaryDirectory() + "motionlog-export-\(UUID().uuidString).csv"
        try csv.write(toFile: path, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (rows, problems) = try RecordingReader(path: path).readAll()
        #expect(problems.filter { $0.severity == .error }.isEmpty)
        let location = rows.filter { $0.source == .location }
        return (LocationTrack(points: location.compactMap { TrackPoint(row: $0) }), location)
    }

    @Test func segmentsSplitAfterGapsOfMoreThanThirtySeconds() throws {
        let (track, rows) = try Self.track()
        #expect(track.segments.map(\.count) == [3, 3])
        #expect(track.points.map(\.time) == rows.map(\.when))
        let unsorted = LocationTrack(points: [TrackPoint(time: 70, latitude: 1, longitude: 1),
                                              TrackPoint(time: 10, latitude: 2, longitude: 2),
                                              TrackPoint(time: 40, latitude: 3, longitude: 3),
                                              TrackPoint(time: 70.5, latitude: 4, longitude: 4)])
        #expect(unsorted.points.map(\.latitude) == [2, 3, 1, 4])
        #expect(unsorted.segments.count == 1)  // gaps of exactly 30 s do not split
        #expect(LocationTrack(points: []).isEmpty)
    }

    /// A logger saving a fix every 15 s (a Garmin's smart recording, a phone app) is one
    /// line, broken only where it went more than three of its intervals without a fix: with
    /// a fixed 10 s every fix was a segment of its own.
    @Test func aSparseLoggersTrackSplitsOnlyAtItsOwnGaps() throws {
        var times = (0..<20).map { Double($0) * 15 }
        times += (0..<20).map { 285 + 40 + Double($0) * 15 }        // 40 s: less than three intervals
        times += (0..<20).map { 610 + 46 + Double($0) * 15 }        // 46 s: more than three
        let track = LocationTrack(points: times.map { TrackPoint(time: $0, latitude: 1, longitude: 1) })
        #expect(track.segments.map(\.count) == [40, 20], "\(track.segments.map(\.count))")
        #expect(LocationTrack.gapSeconds(medianInterval: 1) == 30 && LocationTrack.gapSeconds(medianInterval: 15) == 45)
    }

    @Test(arguments: [
        (1e-05, "0.00001"), (-1.5e-07, "-0.00000015"), (1e+16, "10000000000000000"),
        (44.068843333, "44.068843333"), (3.0, "3"), (-121.314191667, "-121.314191667"),
        (1.2345e-10, "0.00000000012345"), (6.02e+23, "602000000000000000000000"),
    ])
    func decimalsAreNeverInExponentForm(value: Double, text: String) {
        #expect(ExportText.decimal(value) == text)
        #expect(Double(text) == value)
    }

    @Test func decimalsReadBackToTheSameDouble() {
        var rng = SplitMix(state: 7)
        for _ in 0..<5000 {
            let bits = rng.next()
            let value = Double(bitPattern: bits)
            guard value.isFinite else { continue }
            let text = ExportText.decimal(value) ?? "?"
            #expect(!text.contains("e") && Double(text) == value, "\(value) → \(text)")
        }
        #expect(ExportText.decimal(.nan) == nil)
    }

    @Test func utcTimesCarryTheFixTimeDigits() {
        #expect(ExportText.utc(1_584_538_099.6) == "2020-03-18T13:28:19.6Z")
        #expect(ExportText.utc(2_048_272_000) == "2034-11-27T20:26:40Z")
        #expect(ExportText.utc(1_700_000_000.123) == "2023-11-14T22:13:20.123Z")
        #expect(ExportText.utc(1_700_000_000.9999999) == "2023-11-14T22:13:21Z")  // rounded to µs
    }

    @Test func gpxReadsBackWithGpxpyPointForPoint() throws {
        let (track, rows) = try Self.track()
        let gpx = try GPXWriter.document(track, name: "ride <1> & \"more\"", creator: "motionlog test")
        let parsed = try Self.gpxpy(gpx)
        #expect(parsed.name == "ride <1> & \"more\"")
        #expect(parsed.segments.map(\.count) == [3, 3])
        let points = parsed.segments.flatMap { $0 }
        #expect(points.count == rows.count)
        for (p, row) in zip(points, rows) {
            #expect(p.lat == row[0] && p.lon == row[1], "\(p) vs \(RowEncoder.line(row))")
            #expect(p.time == row.when, "\(p) vs \(RowEncoder.line(row))")
            if row[2].isFinite { #expect(p.ele == row[2]) } else { #expect(p.ele == nil) }
        }
    }

    /// A GeoJSON Feature as Foundation's JSONDecoder reads it (exact numbers).
    struct FeatureJSON: Decodable {
        /// LineString or MultiLineString; `coordinates` holds every position in order and
        /// `lines` the position count of each line.
        struct Geometry: Decodable {
            var type: String; var coordinates: [[Double]]; var lines: [Int]
            enum Keys: String, CodingKey { case type, coordinates }
            init(from decoder: Decoder) throws {
                let c = try decoder.container(keyedBy: Keys.self)
                type = try c.decode(String.self, forKey: .type)
                if let multi = try? c.decode([[[Double]]].self, forKey: .coordinates) {
                    coordinates = multi.flatMap { $0 }; lines = multi.map(\.count)
                } else {
                    coordinates = try c.decode([[Double]].self, forKey: .coordinates); lines = [coordinates.count]
                }
            }
        }
        struct Properties: Decodable {
            var times: [Double]; var coordTimes: [String]; var altitudeMSL: [Double?]; var speed: [Double?]
            var course: [Double?]; var mode: [Int]; var segmentStarts: [Int]
        }
        var type: String
        var geometry: Geometry
        var properties: Properties
    }

    @Test func geoJSONReadsBackWithAJSONParserPointForPoint() throws {
        let (track, rows) = try Self.track()
        let bytes = try #require(try GeoJSONWriter.document(track, name: "ride", creator: "motionlog test"))
        #expect((try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])?["type"] as? String == "Feature")
        let f = try JSONDecoder().decode(FeatureJSON.self, from: Data(bytes))
        // Two segments: a MultiLineString, never a line drawn across the gap.
        #expect(f.type == "Feature" && f.geometry.type == "MultiLineString")
        #expect(f.properties.segmentStarts == [0, 3])
        #expect(f.geometry.lines == [3, rows.count - 3])
        #expect(f.geometry.coordinates.count == rows.count && f.properties.times.count == rows.count)
        for (i, row) in rows.enumerated() {
            // [lon, lat]: a position without altitude, because not every point has one.
            #expect(f.geometry.coordinates[i] == [row[1], row[0]])
            #expect(f.properties.times[i] == row.when)
            #expect(f.properties.coordTimes[i] == ExportText.utc(row.when))
            #expect(f.properties.altitudeMSL[i] == (row[2].isFinite ? row[2] : nil))
            #expect(f.properties.speed[i] == (row[3].isFinite ? row[3] : nil))
            #expect(f.properties.course[i] == (row[4].isFinite ? row[4] : nil))
            #expect(f.properties.mode[i] == Int(row[8]))
        }
    }

    @Test func geoJSONCarriesAltitudeInPositionsWhenEveryPointHasOne() throws {
        let track = LocationTrack(points: [TrackPoint(time: 1, latitude: 52.5, longitude: 13.4, altitudeMSL: 34),
                                           TrackPoint(time: 2, latitude: 52.6, longitude: 13.5, altitudeMSL: 35.5)])
        let bytes = try #require(try GeoJSONWriter.document(track, name: "x", creator: "y"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        let geometry = try #require(object["geometry"] as? [String: Any])
        #expect((geometry["coordinates"] as? [[NSNumber]])?.map { $0.map(\.doubleValue) } == [[13.4, 52.5, 34], [13.5, 52.6, 35.5]])
        let single = LocationTrack(points: [TrackPoint(time: 1, latitude: 52.5, longitude: 13.4)])
        let oneBytes = try #require(try GeoJSONWriter.document(single, name: "x", creator: "y"))
        let one = try #require(try JSONSerialization.jsonObject(with: Data(oneBytes)) as? [String: Any])
        #expect((one["geometry"] as? [String: Any])?["type"] as? String == "Point")
        #expect(try GeoJSONWriter.document(LocationTrack(points: []), name: "x", creator: "y") == nil)
    }

    // MARK: gpxpy

    struct ParsedGPX {
        struct Point { var lat: Double; var lon: Double; var ele: Double?; var time: Double }
        var name: String?
        var segments: [[Point]]
    }

    /// Parses GPX text with Debian's python3-gpxpy (an independent parser) and returns what it read.
    static func gpxpy(_ gpx: String) throws -> ParsedGPX {
        let python = "/usr/bin/python3"
        let path = NSTemporaryDirectory() + "motionlog-export-\(UUID().uuidString).gpx"
        try gpx.write(toFile: path, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let script = """
            import json, sys, gpxpy
            g = gpxpy.parse(open(sys.argv[1], encoding="utf-8"))
            out = {"name": g.tracks[0].name if g.tracks else None, "segments": []}
            for t in g.tracks:
                for s in t.segments:
                    out["segments"].append([[p.latitude, p.longitude, p.elevation, p.time.timestamp()] for p in s.points])
            print(json.dumps(out))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", script, path]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        do { try process.run() } catch {
            throw ExportTestError("cannot run \(python): \(error) — install python3-gpxpy (sudo make deps)")
        }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ExportTestError("gpxpy could not read the GPX (is python3-gpxpy installed? sudo make deps): \(errors)")
        }
        struct Output: Decodable { var name: String?; var segments: [[[Double?]]] }
        let json = try JSONDecoder().decode(Output.self, from: data)
        return ParsedGPX(name: json.name, segments: json.segments.map { seg in
            seg.map { p in
                ParsedGPX.Point(lat: p[0] ?? .nan, lon: p[1] ?? .nan, ele: p[2], time: p[3] ?? .nan)
            }
        })
    }
}

struct ExportTestError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}
