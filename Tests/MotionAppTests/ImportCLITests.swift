import Foundation
import MotionCore
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `motionlog import`: GPX tracks become recordings that summary and check treat as the
/// logger's own, without replacing anything and without reporting success for nothing.
@Suite("motionlog import")
struct ImportCLITests {
    /// The L rows of a CSV: When, latitude, longitude, altitude and mode, as written.
    static func locationRows(_ csv: String) throws -> [[String]] {
        try rows(csv).map { f in [f[2], f[3], f[4], f[5], f[11]] }
    }

    /// The fields of every L row.
    static func rows(_ csv: String) throws -> [[String]] {
        try String(contentsOfFile: csv, encoding: .utf8).split(separator: "\n").filter { $0.hasPrefix("L,") }
            .map { $0.split(separator: ",").map(String.init) }
    }

    /// A simulated ride exported as GPX and imported again: the same fixes (GPX keeps times
    /// to the millisecond; the simulator's fixes are on whole seconds), a valid file, and
    /// the same distance and timeline in `summary`.
    @Test func aTrackExportedAsGPXComesBackAsTheSameFixes() throws {
        let original = try Binary.recordSimulated(["--duration", "40", "--rate", "20", "--sources", "AGL"])
        let folder = Binary.temporaryDirectory()
        let gpx = folder + "/ride.gpx"
        #expect(try Binary.run(["export", "--format", "gpx", original, "-o", gpx]).status == 0)
        let imported = try Binary.run(["import", gpx])
        #expect(imported.status == 0, "\(imported.stderr)")
        let csvs = Binary.csvFiles(in: folder)
        let csv = try #require(csvs.first)
        #expect(csvs.count == 1 && imported.stdout.contains("ride.gpx → \(csv): "), "\(imported.stdout)")
        let want = try Self.locationRows(original), got = try Self.locationRows(csv)
        #expect(!want.isEmpty && got == want)
        // gpsd's speed and course come back too (in Garmin's TrackPointExtension; GPX 1.1
        // has no element for them, and they came back nan).
        let motion = { (path: String) in try Self.rows(path).map { [$0[6], $0[7]] } }
        let wantMotion = try motion(original), gotMotion = try motion(csv)
        #expect(wantMotion.contains { Double($0[0]) ?? 0 > 1 } && gotMotion == wantMotion)
        #expect(try Binary.run(["check", csv]).status == 0)
        let metadata = try #require(RecordingFiles.readMetadata(besides: csv))
        #expect(metadata.endReason == "imported" && metadata.endedCleanly && metadata.file.rows == ["L": want.count])
        #expect(metadata.recording.sources == "L" && metadata.recording.rateHz == 0)
        func summary(_ path: String) throws -> [String: Any] {
            let r = try Binary.run(["summary", "--json", path])
            return try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        }
        let before = try summary(original), after = try summary(csv)
        let d0 = try #require(before["distance_m"] as? Double), d1 = try #require(after["distance_m"] as? Double)
        #expect(d0 > 50 && abs(d1 - d0) <= 0.01 * d0, "\(d0) \(d1)")
        let kinds = { (s: [String: Any]) in (s["timeline"] as? [[String: Any]])?.map { "\($0["type"] ?? "")/\($0["activity"] ?? "")" } }
        #expect(kinds(before) == kinds(after))
    }

