import Foundation
import MotionCore
import Testing
@testable import MotionApp

/// `export`, `fuse` and `check` on the files a user has, run as a user runs them
/// (issue 10, items 2, 6, 7 and the minor ones).
@Suite("File commands never overwrite, and tell the truth about hostile files")
struct FileCommandsTrustTests {
    /// A short simulator recording with GPS; returns its CSV path.
    static func record(_ extra: [String] = [], seconds: Int = 12) throws -> String {
        let out = Binary.temporaryDirectory()
        let r = try Binary.run(["record", "--board", "simulator", "--fast", "--duration", String(seconds), "--rate", "20",
                                "--out", out, "--quiet"] + extra)
        #expect(r.status == 0, "\(r.stderr)")
        return try #require(Binary.csvFiles(in: out).first)
    }

    static func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    @Test func exportNeverWritesOverItsInput() throws {
        let csv = try Self.record()
        let before = try #require(Self.bytes(csv))
        let dir = (csv as NSString).deletingLastPathComponent
        let name = (csv as NSString).lastPathComponent
        for output in [csv, dir + "/./" + name, dir + "/../" + (dir as NSString).lastPathComponent + "/" + name] {
            for force in [[], ["--force"]] {
                let r = try Binary.run(["export", csv, "-o", output] + force)
                #expect(r.status == 2, "\(output) \(force): \(r.stderr)")
                #expect(r.stderr.contains("input"), "\(r.stderr)")
            }
        }
        #expect(Self.bytes(csv) == before)
        // A hard link to the recording is the recording.
        let link = dir + "/link.gpx"
        try FileManager.default.linkItem(atPath: csv, toPath: link)
        let r = try Binary.run(["export", csv, "-o", link, "--force"])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(Self.bytes(csv) == before)
    }

