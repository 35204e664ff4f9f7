import Foundation
import MotionCore
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `motionlog export` and `record --gpsd`, run as a user runs them.
@Suite("motionlog export and --gpsd")
struct ExportCLITests {
    /// L rows of a recording, and its epoch offset (relative When → epoch).
    static func locationRows(_ csv: String) throws -> [Row] {
        try RecordingReader(path: csv).readAll().rows.filter { $0.source == .location }
    }

    static func record(_ extra: [String]) throws -> String {
        let out = Binary.temporaryDirectory()
        let r = try Binary.run(["record", "--board", "simulator", "--fast", "--duration", "45", "--rate", "50",
                                "--out", out, "--quiet"] + extra)
        #expect(r.status == 0, "\(r.stderr)")
        return try #require(Binary.csvFiles(in: out).first)
    }

    @Test func gpxFromARecordingReadsBackWithGpxpy() throws {
        let csv = try Self.record([])
        let rows = try Self.locationRows(csv)
        #expect(rows.count >= 44)
        let gpx = csv.replacingOccurrences(of: ".csv", with: ".gpx")
        let r = try Binary.run(["export", csv, "--format", "gpx", "-o", gpx])
        #expect(r.status == 0, "\(r.stderr)")
        let script = """
            import json, sys, gpxpy
            g = gpxpy.parse(open(sys.argv[1], encoding="utf-8"))
            print(json.dumps([[p.latitude, p.longitude, p.elevation, p.time.timestamp()]
                              for t in g.tracks for s in t.segments for p in s.points]))
            """
        let parsed = try Binary.python(script, gpx)
        // JSONDecoder: exact numbers (corelibs' JSONSerialization can miss the 17th digit).
        let points = try JSONDecoder().decode([[Double]].self, from: Data(parsed.utf8))
        #expect(points.count == rows.count)
        for (p, row) in zip(points, rows) {
            #expect(p == [row[0], row[1], row[2], row.when], "\(p) vs \(RowEncoder.line(row))")
        }
    }

    /// Two relative-When recordings in one wide CSV: times are epoch seconds in order (both
    /// ran from 0.0 and were interleaved as if simultaneous). (`--fast` runs overlap in time.)
    @Test func wideCSVOfRelativeRecordingsHasEpochTimes() throws {
        let a = try Self.record(["--when", "relative"])
        let b = try Self.record(["--when", "relative"])
        let metaA = try RecordingMetadata.decode(Array(try Data(contentsOf: URL(fileURLWithPath: a.replacingOccurrences(of: ".csv", with: ".json")))))
        // The second began 100 s after the first (--fast runs begin at once and overlap).
        let jsonB = URL(fileURLWithPath: b.replacingOccurrences(of: ".csv", with: ".json"))
        var metaB = try RecordingMetadata.decode(Array(try Data(contentsOf: jsonB)))
        metaB.recording.startEpoch = metaA.recording.startEpoch + 100
        try Data(metaB.encoded()).write(to: jsonB)
        let r = try Binary.run(["export", a, b, "--format", "wide-csv"])
        #expect(r.status == 0, "\(r.stderr)")
        let times = r.stdout.split(separator: "\n").dropFirst().compactMap { Double($0.prefix { $0 != "," }) }
        #expect(times.count > 100 && times.first.map { abs($0 - metaA.recording.startEpoch) < 1 } == true, "\(times.prefix(3))")
        #expect(times.allSatisfy { $0 > 1e9 } && zip(times, times.dropFirst()).allSatisfy { $0 <= $1 }, "not in time order")
    }

