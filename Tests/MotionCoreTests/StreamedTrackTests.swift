import Foundation
@testable import MotionCore
import Testing

/// GPX and GeoJSON of a track read again from its files (`TrackScan`, `StreamedTrack`) are
/// the bytes of the same track held whole (`LocationTrack`), and the GeoJSON written a piece
/// at a time is the Feature encoded at once.
@Suite struct StreamedTrackTests {
    /// A folder of recordings made of the given points, one file per list.
    final class Files {
        let folder = NSTemporaryDirectory() + "motionlog-streamed-\(UUID().uuidString)"
        var inputs: [TrackInput] = []

        init(_ files: [[TrackPoint]], epochOffset: Double = 0) throws {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for (i, points) in files.enumerated() {
                let path = folder + "/part\(i).csv"
                try Self.csv(points, minus: epochOffset).write(toFile: path, atomically: false, encoding: .utf8)
                inputs.append(TrackInput(path: path, epochOffset: epochOffset))
            }
        }

        deinit { try? FileManager.default.removeItem(atPath: folder) }

        /// The L rows of `points` (an A row between them, as a recorder's ticks are).
        static func csv(_ points: [TrackPoint], minus offset: Double = 0) -> String {
            var text = "Source, Label, When, X, Y, Z, UA_X, UA_Y, UA_Z, Pitch, Roll, Yaw\n"
            for p in points {
                text += "A,W,\(p.time - offset),0.0,0.0,-1.0\n"
                text += "L,W,\(p.time - offset),\(p.latitude),\(p.longitude),\(p.altitudeMSL),\(p.speed),\(p.course),nan,3.5,6.0,\(p.mode)\n"
            }
            return text
        }
    }

    /// Points from `start`, `step` seconds apart, moving north-east, altitude known.
    static func run(_ count: Int, from start: Double, step: Double = 1, altitude: Bool = true) -> [TrackPoint] {
        (0..<count).map { i in
            let t = start + Double(i) * step
            return TrackPoint(time: t, latitude: 48.1 + Double(i) * 1.3e-5, longitude: 11.5 + Double(i) * 2.1e-5,
                              altitudeMSL: altitude ? 520 + Double(i % 7) * 0.25 : .nan,
                              speed: i % 5 == 0 ? .nan : 4.25, course: 45, mode: i % 9 == 0 ? 2 : 3)
        }
    }

    static func documents(_ track: some TrackPointSource) throws -> (gpx: String, geojson: [UInt8]?) {
        (try GPXWriter.document(track, name: "ride", creator: "motionlog test"),
         try GeoJSONWriter.document(track, name: "ride", creator: "motionlog test"))
    }

    /// The track of the files' points held whole, as the exports made it before.
    static func held(_ files: [[TrackPoint]]) -> LocationTrack {
        LocationTrack(points: files.flatMap { $0 })
    }

