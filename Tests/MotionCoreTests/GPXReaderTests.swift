import Foundation
import MotionCore
import Testing

/// GPX files as devices and apps write them, read into fixes. The expected times are Unix
/// seconds computed apart from the code (Python's `calendar.timegm`).
@Suite("GPX reader")
struct GPXReaderTests {
    /// 2026-11-21T13:30:05Z.
    static let t0 = 1_795_267_805.0

    static func read(_ xml: String) throws -> (fixes: [LocationFix], counts: GPXReader.Counts) {
        let path = temporaryDirectory() + "/track.gpx"
        try xml.write(toFile: path, atomically: false, encoding: .utf8)
        var fixes: [LocationFix] = []
        let counts = try GPXReader.read(path: path) { fixes.append($0) }
        return (fixes, counts)
    }

    @Test func timesInTheFormsGPXFilesUse() {
        #expect(TimeText.epochSeconds(iso8601: "2026-11-21T13:30:05Z") == Self.t0)
        #expect(TimeText.epochSeconds(iso8601: "2026-11-21T13:30:05.781Z") == Self.t0 + 0.781)
        #expect(TimeText.epochSeconds(iso8601: "2026-11-21T14:30:05+01:00") == Self.t0)
        #expect(TimeText.epochSeconds(iso8601: "2026-11-21T08:30:05-0500") == Self.t0)
        #expect(TimeText.epochSeconds(iso8601: "2026-11-21T13:30:05") == Self.t0)   // no zone: UTC (GPX)
        #expect(TimeText.epochSeconds(iso8601: "2000-02-29T23:59:59Z") == 951_868_799)
        #expect(TimeText.epochSeconds(iso8601: "1969-12-31T00:00:00Z") == -86_400)
        for bad in ["", "2026-11-21", "2026-13-01T00:00:00Z", "2026-11-21T24:00:00Z", "2026-11-21T13:30:05Q",
                    "2026-11-21T13:30:05.Z", "2026-11-21T13:30:05+1", "yesterday at noon"] {
            #expect(TimeText.epochSeconds(iso8601: bad) == nil, "\(bad)")
        }
    }