    /// A second import of the same track replaces nothing; --force does.
    @Test func importingAgainReplacesNothingWithoutForce() throws {
        let folder = Binary.temporaryDirectory()
        let gpx = folder + "/walk.gpx"
        try Self.walk.write(toFile: gpx, atomically: false, encoding: .utf8)
        #expect(try Binary.run(["import", gpx]).status == 0)
        let csv = try #require(Binary.csvFiles(in: folder).first)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: csv))
        let again = try Binary.run(["import", gpx])
        #expect(again.status == 2 && again.stderr.contains("exists") && again.stderr.contains("exists (imported before): pass --force"), "\(again.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: csv)) == bytes && Binary.csvFiles(in: folder).count == 1)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty, "\(leftovers)")
        #expect(try Binary.run(["import", gpx, "--force"]).status == 0)
        // A recording of the logger's with that name (the same ride, logged by both) is
        // not an earlier import: --force leaves it alone.
        let json = csv.replacingOccurrences(of: ".csv", with: ".json")
        var metadata = try RecordingMetadata.decode(Array(try Data(contentsOf: URL(fileURLWithPath: json))))
        metadata.endReason = "stopped"
        try Data(metadata.encoded()).write(to: URL(fileURLWithPath: json))
        let recorded = try Data(contentsOf: URL(fileURLWithPath: csv)), recordedMetadata = try Data(contentsOf: URL(fileURLWithPath: json))
        // Without --force it is not offered: it would be refused.
        let plain = try Binary.run(["import", gpx])
        #expect(plain.status == 2 && plain.stderr.contains("is not an earlier import") && !plain.stderr.contains("--force"), "\(plain.stderr)")
        let forced = try Binary.run(["import", gpx, "--force"])
        #expect(forced.status == 2 && forced.stderr.contains("is a recording, not an earlier output of `import`: not written over, even with --force"), "\(forced.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: csv)) == recorded && Data(contentsOf: URL(fileURLWithPath: json)) == recordedMetadata)
    }

    /// Two files of one run that start in the same second (one ride exported from two apps)
    /// are two recordings, the later named `-1` as the recorder names a second file of the
    /// same second; with --force the second replaced the first, without it was refused as
    /// "imported before". The same file given twice is imported once.
    @Test func twoFilesOfOneSecondInOneRunAreTwoRecordings() throws {
        let folder = Binary.temporaryDirectory(), out = Binary.temporaryDirectory()
        try Self.walk.write(toFile: folder + "/strava.gpx", atomically: false, encoding: .utf8)
        try Self.walk.replacingOccurrences(of: "lat=\"48.", with: "lat=\"47.").write(toFile: folder + "/garmin.gpx", atomically: false, encoding: .utf8)
        for force in [[], ["--force"]] {
            for f in (try? FileManager.default.contentsOfDirectory(atPath: out)) ?? [] { try FileManager.default.removeItem(atPath: out + "/" + f) }
            let r = try Binary.run(["import", folder + "/strava.gpx", folder + "/garmin.gpx", folder + "/./strava.gpx", "-o", out] + force)
            #expect(r.status == 0, "\(force) \(r.stderr)")
            #expect(r.stderr.contains("/./strava.gpx: given more than once, imported once"), "\(r.stderr)")
            let csvs = Binary.csvFiles(in: out)
            let first = try #require(csvs.first { !$0.hasSuffix("-1.csv") }), second = String(first.dropLast(4)) + "-1.csv"
            #expect(csvs.count == 2 && csvs.contains(second), "\(force) \(csvs)")
            #expect(try Self.locationRows(first).first?[1] == "48.1" && Self.locationRows(second).first?[1] == "47.1")
            #expect(try Binary.run(["check", out]).status == 0)
        }
        // In two runs too: the other ride is no earlier import of this file (it was refused
        // as "imported before: pass --force", and --force replaced the first ride).
        let later = Binary.temporaryDirectory()
        #expect(try Binary.run(["import", folder + "/strava.gpx", "-o", later]).status == 0)
        let second = try Binary.run(["import", folder + "/garmin.gpx", "-o", later])
        #expect(second.status == 0, "\(second.stderr)")
        let both = Binary.csvFiles(in: later)
        #expect(both.count == 2 && both.contains { $0.hasSuffix("-1.csv") }, "\(both)")
        // The same file again is an earlier import: refused without --force, replaced with it.
        let again = try Binary.run(["import", folder + "/strava.gpx", "-o", later])
        #expect(again.status == 2 && again.stderr.contains("imported before"), "\(again.stderr)")
        #expect(try Binary.run(["import", folder + "/strava.gpx", "-o", later, "--force"]).status == 0)
        #expect(Binary.csvFiles(in: later).count == 2)
    }