    /// The scan with a hold limit of 3 (so the files are read again), its documents against
    /// those of the points held whole; the track (its files are gone) and its GeoJSON.
    @discardableResult
    static func compare(_ files: [[TrackPoint]], epochOffset: Double = 0,
                        sourceLocation: SourceLocation = #_sourceLocation) throws -> (track: any TrackPointSource, geojson: String) {
        let folder = try Files(files, epochOffset: epochOffset)
        let track = try TrackScan.reading(folder.inputs, holdLimit: 3).track()
        let reference = held(files)
        #expect(track.count == reference.count && track.segmentStarts == reference.segmentStarts,
                "\(track.segmentStarts) vs \(reference.segmentStarts)", sourceLocation: sourceLocation)
        let (gpx, geojson) = try documents(track), (refGPX, refGeoJSON) = try documents(reference)
        // (Compared as a Bool: a failure would print both documents.)
        let sameGPX = gpx == refGPX, sameGeoJSON = geojson == refGeoJSON
        #expect(sameGPX, "GPX differs from the held track's", sourceLocation: sourceLocation)
        #expect(sameGeoJSON, "GeoJSON differs from the held track's", sourceLocation: sourceLocation)
        // Held (a limit above the count): the same bytes again.
        let whole = try TrackScan.reading(folder.inputs).track()
        #expect(whole is LocationTrack, sourceLocation: sourceLocation)
        #expect(try documents(whole).gpx == refGPX, sourceLocation: sourceLocation)
        return (track, String(decoding: geojson ?? [], as: UTF8.self))
    }

    @Test func oneLineWithGapsIsTheSameReadAgainAsHeld() throws {
        let points = Self.run(50, from: 1_700_000_000.2) + Self.run(40, from: 1_700_000_081.2)    // 31 s: a gap
            + Self.run(30, from: 1_700_000_150.2, altitude: false)                                   // 29 s: none
        let track = try Self.compare([points]).track
        #expect(track is StreamedTrack)
        #expect(track.segmentStarts == [0, 50])
        #expect(!track.allHaveAltitude)
    }

    @Test func segmentsOfOneFixMakeAGeometryCollection() throws {
        let points = Self.run(20, from: 1000) + Self.run(1, from: 1100) + Self.run(20, from: 1200) + Self.run(1, from: 1300)
        let (track, geojson) = try Self.compare([points])
        #expect(track.segmentStarts == [0, 20, 21, 41])
        #expect(geojson.contains("\"type\":\"GeometryCollection\""))
        // One fix alone is a Point.
        let one = try Self.compare([Self.run(1, from: 5)]).geojson
        #expect(one.hasPrefix("{\"geometry\":{\"coordinates\":[11.5,48.1,"))
        #expect(one.contains("],\"type\":\"Point\"},\"properties\":{"))
    }

    /// A logger saving a fix a minute: the median interval (60 s) sets the gap (180 s), so
    /// only the 200 s loss splits, not the 150 s one; the intervals are in two files.
    @Test func aSparseLoggersMedianIsFoundWithoutKeepingEveryInterval() throws {
        let first = Self.run(30, from: 0, step: 60) + Self.run(10, from: 29 * 60 + 150, step: 60)
        let second = Self.run(30, from: 29 * 60 + 150 + 9 * 60 + 200, step: 60)
        #expect(try Self.compare([first, second]).track.segmentStarts == [0, 40])
        // Intervals of 10 and 12 s, the median 12 s: a 33 s loss stays inside, a 40 s one splits.
        var times: [Double] = [0]
        for s in [10.0, 12, 12, 10, 12, 33, 12, 10, 12, 40, 12, 12] { times.append(times[times.count - 1] + s) }
        let irregular = times.map { TrackPoint(time: $0, latitude: 1, longitude: 2) }
        #expect(try Self.compare([irregular]).track.segmentStarts == [0, 10])
    }

    /// Files given in another order than their times are read in time order; files whose
    /// times overlap are read again into memory and sorted, as a held track is.
    @Test func filesAreWalkedInTimeOrderAndOverlappingOnesAreSorted() throws {
        let a = Self.run(20, from: 100), b = Self.run(20, from: 200), c = Self.run(20, from: 300)
        #expect(try Self.compare([c, a, b]).track is StreamedTrack)
        let overlapping = Self.run(20, from: 110)
        #expect(try Self.compare([a, overlapping, c]).track is LocationTrack)
        // One file's last time equal to the next one's first: the order given decides, as
        // the stable sort does; given the other way round the two would interleave.
        let meets = Self.run(20, from: 119)
        #expect(try Self.compare([a, meets]).track is StreamedTrack)
        #expect(try Self.compare([meets, a]).track is LocationTrack)
        let inside = Self.run(5, from: 140, step: -1)   // out of order within the file
        #expect(try Self.compare([a, inside]).track is LocationTrack)
    }

    /// More points than `JSONArrayPieces` encodes at once, written with relative When (times
    /// a quarter second apart, so that the epoch time read back is the one written).
    @Test func longTracksAndRelativeTimesAreTheSame() throws {
        let track = try Self.compare([Self.run(9000, from: 1_763_735_405.5, step: 0.25)], epochOffset: 1_763_735_400).track
        #expect(track.count == 9000 && track is StreamedTrack)
    }

    /// The Feature written a piece at a time is the Feature encoded at once with sorted keys.
    @Test func geoJSONWrittenInPiecesIsTheFeatureEncodedAtOnce() throws {
        struct Properties: Encodable {
            var altitudeMSL: [Double?], coordTimes: [String], course: [Double?], creator: String, mode: [Int]
            var name: String, segmentStarts: [Int], speed: [Double?], times: [Double]
        }
        struct Feature: Encodable { var geometry: GeoJSONWriter.Geometry; var properties: Properties; var type = "Feature" }
        for points in [Self.run(5000, from: 10) + Self.run(1, from: 6000) + Self.run(30, from: 7000, altitude: false),
                       Self.run(2, from: 10), Self.run(1, from: 10), Self.run(10, from: 0) + Self.run(10, from: 100)] {
            let track = LocationTrack(points: points)
            func finite(_ v: Double) -> Double? { v.isFinite ? v : nil }
            let withAltitude = points.allSatisfy { $0.altitudeMSL.isFinite }
            let geometry = GeoJSONWriter.geometry(track.segments.map { s in
                s.map { withAltitude ? [$0.longitude, $0.latitude, $0.altitudeMSL] : [$0.longitude, $0.latitude] }
            })
            let feature = Feature(geometry: geometry, properties: Properties(
                altitudeMSL: points.map { finite($0.altitudeMSL) }, coordTimes: points.map { ExportText.utc($0.time) },
                course: points.map { finite($0.course) }, creator: "c/1", mode: points.map(\.mode), name: "n \"1\"",
                segmentStarts: track.segmentRanges.map(\.lowerBound), speed: points.map { finite($0.speed) },
                times: points.map(\.time)))
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let whole = Array(try encoder.encode(feature)) + Array("\n".utf8)
            let same = try GeoJSONWriter.document(track, name: "n \"1\"", creator: "c/1") == whole
            #expect(same, "\(points.count) points: not the Feature encoded at once")
        }
    }

    /// A recording still being written has rows appended between the two readings: they are
    /// left out. A file whose rows changed makes the second reading throw, naming it.
    @Test func rowsAppendedAreLeftOutAndChangedFilesAreNamed() throws {
        let points = Self.run(30, from: 500)
        let folder = try Files([points])
        let path = folder.inputs[0].path
        let track = try TrackScan.reading(folder.inputs, holdLimit: 3).track()
        let before = try Self.documents(track)
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data(Files.csv(Self.run(10, from: 530)).split(separator: "\n", maxSplits: 1)[1].utf8))
        try handle.close()
        #expect(try Self.documents(track).gpx == before.gpx)
        var changed = points
        changed[7].latitude += 1e-6
        try Files.csv(changed).write(toFile: path, atomically: false, encoding: .utf8)
        #expect(throws: TrackFilesChanged.self) { try GPXWriter.document(track, name: "ride", creator: "motionlog test") }
        try Files.csv(Array(points.prefix(20))).write(toFile: path, atomically: false, encoding: .utf8)
        let error = #expect(throws: TrackFilesChanged.self) { try GeoJSONWriter.document(track, name: "ride", creator: "x") }
        #expect(error?.description.hasPrefix("\(path) changed while it was being exported") == true)
    }
}