    @Test func anExistingOutputNeedsForce() throws {
        let csv = try Self.record()
        let out = Binary.temporaryDirectory() + "/track.gpx"
        try "keep me\n".write(toFile: out, atomically: false, encoding: .utf8)
        let refused = try Binary.run(["export", csv, "-o", out])
        #expect(refused.status == 2 && refused.stderr.contains("--force"), "\(refused.stderr)")
        #expect(Self.bytes(out) == Data("keep me\n".utf8))
        let forced = try Binary.run(["export", csv, "-o", out, "--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(String(decoding: try #require(Self.bytes(out)), as: UTF8.self).hasPrefix("<?xml"))
        let folder = (out as NSString).deletingLastPathComponent
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["track.gpx"])
        // A folder that does not exist: what, where, what to do; no Foundation error codes.
        let missing = try Binary.run(["export", csv, "-o", folder + "/nope/track.gpx"])
        #expect(missing.status == 2 && missing.stderr.contains("does not exist"), "\(missing.stderr)")
        #expect(!missing.stderr.contains("NSCocoaErrorDomain"))
    }

    @Test func exportCountsWhatItSkips() throws {
        let csv = try Self.record()
        let good = try ExportCLITests.locationRows(csv).count
        let handle = try #require(FileHandle(forWritingAtPath: csv))
        handle.seekToEndOfFile()
        handle.write(Data("L,W,9999999999.0,91.0,10.0,0.0,0.0,0.0,0.0,1.0,1.0,3\nL,W,9999999999.5,45.0,200.0,0.0,0.0,0.0,0.0,1.0,1.0,3\nL,W,1e300,45.0,10.0,0.0,0.0,0.0,0.0,1.0,1.0,3\n".utf8))
        try handle.close()
        let r = try Binary.run(["export", csv, "--format", "geojson"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("3 lines skipped") && r.stderr.contains("latitude"), "\(r.stderr)")
        #expect(!r.stdout.contains("invalid-time"))
        struct Feature: Decodable { struct P: Decodable { var times: [Double] }; var properties: P }
        let f = try JSONDecoder().decode(Feature.self, from: Data(r.stdout.utf8))
        #expect(f.properties.times.count == good)
        let check = try Binary.run(["check", csv])
        #expect(check.status == 1)
        #expect(check.stdout.contains("latitude") && check.stdout.contains("longitude") && check.stdout.contains("When"), "\(check.stdout)")
    }

    @Test func crlfIsReportedOnceAndNothingIsCalledSkipped() throws {
        let csv = try Self.record()
        let text = try String(contentsOfFile: csv, encoding: .utf8)
        try text.replacingOccurrences(of: "\n", with: "\r\n").write(toFile: csv, atomically: false, encoding: .utf8)
        let r = try Binary.run(["export", csv, "--format", "geojson"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("CRLF") && !r.stderr.contains("skipped"), "\(r.stderr)")
        let check = try Binary.run(["check", "--quiet", csv])
        #expect(check.status == 1 && check.stdout.contains("INVALID (1 error)"), "\(check.stdout)")
    }

    @Test func checkOnABinaryFileSaysSoInOneLine() throws {
        let path = Binary.temporaryDirectory() + "/motionlog"
        try Binary.copy(to: path)
        let r = try Binary.run(["check", "--quiet", path])
        #expect(r.status == 1)
        #expect(r.stdout.contains("not a recording (binary data at byte 0)"), "\(r.stdout.prefix(500))")
        #expect(r.stdout.split(separator: "\n").count == 2, "\(r.stdout.prefix(500))")
    }

    @Test func fuseLeavesOutRowsWhoseTimeGoesBackwardsAndSaysSo() throws {
        let csv = try Self.record(["--sources", "AGM"], seconds: 3)
        // Append an earlier tick (a clock step in an old file): When goes backwards.
        let handle = try #require(FileHandle(forWritingAtPath: csv))
        handle.seekToEndOfFile()
        let rows = try RecordingReader(path: csv).readAll().rows
        let early = rows[0].when
        handle.write(Data("A,W,\(early),0.0,0.0,-1.0\nG,W,\(early),0.0,0.0,0.0\nM,W,\(early),20.0,0.0,-40.0\n".utf8))
        try handle.close()
        let out = Binary.temporaryDirectory() + "/fused.csv"
        let r = try Binary.run(["fuse", csv, "-o", out, "--no-calibration"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("3 rows left out because When goes backwards"), "\(r.stderr)")
        let check = try Binary.run(["check", out])
        #expect(check.status == 0, "\(check.stdout)")
        // And fuse never writes over its input or (without --force) its previous output.
        #expect(try Binary.run(["fuse", csv, "-o", csv, "--force"]).status == 2)
        let again = try Binary.run(["fuse", csv, "-o", out])
        #expect(again.status == 2 && again.stderr.contains("--force"), "\(again.stderr)")
    }

    @Test func relativeLocationWhenIsWrittenAsTheShortestDecimal() throws {
        let csv = try Self.record(["--when", "relative"])
        let lines = try String(contentsOfFile: csv, encoding: .utf8).split(separator: "\n").filter { $0.hasPrefix("L,") }
        #expect(lines.count >= 10)
        for line in lines {
            let when = line.split(separator: ",")[2]
            let decimals = when.split(separator: ".").last.map(\.count) ?? 0
            #expect(decimals <= 6, "\(line)")
        }
    }

    @Test func evenSubsetKeepsABoundedSpreadOfTheWholeStream() {
        var s = EvenSubset<Int>(capacity: 100)
        for i in 0..<1_000_000 { s.add(i) }
        #expect(s.kept.count <= 100 && s.kept.count >= 50)
        #expect(s.kept.first == 0)
        #expect((s.kept.last ?? 0) > 990_000)
        let steps = Set(zip(s.kept, s.kept.dropFirst()).map { $1 - $0 })
        #expect(steps.count == 1)
    }

    @Test func progressShowsOnlyAfterASecondAndIsErased() {
        var now = 0.0
        var out: [String] = []
        let meter = ProgressMeter(verb: "checking", totalBytes: 2_000_000, enabled: true, now: { now }, output: { out.append($0) })
        meter.begin("x.csv", bytesBefore: 0)
        meter.update(100_000)
        #expect(out.isEmpty)
        now = 1.5
        meter.update(1_000_000)
        now = 1.6
        meter.update(1_100_000)  // within 0.25 s: not redrawn
        #expect(out.count == 1 && out[0].contains("50 %") && out[0].contains("x.csv"), "\(out)")
        meter.finish()
        #expect(out.last == "\r\u{1B}[K")
        let quiet = ProgressMeter(verb: "checking", totalBytes: 1, enabled: false, now: { 10 }, output: { out.append($0) })
        quiet.update(1)
        quiet.finish()
        #expect(out.count == 2)
    }
}