    /// Nothing to import is a failure that writes nothing; a cut-short file is imported up
    /// to the cut with status 1 and says so; the other files of the command still go.
    @Test func nothingImportedIsAFailureAndACutFileIsSaid() throws {
        let folder = Binary.temporaryDirectory(), out = Binary.temporaryDirectory()
        try "<gpx><rte><rtept lat=\"1\" lon=\"2\"/></rte></gpx>".write(toFile: folder + "/route.gpx", atomically: false, encoding: .utf8)
        let r = try Binary.run(["import", folder + "/route.gpx", "-o", out])
        #expect(r.status == 2 && r.stderr.contains("nothing imported") && r.stderr.contains("1 route point and 0 waypoints"), "\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).isEmpty)
        let cut = String(Self.walk.prefix(upTo: Self.walk.range(of: "<trkpt lat=\"48.1003\"")!.lowerBound))
        try cut.write(toFile: folder + "/cut.gpx", atomically: false, encoding: .utf8)
        let both = try Binary.run(["import", folder + "/route.gpx", folder + "/cut.gpx", "-o", out])
        #expect(both.status == 2 && both.stderr.contains("cut.gpx: the XML is broken at line 5") && both.stderr.contains("cut short"), "\(both.stderr)")
        let csv = try #require(Binary.csvFiles(in: out).first)
        #expect(try Self.locationRows(csv).count == 3)
        let alone = try Binary.run(["import", folder + "/cut.gpx", "-o", out, "--force"])
        #expect(alone.status == 1, "\(alone.stderr)")
    }

    /// Ctrl-C during an import ends it as before (by the signal), and leaves no hidden
    /// temporary file behind: it left `.NAME.….tmp` files of any size on the card.
    @Test func ctrlCLeavesNoTemporaryFile() throws {
        let folder = Binary.temporaryDirectory(), out = Binary.temporaryDirectory()
        var gpx = "<gpx><trk><trkseg>\n"
        for k in 0..<200_000 {
            gpx += "<trkpt lat=\"48.\(100_000 + k)\" lon=\"11.5\"><time>2026-11-\(21 + k / 86_400)T\(String(format: "%02d:%02d:%02d", k / 3600 % 24, k / 60 % 60, k % 60))Z</time></trkpt>\n"
        }
        try (gpx + "</trkseg></trk></gpx>\n").write(toFile: folder + "/long.gpx", atomically: false, encoding: .utf8)
        let child = try ShellChild([Binary.path, "import", folder + "/long.gpx", "-o", out])
        let temporary = { (try? FileManager.default.contentsOfDirectory(atPath: out))?.filter { $0.hasSuffix(".tmp") } ?? [] }
        #expect(DaemonTestSupport.eventually(60) { !temporary().isEmpty }, "no temporary file appeared")
        child.signal(SIGINT)
        child.wait()
        #expect(child.endingSignal == SIGINT, "\(child.outcome)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).isEmpty, "\(temporary())")
    }

    /// A GPX without <fix> and without elevations says nothing of the fixes: the health
    /// finding says what the share is of, not "altitude and accuracy suffer".
    @Test func pointsWithoutAnElevationAreNotCalledPoorFixes() throws {
        let folder = Binary.temporaryDirectory()
        let flat = Self.walk.replacingOccurrences(of: #"<ele>\d+</ele>"#, with: "", options: .regularExpression)
        try flat.write(toFile: folder + "/flat.gpx", atomically: false, encoding: .utf8)
        #expect(try Binary.run(["import", folder + "/flat.gpx"]).status == 0)
        let csv = try #require(Binary.csvFiles(in: folder).first)
        let r = try Binary.run(["summary", "--json", csv])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let findings = try #require((json["health"] as? [String: Any])?["findings"] as? [String])
        #expect(findings.contains { $0.hasPrefix("Only 0 % of the imported GPS points were 3-D fixes, or, where the GPX has no <fix>, had an elevation") }, "\(findings)")
        #expect(!findings.contains { $0.contains("accuracy suffer") }, "\(findings)")
    }

    /// Four points of a walk, a minute apart.
    static let walk = """
        <?xml version="1.0"?>
        <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
        <trkpt lat="48.1000" lon="11.5000"><ele>520</ele><time>2026-11-21T08:00:00Z</time></trkpt>
        <trkpt lat="48.1001" lon="11.5010"><ele>521</ele><time>2026-11-21T08:01:00Z</time></trkpt>
        <trkpt lat="48.1002" lon="11.5020"><ele>522</ele><time>2026-11-21T08:02:00Z</time></trkpt>
        <trkpt lat="48.1003" lon="11.5030"><ele>523</ele><time>2026-11-21T08:03:00Z</time></trkpt>
        </trkseg></trk></gpx>
        """
}