    /// GPX 1.1 from a bike computer: Garmin's TrackPointExtension gives speed and course;
    /// no `fix`, so the mode comes from the elevation.
    @Test func garminExtensionsGiveSpeedAndCourse() throws {
        let (fixes, counts) = try Self.read("""
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="Garmin Edge 530" xmlns="http://www.topografix.com/GPX/1/1"
                 xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2">
              <metadata><time>2026-11-21T13:00:00Z</time></metadata>
              <trk><name>Morning ride</name><trkseg>
                <trkpt lat="52.5200" lon="13.4050"><ele>34.2</ele><time>2026-11-21T13:30:05Z</time>
                  <extensions><gpxtpx:TrackPointExtension><gpxtpx:speed>5.25</gpxtpx:speed>
                  <gpxtpx:course>87.5</gpxtpx:course><gpxtpx:hr>120</gpxtpx:hr></gpxtpx:TrackPointExtension></extensions>
                </trkpt>
                <trkpt lat="52.5201" lon="-13.4051"><time>2026-11-21T13:30:06.500Z</time></trkpt>
              </trkseg></trk>
            </gpx>
            """)
        #expect(fixes.count == 2 && counts.fixes == 2 && counts.segments == 1 && counts.creator == "Garmin Edge 530")
        let a = try #require(fixes.first), b = try #require(fixes.last)
        #expect(a == LocationFix(when: Self.t0, latitude: 52.52, longitude: 13.405, altitudeMSL: 34.2, speed: 5.25,
                                 course: 87.5, mode: 3))
        #expect(b == LocationFix(when: Self.t0 + 1.5, latitude: 52.5201, longitude: -13.4051, mode: 2))
        #expect(counts.modeFromElevation == 2 && counts.skipped == 0 && counts.stoppedEarly == nil)
    }

    /// GPX 1.0 has speed, course and fix as children of the point; `fix` none is no position.
    @Test func gpx10SpeedCourseAndFix() throws {
        let (fixes, counts) = try Self.read("""
            <gpx version="1.0" creator="gpsbabel"><trk><trkseg>
            <trkpt lat="1.5" lon="2.5"><time>2026-11-21T13:30:05Z</time><course>12</course><speed>3.5</speed><fix>2d</fix></trkpt>
            <trkpt lat="1.6" lon="2.6"><ele>7</ele><time>2026-11-21T13:30:06Z</time><fix>none</fix></trkpt>
            <trkpt lat="1.7" lon="2.7"><ele>8</ele><time>2026-11-21T13:30:07Z</time><fix>dgps</fix></trkpt>
            </trkseg></trk></gpx>
            """)
        #expect(fixes == [LocationFix(when: Self.t0, latitude: 1.5, longitude: 2.5, speed: 3.5, course: 12, mode: 2),
                          LocationFix(when: Self.t0 + 2, latitude: 1.7, longitude: 2.7, altitudeMSL: 8, mode: 3)])
        #expect(counts.noFix == 1 && counts.modeFromElevation == 0)
    }

    /// Values in CDATA sections are read as text (they were dropped: every point "without a time").
    @Test func valuesInCDATASectionsAreText() throws {
        let (fixes, counts) = try Self.read("""
            <gpx><trk><trkseg>
            <trkpt lat="1.5" lon="2.5"><ele><![CDATA[7.5]]></ele><time><![CDATA[2026-11-21T13:30:05Z]]></time></trkpt>
            </trkseg></trk></gpx>
            """)
        #expect(fixes == [LocationFix(when: Self.t0, latitude: 1.5, longitude: 2.5, altitudeMSL: 7.5, mode: 3)], "\(counts)")
    }

    /// Every point that cannot be a row is skipped and counted by why; nothing is invented.
    @Test func pointsThatCannotBeRowsAreCountedNotGuessed() throws {
        let (fixes, counts) = try Self.read("""
            <gpx><wpt lat="1" lon="1"><name>Home</name></wpt>
            <rte><rtept lat="1" lon="1"/><rtept lat="2" lon="2"/></rte>
            <trk><trkseg>
            <trkpt lat="10" lon="20"><ele>1</ele><time>2026-11-21T13:30:05Z</time></trkpt>
            <trkpt lat="10" lon="20"><ele>1</ele></trkpt>
            <trkpt lat="10" lon="20"><time>last Tuesday</time></trkpt>
            <trkpt lat="91" lon="20"><time>2026-11-21T13:30:06Z</time></trkpt>
            <trkpt lon="20"><time>2026-11-21T13:30:06Z</time></trkpt>
            <trkpt lat="10.1" lon="20"><time>2026-11-21T13:30:05Z</time></trkpt>
            <trkpt lat="10.2" lon="20"><time>2026-11-21T13:30:04Z</time></trkpt>
            </trkseg><trkseg>
            <trkpt lat="10.3" lon="20"><speed>-1</speed><time>2026-11-21T13:30:08Z</time></trkpt>
            </trkseg></trk></gpx>
            """)
        #expect(fixes.map(\.when) == [Self.t0, Self.t0 + 3])
        #expect(fixes.last.map { $0.speed.isNaN && $0.latitude == 10.3 } == true)
        #expect(counts.withoutTime == 1 && counts.badTime == 1 && counts.badPosition == 2 && counts.notAfterPrevious == 2)
        #expect(counts.skipped == 6 && counts.routePoints == 2 && counts.waypoints == 1 && counts.segments == 2)
    }

    /// Elements nested deeper than any GPX file nests end the read there, the points before
    /// it kept: the XML parser's stack of open elements grew with such a file (50 MB of
    /// nested elements took 644 MB).
    @Test func elementsNestedWithoutEndStopTheRead() throws {
        let nested = String(repeating: "<a>", count: 20_000)
        let xml = """
            <gpx><trk><trkseg>
            <trkpt lat="1" lon="2"><time>2026-11-21T13:30:05Z</time></trkpt>
            \(nested)
            <trkpt lat="1.1" lon="2"><time>2026-11-21T13:30:06Z</time></trkpt>
            """ + String(repeating: "</a>", count: 20_000) + "</trkseg></trk></gpx>"
        let (fixes, counts) = try Self.read(xml)
        #expect(fixes.count == 1)
        #expect(counts.stoppedEarly?.contains("nested more than \(GPXReader.maxDepth) deep") == true,
                "\(String(describing: counts.stoppedEarly))")
        // GPX's own depth (with extensions) is read whole.
        let (deep, deepCounts) = try Self.read("""
            <gpx xmlns:x="urn:x"><trk><trkseg><trkpt lat="1" lon="2"><time>2026-11-21T13:30:05Z</time><extensions><x:a><x:b><x:c>1</x:c></x:b></x:a></extensions></trkpt></trkseg></trk></gpx>
            """)
        #expect(deep.count == 1 && deepCounts.stoppedEarly == nil)
    }

    /// A comment, CDATA section or attribute over libxml2's 10 MB is valid XML the reader
    /// does not take: the points before it are kept, and the file is not called damaged.
    /// Memory stays small (measured: 46 MB of RSS for a 50 MB comment).
    @Test func aPieceLongerThanTheXMLReaderTakesIsNotCalledDamage() throws {
        let big = String(repeating: "x", count: 11_000_000)
        let point = "<trkpt lat=\"48.1\" lon=\"11.5\"><time>2025-06-01T10:00:00Z</time></trkpt>"
        for piece in ["<!--\(big)-->", "<desc><![CDATA[\(big)]]></desc>", "<link href=\"\(big)\"/>"] {
            let (fixes, counts) = try Self.read("<gpx version=\"1.1\"><trk><trkseg>\(point)\(piece)"
                + "<trkpt lat=\"48.2\" lon=\"11.5\"><time>2025-06-01T10:00:09Z</time></trkpt></trkseg></trk></gpx>")
            #expect(fixes.count == 1, "\(piece.prefix(12))")
            let said = counts.stoppedEarly ?? ""
            #expect(said.contains("longer than the 10 MB the XML reader takes") && !said.contains("damaged;"), "\(said)")
        }
    }

    @Test func aFileCutShortKeepsThePointsBeforeTheCut() throws {
        let whole = """
            <gpx><trk><trkseg>
            <trkpt lat="1" lon="2"><time>2026-11-21T13:30:05Z</time></trkpt>
            <trkpt lat="1.1" lon="2"><time>2026-11-21T13:30:06Z</time></trkpt>
            <trkpt lat="1.2" lon="2"><time>2026-11-21T13:30:07Z</time></trkpt>
            </trkseg></trk></gpx>
            """
        // Cut inside the third point, and cut after it (no end tags at all).
        for cut in [whole.range(of: "<time>2026-11-21T13:30:07")!.upperBound, whole.range(of: "</trkseg>")!.lowerBound] {
            let (fixes, counts) = try Self.read(String(whole[..<cut]))
            let expected = cut == whole.range(of: "</trkseg>")!.lowerBound ? 3 : 2
            #expect(fixes.count == expected)
            #expect(counts.stoppedEarly?.contains("cut short") == true, "\(String(describing: counts.stoppedEarly))")
        }
        // Damaged inside: a wrong end tag stops the read there.
        let (fixes, counts) = try Self.read(whole.replacingOccurrences(of: "<time>2026-11-21T13:30:07Z</time></trkpt>",
                                                                        with: "<time>2026-11-21T13:30:07Z</timex></trkpt>"))
        #expect(fixes.count == 2)
        #expect(counts.stoppedEarly?.contains("line 4") == true, "\(String(describing: counts.stoppedEarly))")
    }

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/gpx").path

    /// Files as a Garmin receiver (through GPSBabel, GPX 1.0) and Garmin Connect (GPX 1.1,
    /// prefixed extensions) wrote them (Tests/Fixtures/gpx, from gpxpy's test files).
    @Test func realFilesFromGarminDevicesAndGPSBabel() throws {
        var fixes: [LocationFix] = []
        let log = try GPXReader.read(path: Self.fixtures + "/cerknicko-jezero-excerpt.gpx") { fixes.append($0) }
        #expect(log.fixes == 14 && fixes.count == 14 && log.skipped == 0 && log.stoppedEarly == nil)
        #expect(log.waypoints == 2 && log.segments == 3 && log.creator == "GPSBabel - http://www.gpsbabel.org")
        #expect(fixes.first == LocationFix(when: 1_281_018_239, latitude: 45.772175035, longitude: 14.357659249,
                                           altitudeMSL: 542.320923, mode: 3))
        #expect(fixes.last?.when == 1_281_021_886 && fixes.last?.altitudeMSL == 544.243652)
        #expect(zip(fixes, fixes.dropFirst()).allSatisfy { $0.when < $1.when })
        var garmin: [LocationFix] = []
        let connect = try GPXReader.read(path: Self.fixtures + "/garmin_gpxtpx.gpx") { garmin.append($0) }
        #expect(connect.creator == "Garmin Connect" && garmin.count == 1)
        #expect(garmin.first == LocationFix(when: 1_511_090_587, latitude: 43.12346, longitude: 8.74548,
                                            altitudeMSL: 218.399993896484375, mode: 3))
    }

    @Test func filesThatAreNotGPXAreRefusedWithWhy() throws {
        let folder = temporaryDirectory()
        func refusal(_ name: String, _ bytes: [UInt8]) throws -> String {
            let path = folder + "/" + name
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            do { _ = try GPXReader.read(path: path) { _ in }; return "read" } catch { return "\(error)" }
        }
        #expect(try refusal("a.kml", Array("<kml><Document/></kml>".utf8)).contains("not a GPX file (its first element is <kml>"))
        #expect(try refusal("b.gpx", [0, 1, 2, 0xFF, 0xFE]).contains("not a GPX file: not readable as XML"))
        #expect(try refusal("c.gpx", []).contains("not a GPX file"))
        // Entities expanding a billionfold, and one naming a local file: refused, never read.
        let entities = """
            <?xml version="1.0"?><!DOCTYPE gpx [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
            <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">
            <!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;"><!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;">
            <!ENTITY g "&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;"><!ENTITY h "&g;&g;&g;&g;&g;&g;&g;&g;&g;&g;">
            <!ENTITY i "&h;&h;&h;&h;&h;&h;&h;&h;&h;&h;"><!ENTITY j "&i;&i;&i;&i;&i;&i;&i;&i;&i;&i;">
            <!ENTITY x SYSTEM "file:///etc/hostname">]>
            <gpx><trk><trkseg><trkpt lat="1" lon="2"><time>2026-11-21T13:30:05Z</time><ele>&x;</ele><name>&j;</name></trkpt></trkseg></trk></gpx>
            """
        let hostile = folder + "/hostile.gpx"
        try entities.write(toFile: hostile, atomically: false, encoding: .utf8)
        var read: [LocationFix] = []
        let counts = try GPXReader.read(path: hostile) { read.append($0) }
        #expect(read.isEmpty && counts.stoppedEarly != nil, "\(read) \(String(describing: counts.stoppedEarly))")
        let missing = folder + "/none.gpx"
        #expect(throws: GPXReader.ReadError.self) { _ = try GPXReader.read(path: missing) { _ in } }
    }

    /// Debian's libxml2 crashed the process (a null pointer, signal 11) on GPX files declaring
    /// EBCDIC or UTF-32, and on one declaring UTF-7 with damaged text after it (`make fuzz`
    /// found it): such files are refused before the parser sees them, with what to do. The
    /// encodings GPX files are written in are read as before.
    @Test func encodingsTheParserCrashedOnAreRefused() throws {
        let folder = temporaryDirectory()
        let track = """
            <gpx version="1.1" creator="x" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
            <trkpt lat="45.7" lon="14.3"><time>2026-11-21T13:30:05Z</time></trkpt>
            <trkpt lat="45.71" lon="14.31"><time>2026-11-21T13:30:06Z</time></trkpt></trkseg></trk></gpx>
            """
        func read(_ name: String, _ bytes: [UInt8]) -> String {
            let path = folder + "/" + name
            do {
                try Data(bytes).write(to: URL(fileURLWithPath: path))
                return "\(try GPXReader.read(path: path) { _ in }.fixes) fixes"
            } catch { return "\(error)" }
        }
        for encoding in ["EBCDIC-US", "UTF-32", "UTF-7", "SHIFT_JIS", ""] {
            let text = read("refused.gpx", Array("<?xml version=\"1.0\" encoding=\"\(encoding)\"?>\n\(track)".utf8))
            #expect(text.contains("declares encoding=\"\(encoding)\", which is not read (GPX files are UTF-8)"), "\(encoding): \(text)")
        }
        // The fuzzer's input: UTF-7, then bytes that are not.
        let damaged = Array("<?xml version=\"1.0\" encoding=\"UTF-7\"?>\n<gpx><wpt lat7\"".utf8) + [0xFF, 0xFA] + Array(".77\"/></gpx>".utf8)
        #expect(read("fuzzed.gpx", damaged).contains("not read"))
        #expect(read("utf32.gpx", [0, 0, 0xFE, 0xFF, 0, 0, 0, 0x3C]).contains("it is written in UTF-32"))
        for encoding in ["UTF-8", "utf-8", "ISO-8859-1", "windows-1252", "US-ASCII"] {
            #expect(read("read.gpx", Array("<?xml version=\"1.0\" encoding=\"\(encoding)\"?>\n\(track)".utf8)) == "2 fixes", "\(encoding)")
        }
        #expect(read("plain.gpx", Array(track.utf8)) == "2 fixes")
        var utf16: [UInt8] = [0xFF, 0xFE]
        for unit in "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n\(track)".utf16 { utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        #expect(read("utf16.gpx", utf16) == "2 fixes")
    }
}