    /// Relative When at 30 Hz: each fix joins the tick of its second (the start plus the
    /// fix's When, rounded to the µs when written, fell 0.2 µs before the tick: a line of its
    /// own, and a time a second early in `summary`).
    @Test func fixesOfARelativeRecordingJoinTheirTicks() throws {
        let csv = try Self.record(["--when", "relative", "--rate", "30"])
        let text = try String(contentsOfFile: csv, encoding: .utf8)
        let ticks = text.split(separator: "\n").filter { $0.hasPrefix("A,") }.count
        let fixes = try Self.locationRows(csv)
        let r = try Binary.run(["export", csv, "--format", "wide-csv"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").dropFirst()
        #expect(lines.count == ticks, "\(lines.count) lines for \(ticks) ticks and \(fixes.count) fixes")
        // The report's timeline begins at the first fix's second, not the one before.
        let meta = try RecordingMetadata.decode(Array(try Data(contentsOf: URL(fileURLWithPath: csv.replacingOccurrences(of: ".csv", with: ".json")))))
        let second = (meta.recording.startEpoch + fixes[0].when).rounded()
        let clock = String(TimeText.isoLocal(epochSeconds: second).dropFirst(11).prefix(8))
        let report = try Binary.run(["summary", csv])
        #expect(report.stdout.contains("Timeline\n  \(clock)–"), "\(clock): \(report.stdout)")
    }

    /// A file given twice is read once (every point was exported twice).
    /// A folder stands for its recordings in every format (gpx and geojson said "Is a
    /// directory" where the timeline exports read it).
    @Test func aFolderIsReadByTheTrackExportsToo() throws {
        let csv = try Self.record([])
        let folder = (csv as NSString).deletingLastPathComponent
        let fromFile = try Binary.run(["export", csv, "--format", "gpx"])
        let fromFolder = try Binary.run(["export", folder, "--format", "gpx"])
        #expect(fromFolder.status == 0 && fromFolder.stdout == fromFile.stdout, "\(fromFolder.stderr)")
        let empty = try Binary.run(["export", Binary.temporaryDirectory(), "--format", "geojson"])
        #expect(empty.status == 2 && empty.stdout.isEmpty && !empty.stderr.contains("Is a directory"), "\(empty.stderr)")
    }

    @Test func aFileGivenTwiceIsReadOnce() throws {
        let csv = try Self.record([])
        let rows = try Self.locationRows(csv)
        let r = try Binary.run(["export", csv, csv, "--format", "gpx"])
        #expect(r.status == 0 && r.stderr.contains("given more than once"), "\(r.stderr)")
        #expect(r.stdout.components(separatedBy: "<trkpt").count - 1 == rows.count)
    }

    @Test func geoJSONFromARelativeWhenRecordingHasEpochTimes() throws {
        let csv = try Self.record(["--when", "relative"])
        let rows = try Self.locationRows(csv)
        let meta = try RecordingMetadata.decode(Array(try Data(contentsOf: URL(fileURLWithPath: csv.replacingOccurrences(of: ".csv", with: ".json")))))
        #expect(meta.recording.whenMode == .relative)
        let r = try Binary.run(["export", csv, "--format", "geojson"])
        #expect(r.status == 0, "\(r.stderr)")
        struct Feature: Decodable {
            struct Geometry: Decodable { var type: String; var coordinates: [[Double]] }
            struct Properties: Decodable { var times: [Double] }
            var geometry: Geometry
            var properties: Properties
        }
        let f = try JSONDecoder().decode(Feature.self, from: Data(r.stdout.utf8))
        #expect(f.geometry.type == "LineString")
        #expect(f.geometry.coordinates.count == rows.count && f.properties.times.count == rows.count)
        for (i, row) in rows.enumerated() {
            #expect(f.geometry.coordinates[i] == [row[1], row[0], row[2]])  // [lon, lat, alt]
            #expect(f.properties.times[i] == row.when + meta.recording.startEpoch)
        }
    }

    /// A relative-When recording whose metadata is lost: every export says so. The track
    /// exports and the timeline refuse (the timeline was written dated 1 January 1970 with
    /// exit 0 and no word); the wide CSV is written with the When as in the file, and warns.
    @Test func relativeWhenWithoutItsMetadataIsSaidByEveryExport() throws {
        let csv = try Self.record(["--when", "relative"])
        try FileManager.default.removeItem(atPath: csv.replacingOccurrences(of: ".csv", with: ".json"))
        let said = "When looks relative ("
        for format in ["gpx", "geojson", "timeline", "timeline-geojson"] {
            let r = try Binary.run(["export", csv, "--format", format])
            #expect(r.status == 2 && r.stdout.isEmpty && r.stderr.contains(said), "\(format): \(r.stderr)")
        }
        let wide = try Binary.run(["export", csv, "--format", "wide-csv"])
        #expect(wide.status == 0 && wide.stderr.contains(said) && wide.stderr.contains("its time column holds the When as written"), "\(wide.stderr)")
        #expect(wide.stdout.split(separator: "\n").count > 100)
    }

    /// A folder given as input protects its recordings and their metadata as a file given
    /// does: `export DIR -o DIR/REC.csv --force` wrote the timeline over the recording.
    @Test func theOutputIsNeverARecordingOfAFolderGiven() throws {
        let csv = try Self.record([])
        let folder = (csv as NSString).deletingLastPathComponent
        let json = csv.replacingOccurrences(of: ".csv", with: ".json")
        let before = try Data(contentsOf: URL(fileURLWithPath: csv)), metadataBefore = try Data(contentsOf: URL(fileURLWithPath: json))
        for (format, target) in [("timeline", csv), ("gpx", csv), ("wide-csv", json)] {
            let r = try Binary.run(["export", folder, "--format", format, "-o", target, "--force"])
            #expect(r.status == 2 && r.stderr.contains("input"), "\(format): \(r.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: csv)) == before && Data(contentsOf: URL(fileURLWithPath: json)) == metadataBefore)
    }

    /// Another recording, not an input, is not written over either, nor its metadata:
    /// `export A -o B.csv --force` wrote a GPX over recording B and its JSON over B's
    /// metadata, exit 0. An earlier export of the same name is still replaced.
    @Test func theOutputIsNeverAnotherRecordingOrItsMetadata() throws {
        let a = try Self.record([]), b = try Self.record([])
        let bJSON = RecordingFiles.metadataPath(for: b)
        let before = try Data(contentsOf: URL(fileURLWithPath: b)), metadataBefore = try Data(contentsOf: URL(fileURLWithPath: bJSON))
        for (format, target) in [("wide-csv", b), ("gpx", b), ("geojson", bJSON), ("timeline", bJSON)] {
            let r = try Binary.run(["export", a, "--format", format, "-o", target, "--force"])
            #expect(r.status == 2 && r.stderr.contains("not written over, even with --force"), "\(format): \(r.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: b)) == before && Data(contentsOf: URL(fileURLWithPath: bJSON)) == metadataBefore)
        // A recording whose header was lost is still known by its metadata.
        let headless = (b as NSString).deletingLastPathComponent + "/headless.csv"
        try Data(before.dropFirst(CSVFormat.headerBytes.count)).write(to: URL(fileURLWithPath: headless))
        try metadataBefore.write(to: URL(fileURLWithPath: RecordingFiles.metadataPath(for: headless)))
        #expect(try Binary.run(["export", a, "--format", "wide-csv", "-o", headless, "--force"]).status == 2)
        // Its own earlier output (a wide CSV, a GeoJSON) is replaced as before.
        let out = Binary.temporaryDirectory()
        for (format, name) in [("wide-csv", "/wide.csv"), ("geojson", "/track.json")] {
            #expect(try Binary.run(["export", a, "--format", format, "-o", out + name]).status == 0)
            let again = try Binary.run(["export", a, "--format", format, "-o", out + name, "--force"])
            #expect(again.status == 0, "\(format): \(again.stderr)")
        }
    }

    /// `--name` names the track of gpx and geojson; the other formats have none, and say so
    /// rather than dropping it.
    @Test func aNameForAFormatWithoutOneIsSaid() throws {
        let csv = try Self.record([])
        for format in ["wide-csv", "timeline", "timeline-geojson"] {
            let r = try Binary.run(["export", csv, "--format", format, "--name", "Ride"])
            #expect(r.status == 2 && r.stdout.isEmpty && r.stderr.contains("has no track name"), "\(format): \(r.stderr)")
        }
        let gpx = try Binary.run(["export", csv, "--format", "gpx", "--name", "Ride"])
        #expect(gpx.status == 0 && gpx.stdout.contains("<name>Ride</name>"))
    }

    @Test func nothingToExportAndUnreadableFilesAreClearErrors() throws {
        let out = Binary.temporaryDirectory()
        let r = try Binary.run(["record", "--board", "simulator", "--fast", "--duration", "3", "--sources", "AG",
                                "--out", out, "--quiet"])
        #expect(r.status == 0)
        let csv = try #require(Binary.csvFiles(in: out).first)
        let none = try Binary.run(["export", csv, "--format", "gpx"])
        #expect(none.status == 1 && none.stderr.contains("no L rows"), "\(none.stderr)")
        let missing = try Binary.run(["export", out + "/nope.csv"])
        #expect(missing.status == 2 && missing.stderr.contains("nope.csv"), "\(missing.stderr)")
        let badFormat = try Binary.run(["export", csv, "--format", "kml"])
        #expect(badFormat.status == 2)
    }

    /// An export larger than the file system's largest file (EFBIG, as FAT32 answers past
    /// 4 GiB; made here with a 10 KiB `ulimit -f`, SIGXFSZ at its default: the binary
    /// ignores it) says what happened and what to do, and leaves no partial output.
    @Test func anExportTooLargeForTheFileSystemSaysSoAndLeavesNothing() throws {
        let csv = try Self.record([])
        let wide = csv.replacingOccurrences(of: ".csv", with: "-wide.csv")
        let r = try Binary.run(via: "/bin/sh", ["-c", "ulimit -f 20 && exec /usr/bin/env --default-signal=XFSZ \"$0\" \"$@\"",
                                                Binary.path, "export", csv, "--format", "wide-csv", "-o", wide])
        #expect(r.status != 0)
        #expect(r.stderr.contains("cannot write \(wide)") && r.stderr.contains("FAT32: 4 GiB") && r.stderr.contains("exFAT or ext4"),
                "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: wide))
    }

    @Test func gpsdOptionMistakesAreUsageErrors() throws {
        let fast = try Binary.run(["record", "--board", "simulator", "--fast", "--duration", "1", "--gpsd", "localhost:2947"])
        #expect(fast.status == 2 && fast.stderr.contains("--fast"), "\(fast.stderr)")
        let bad = try Binary.run(["record", "--board", "simulator", "--duration", "1", "--gpsd", "host:99999"])
        #expect(bad.status == 2 && bad.stderr.contains("host:port"), "\(bad.stderr)")
    }

    /// gpsd absent: the simulated IMU records every row anyway; one warning, no L rows.
    @Test func recordingWithoutGPSDRunning() throws {
        let port = try Binary.closedPort()
        let out = Binary.temporaryDirectory()
        let r = try Binary.run(["record", "--board", "simulator", "--duration", "2", "--rate", "50",
                                "--gpsd", "127.0.0.1:\(port)", "--out", out, "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.components(separatedBy: "cannot connect to gpsd").count == 2, "\(r.stderr)")
        let csv = try #require(Binary.csvFiles(in: out).first)
        let rows = try RecordingReader(path: csv).readAll().rows
        #expect(rows.filter { $0.source == .location }.isEmpty)
        let meta = try RecordingMetadata.decode(Array(try Data(contentsOf: URL(fileURLWithPath: csv.replacingOccurrences(of: ".csv", with: ".json")))))
        // Real time: a tick the machine woke too late for is counted, never filled in.
        #expect(rows.filter { $0.source == .accelerometer }.count + Int(meta.counters.missedTicks) == 100)
        #expect(meta.recording.gps == "gpsd 127.0.0.1:\(port)")
        #expect(meta.counters.time?.systemClockSynchronised != nil)
    }
}

extension Binary {
    /// Runs a Python script with Debian's python3 (python3-gpxpy) and returns its stdout.
    static func python(_ script: String, _ argument: String) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = ["-c", script, argument]
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            throw CLITestError("python3 failed (is python3-gpxpy installed? sudo make deps): \(errors)")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// A loopback TCP port nothing listens on (bound to port 0, then closed).
    static func closedPort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw CLITestError("socket failed") }
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &addr) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard ok else { throw CLITestError("bind failed") }
        return Int(UInt16(bigEndian: addr.sin_port))
    }
}

struct CLITestError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}
