import Foundation
import MotionCore
import Testing

/// `motionlog summary` and the analysis export formats, run as a user runs them.
@Suite("motionlog summary and timeline exports")
struct SummaryCLITests {
    static func record(_ extra: [String], seconds: Int = 300) throws -> String {
        let out = Binary.temporaryDirectory()
        let r = try Binary.run(["record", "--board", "simulator", "--fast", "--duration", "\(seconds)", "--rate", "25",
                                "--out", out, "--quiet"] + extra)
        #expect(r.status == 0, "\(r.stderr)")
        return out
    }

    @Test func jsonSummaryOfACommuteHasNumbersAndATimeline() throws {
        let dir = try Self.record(["--scenario", "commute"])
        let r = try Binary.run(["summary", dir, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        for key in ["distance_m", "duration_s", "moving_s", "max_speed_mps", "elevation_gain_m"] {
            #expect(object[key] is NSNumber, "\(key): \(String(describing: object[key]))")
        }
        // To the millisecond, as When is written (not 299.9600000381 from two epoch Doubles).
        let duration = try #require(object["duration_s"] as? Double)
        #expect(abs(duration * 1000 - (duration * 1000).rounded()) < 1e-6 && r.stdout.contains("\"duration_s\" : \(duration)"),
                "\(duration)")
        let timeline = try #require(object["timeline"] as? [[String: Any]])
        #expect(timeline.first?["type"] as? String == "move")
        #expect(timeline.first?["activity"] as? String == "walking")
        let movement = try #require(object["movement"] as? [String: Any])
        #expect(movement["interval_s"] as? Double == 600)
        #expect(object["health"] is [String: Any])
        let human = try Binary.run(["summary", dir])
        #expect(human.status == 0 && human.stdout.contains("Timeline") && human.stdout.contains("walking"))
        // The time per activity is labelled as the total it is (it read as a repeated move).
        let totals = human.stdout.split(separator: "\n").filter { $0.hasPrefix("  In all ") }
        #expect(totals.count == 1 && totals[0].contains("walking "), "\(human.stdout)")
        // The metadata says which scenario the simulated sensors lived through.
        let names = try FileManager.default.contentsOfDirectory(atPath: dir)
        let meta = try #require(names.first { $0.hasSuffix(".json") && !$0.hasSuffix(".summary.json") })
        let text = try String(contentsOfFile: dir + "/" + meta, encoding: .utf8)
        #expect(text.contains("simulated 9-axis IMU (scripted commute)"), "\(text.prefix(600))")
    }

    @Test func timelineExportsAndWideCSV() throws {
        let dir = try Self.record(["--scenario", "commute"], seconds: 120)
        let story = try Binary.run(["export", dir, "--format", "timeline"])
        #expect(story.status == 0, "\(story.stderr)")
        let days = try #require(try JSONSerialization.jsonObject(with: Data(story.stdout.utf8)) as? [[String: Any]])
        #expect((days.first?["segments"] as? [Any])?.isEmpty == false)
        let geo = try Binary.run(["export", dir, "--format", "timeline-geojson"])
        #expect(geo.status == 0 && geo.stdout.contains("\"FeatureCollection\"") && geo.stdout.contains("LineString"))
        let wide = dir + "/wide.csv"
        let w = try Binary.run(["export", dir, "--format", "wide-csv", "-o", wide])
        #expect(w.status == 0, "\(w.stderr)")
        let lines = try String(contentsOfFile: wide, encoding: .utf8).split(separator: "\n")
        #expect(lines.first?.hasPrefix("time,label,ax,ay,az,gx") == true)
        // One line per tick; fixes land on the tick with their When (whole seconds lie on the grid).
        #expect(lines.count == 120 * 25 + 1, "\(lines.count) lines")
        #expect(lines.filter { $0.split(separator: ",", omittingEmptySubsequences: false)[20] != "" }.count >= 118)
        // Never over an existing file: this one is now also a .csv of the folder given, so
        // an input (the export reads the folder's .csv files).
        let again = try Binary.run(["export", dir, "--format", "wide-csv", "-o", wide])
        #expect(again.status == 2 && again.stderr.contains("is an input of this command"), "\(again.stderr)")
        let elsewhere = Binary.temporaryDirectory() + "/wide.csv"
        #expect(try Binary.run(["export", dir, "--format", "wide-csv", "-o", elsewhere]).status == 0)
        let twice = try Binary.run(["export", dir, "--format", "wide-csv", "-o", elsewhere])
        #expect(twice.status == 2 && twice.stderr.contains("exists"), "\(twice.stderr)")
    }

    @Test("a FIFO or a folder named .csv is refused or skipped, never waited on")
    func notARegularFile() throws {
        let dir = Binary.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir + "/inner.csv", withIntermediateDirectories: true)
        let fifo = dir + "/20261123000000.csv"
        #expect(mkfifo(fifo, 0o644) == 0)
        let ride = try Self.record([], seconds: 30)
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: ride).first { $0.hasSuffix(".csv") })
        try FileManager.default.copyItem(atPath: ride + "/" + name, toPath: dir + "/20261123100000.csv")
        // Under timeout(1): before, the open of the FIFO waited for a writer for ever.
        for command in [["summary", fifo], ["export", fifo, "--format", "gpx"], ["check", fifo]] {
            let r = try Binary.run(via: "/usr/bin/timeout", ["60", Binary.path] + command)
            #expect(r.status == 2 && r.stderr.contains("not a regular file"), "\(command): \(r.status) \(r.stderr)")
        }
        // A folder: its recording is summarised; the FIFO and the folder named .csv are skipped.
        let all = try Binary.run(via: "/usr/bin/timeout", ["60", Binary.path, "summary", dir, "--json"])
        #expect(all.status == 0 && all.stdout.contains("\"distance_m\""), "\(all.status) \(all.stderr)")
    }

    /// Intervals shorter than a minute are labelled to the second (`--interval 0.5` gave two
    /// lines "10:13"); below a second the option is refused ("Movement per 0.1 s", all 0.0).
    @Test func shortMovementIntervalsAreLabelledToTheSecond() throws {
        let csv = try Self.record([], seconds: 120)
        let r = try Binary.run(["summary", csv, "--interval", "0.5"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").drop { !$0.hasPrefix("Movement per 30 s") }.dropFirst()
            .prefix { $0.hasPrefix("  ") }.map { $0.split(separator: " ") }
        #expect(lines.count >= 4, "\(r.stdout)")
        let labels = lines.map { String($0[0]) }
        #expect(Set(labels).count == labels.count && labels.allSatisfy { $0.count == 8 }, "\(labels)")
        let tiny = try Binary.run(["summary", csv, "--interval", "0.001"])
        #expect(tiny.status != 0 && tiny.stderr.contains("use at least 1 s"), "\(tiny.stderr)")
    }

    /// A 2-second part missing from a ride: a gap of its length, and no move drawn across
    /// it or sliver of a move beside it (it was "cycling 3.0 s" across it, then "no data
    /// 0.0 s"; then "cycling 0.2 s" before the gap).
    @Test func aShortMissingPartIsAGapWithNothingDrawnAcrossIt() throws {
        let out = (try Binary.recordSimulated(["--duration", "20", "--rotate-time", "2s", "--scenario", "ride"]) as NSString)
            .deletingLastPathComponent
        let parts = Binary.csvFiles(in: out)
        try #require(parts.count >= 8)
        try FileManager.default.removeItem(atPath: parts[3])
        try FileManager.default.removeItem(atPath: parts[3].replacingOccurrences(of: ".csv", with: ".json"))
        let summary = try Binary.run(["summary", out, "--json"])
        #expect(summary.status == 0, "\(summary.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(summary.stdout.utf8)) as? [String: Any])
        let timeline = try #require(object["timeline"] as? [[String: Any]])
        let gaps = timeline.filter { $0["type"] as? String == "gap" }
        #expect(gaps.count == 1, "\(timeline)")
        let gap = try #require(gaps.first)
        #expect((gap["end"] as? Double ?? 0) - (gap["start"] as? Double ?? 0) >= 1.9, "\(gap)")
        let moves = timeline.filter { $0["type"] as? String == "move" }
        #expect(moves.allSatisfy { ($0["end"] as? Double ?? 0) - ($0["start"] as? Double ?? 0) >= 1 }, "\(moves)")
    }

    @Test func nothingToSummarise() throws {
        let dir = Binary.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let empty = dir + "/20261123000000.csv"
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        let r = try Binary.run(["summary", empty])
        #expect(r.status == 1 && r.stderr.contains("no data rows"))
        let missing = try Binary.run(["summary", dir + "/nope.csv"])
        #expect(missing.status == 2 && missing.stderr.contains("no such file"))
        let badDay = try Binary.run(["summary", dir, "--day", "2026-13-01"])
        #expect(badDay.status == 2)
        // Rows, but none on the day asked for: say so, not "empty or not a recording?".
        let noon = dir + "/20261123120000.csv"
        try (CSVFormat.headerLine + "\nL,W,1795435200.0,48.1,11.5,500.0,1.0,nan,nan,5.0,nan,3\n")
            .write(toFile: noon, atomically: true, encoding: .utf8)
        let otherDay = try Binary.run(["summary", noon, "--day", "2026-11-25"])
        #expect(otherDay.status == 1 && otherDay.stderr.contains("no data rows on 2026-11-25"), "\(otherDay.stderr)")
        #expect(!otherDay.stderr.contains("not a recording"))
    }

    /// A file that is not a recording (bytes that are no text) or an empty one: only the
    /// error, no report of nothing ("no data rows") on stdout; `export` gives the true
    /// reason, binary data, and not "was GPS recorded?" after it.
    @Test func notARecordingGivesOnlyTheError() throws {
        let dir = Binary.temporaryDirectory()
        let binary = dir + "/random.csv", empty = dir + "/empty.csv"
        #expect(FileManager.default.createFile(atPath: binary, contents: Data((0..<2000).map { UInt8(($0 * 7919 + 13) % 256) })))
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        for file in [binary, empty] {
            for command in [["summary", file], ["summary", file, "--json"]] {
                let r = try Binary.run(command)
                #expect(r.status == 1 && r.stderr.contains("no data rows in \(file)"), "\(command): \(r.stderr)")
                #expect(r.stdout.isEmpty, "\(command): \(r.stdout)")
            }
        }
        for format in ["gpx", "geojson"] {
            let r = try Binary.run(["export", binary, "--format", format])
            #expect(r.status == 1 && r.stdout.isEmpty)
            #expect(r.stderr.contains("\(binary):1: not a recording (binary data at byte"), "\(r.stderr)")
            #expect(!r.stderr.contains("no L rows") && !r.stderr.contains("GPS recorded"), "\(r.stderr)")
            // An empty file is said to be empty (it asked "was GPS recorded?").
            let e = try Binary.run(["export", empty, "--format", format])
            #expect(e.status == 1 && e.stdout.isEmpty)
            #expect(e.stderr.contains("\(empty) is empty (0 bytes): nothing to export") && !e.stderr.contains("GPS recorded"), "\(e.stderr)")
        }
    }

    /// An export with no rows writes nothing: no header-only file, and with --force an
    /// earlier export stays (it was replaced by a header before).
    @Test func emptyWideCSVExportWritesNothing() throws {
        let dir = Binary.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let empty = dir + "/20261123000000.csv", noon = dir + "/20261123120000.csv"
        try CSVFormat.headerLine.write(toFile: empty, atomically: true, encoding: .utf8)
        try (CSVFormat.headerLine + "\nL,W,1795435200.0,48.1,11.5,500.0,1.0,nan,nan,5.0,nan,3\n")
            .write(toFile: noon, atomically: true, encoding: .utf8)
        let out = dir + "/wide.csv"
        let none = try Binary.run(["export", empty, "--format", "wide-csv", "-o", out])
        #expect(none.status == 1 && none.stderr.contains("nothing exported"), "\(none.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        let good = try Binary.run(["export", noon, "--format", "wide-csv", "-o", out])
        #expect(good.status == 0, "\(good.stderr)")
        let exported = try String(contentsOfFile: out, encoding: .utf8)
        let forced = try Binary.run(["export", empty, "--format", "wide-csv", "-o", out, "--force"])
        #expect(forced.status == 1)
        #expect(try String(contentsOfFile: out, encoding: .utf8) == exported)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == [empty, noon, out].map { ($0 as NSString).lastPathComponent }.sorted())
    }
}
