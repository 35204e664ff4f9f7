import Foundation
import MotionCore
import Testing

@Suite("motionlog fuse")
struct FuseCLITests {
    /// A short simulator recording with the given sources; returns its CSV path.
    func record(_ sources: String, seconds: Int = 5) throws -> String {
        let out = Binary.temporaryDirectory()
        let r = try Binary.run(["record", "--board", "simulator", "--fast", "--duration", String(seconds), "--sources", sources,
                                "--out", out, "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        return try #require(Binary.csvFiles(in: out).first)
    }

    func lines(_ path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// Relative When without the input's metadata: the start is unknown, so no metadata is
    /// made up (a start of 0 had `export` date every point 1970), and the fused file is
    /// refused by `export` as its input is.
    @Test func aRelativeFileWithoutMetadataGetsNoMadeUpStart() throws {
        let out = Binary.temporaryDirectory()
        let r = try Binary.run(["record", "--board", "simulator", "--fast", "--duration", "5", "--when", "relative",
                                "--out", out, "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let recorded = try #require(Binary.csvFiles(in: out).first)
        let input = Binary.temporaryDirectory() + "/ride.csv"
        try FileManager.default.copyItem(atPath: recorded, toPath: input)
        let fused = try Binary.run(["fuse", input, "--no-calibration"])
        #expect(fused.status == 0 && fused.stdout.contains("metadata: none"), "\(fused.stdout)\(fused.stderr)")
        let output = input.replacingOccurrences(of: ".csv", with: "-fused.csv")
        #expect(FileManager.default.fileExists(atPath: output))
        #expect(!FileManager.default.fileExists(atPath: output.replacingOccurrences(of: ".csv", with: ".json")))
        #expect(try Binary.run(["export", output, "--format", "gpx"]).status == 2)
    }

    @Test("adds one D row per tick after A, G, M; keeps every other row; the result checks valid")
    func addsDeviceMotion() throws {
        let input = try record("AGML")
        let output = input.replacingOccurrences(of: ".csv", with: "-fused.csv")
        let r = try Binary.run(["fuse", input, "--no-calibration"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("500 D rows written"))
        let before = try lines(input), after = try lines(output)
        #expect(after.filter { !$0.hasPrefix("D,") } == before)
        let letters = after.dropFirst().map { $0.first! }
        #expect(letters.filter { $0 == "D" }.count == 500)
        // Recorder order within a tick: A, G, M, then D.
        for (i, c) in letters.enumerated() where c == "D" { #expect(letters[i - 1] == "M") }
        #expect(try Binary.run(["check", output]).status == 0)
        // At rest at the start of the ride, A − UA is a unit gravity vector.
        let a = after.first { $0.hasPrefix("A,") }!.split(separator: ",").dropFirst(3).compactMap { Double($0) }
        let d = after.first { $0.hasPrefix("D,") }!.split(separator: ",").dropFirst(3).compactMap { Double($0) }
        let g = (0..<3).map { a[$0] - d[3 + $0] }
        #expect(abs((g[0] * g[0] + g[1] * g[1] + g[2] * g[2]).squareRoot() - 1) < 1e-9)
        // The metadata says what computed the D rows and with which calibration.
        let json = try #require(FileManager.default.contents(atPath: output.replacingOccurrences(of: ".csv", with: ".json")))
        let meta = try RecordingMetadata.decode(Array(json))
        #expect(meta.recording.sources == "AGMDL")
        #expect(meta.recording.deviceMotion?["calibration"]?.hasPrefix("none") == true)
        #expect(meta.recording.deviceMotion?["recomputedBy"]?.contains("motionlog fuse") == true)
        #expect(meta.file.rows["D"] == 500)
        #expect(meta.recording.notes.contains { $0.contains("D rows recomputed") })
    }

    /// A fused file beside its input holds the same rows: `summary` and `export` of the
    /// folder read them once (every row and GPS point was counted twice), and the fused file
    /// is a recording of its own, so that the web page does not take it for a part.
    @Test func aFolderWithAFusedFileReadsItsRowsOnce() throws {
        let input = try record("AGML", seconds: 4)
        let folder = (input as NSString).deletingLastPathComponent
        let plain = try Binary.run(["summary", folder, "--json"])
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(try Binary.run(["fuse", input, "--no-calibration"]).status == 0)
        let output = input.replacingOccurrences(of: ".csv", with: "-fused.csv")
        let both = try Binary.run(["summary", folder, "--json"])
        #expect(both.status == 0 && both.stderr.contains("\(input): left out: \(output) holds the same rows"), "\(both.stderr)")
        func rows(_ json: String) throws -> [String: Int] {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
            return try #require(object["rows"] as? [String: Int])
        }
        #expect(try rows(both.stdout)["A"] == rows(plain.stdout)["A"])
        #expect(try rows(both.stdout)["L"] == rows(plain.stdout)["L"])
        let gpx = try Binary.run(["export", folder, "--format", "gpx"])
        let points = gpx.stdout.components(separatedBy: "<trkpt").count - 1
        #expect(points == (try rows(plain.stdout)["L"]) ?? -1, "\(gpx.stderr)")
        let metadata = { (csv: String) throws -> RecordingMetadata in
            let data = try #require(FileManager.default.contents(atPath: csv.replacingOccurrences(of: ".csv", with: ".json")))
            return try RecordingMetadata.decode(Array(data))
        }
        #expect(try metadata(output).recording.id == metadata(input).recording.id + "-fused")
        #expect(try metadata(output).recording.recomputedFrom == (input as NSString).lastPathComponent)
        // Fused again: a third recording, and the rows are still read once (the names put
        // `-fused-fused` first in the folder).
        #expect(try Binary.run(["fuse", output, "--no-calibration"]).status == 0)
        let again = output.replacingOccurrences(of: ".csv", with: "-fused.csv")
        #expect(try metadata(again).recording.id == metadata(output).recording.id + "-fused")
        let three = try Binary.run(["summary", folder, "--json"])
        #expect(try rows(three.stdout)["A"] == rows(plain.stdout)["A"], "\(three.stderr)")
        // Two outputs of one input (another calibration): one is read, and the other is
        // said to come from the same input, not to have been fused from the first.
        let other = folder + "/other.csv"
        #expect(try Binary.run(["fuse", input, "--no-calibration", "-o", other]).status == 0)
        let siblings = try Binary.run(["summary", folder, "--json"])
        #expect(try rows(siblings.stdout)["A"] == rows(plain.stdout)["A"], "\(siblings.stderr)")
        #expect(siblings.stderr.contains("both were fused from \((input as NSString).lastPathComponent)"), "\(siblings.stderr)")
    }

    /// An input cut short after recording: the fused file is complete in itself, so it
    /// says so (exit 1, stderr, metadata), and a summary of the folder, which reads the
    /// fused file in the input's stead, has the finding. It said "nothing needs your attention".
    @Test func aDamagedInputIsSaidAndCarriedToTheSummary() throws {
        let input = try record("AGML", seconds: 6)
        let folder = (input as NSString).deletingLastPathComponent
        let size = try #require(try FileManager.default.attributesOfItem(atPath: input)[.size] as? Int)
        #expect(truncate(input, off_t(size / 2)) == 0)
        let r = try Binary.run(["fuse", input, "--no-calibration"])
        #expect(r.status == 1 && r.stderr.contains("is shorter than when it was closed"), "\(r.status) \(r.stderr)")
        let output = input.replacingOccurrences(of: ".csv", with: "-fused.csv")
        let metadata = try RecordingMetadata.decode(Array(try #require(FileManager.default.contents(atPath: RecordingFiles.metadataPath(for: output)))))
        #expect(metadata.recording.deviceMotion?[RecordingDescription.inputDamagedKey]?.contains("cut short") == true)
        let summary = try Binary.run(["summary", folder])
        #expect(summary.stdout.contains("was fused from a recording that had lost rows"), "\(summary.stdout)")
        // An undamaged input gives exit 0 and no such key.
        let whole = try record("AGML", seconds: 4)
        #expect(try Binary.run(["fuse", whole, "--no-calibration"]).status == 0)
        let fine = try RecordingMetadata.decode(Array(try #require(FileManager.default.contents(
            atPath: RecordingFiles.metadataPath(for: whole.replacingOccurrences(of: ".csv", with: "-fused.csv"))))))
        #expect(fine.recording.deviceMotion?[RecordingDescription.inputDamagedKey] == nil)
    }

    @Test("replaces old D rows, uses the config's calibration, and says so in the metadata")
    func replacesWithCalibration() throws {
        let input = try record("AGMD")
        let dir = Binary.temporaryDirectory()
        let config = dir + "/config.yaml"
        try """
            calibration:
              mag_hard_iron: [12, -7, 20]
              gyro_bias: [0.004, -0.006, 0.002]
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let output = dir + "/out.csv"
        let r = try Binary.run(["fuse", input, "-o", output, "--config", config])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("500 old D rows replaced"))
        #expect(try lines(output).filter { $0.hasPrefix("D,") }.count == 500)
        let meta = try RecordingMetadata.decode(Array(try #require(FileManager.default.contents(atPath: dir + "/out.json"))))
        // Numbers as JSON numbers, units in the key names (issue 10, item 13).
        let calibration = try #require(meta.recording.calibration)
        #expect(calibration.magHardIronMicrotesla == [12, -7, 20])
        #expect(calibration.gyroBiasRadPerS == [0.004, -0.006, 0.002])
        #expect(calibration.origin == config)
        let data = try #require(FileManager.default.contents(atPath: dir + "/out.json"))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let recording = try #require(object["recording"] as? [String: Any])
        let numbers = try #require((recording["calibration"] as? [String: Any])?["gyroBiasRadPerS"] as? [Any])
        #expect(numbers.allSatisfy { $0 is NSNumber }, "\(numbers)")
        #expect(recording["finalGyroBiasRadPerS"] is [Any])
        #expect(!String(decoding: data, as: UTF8.self).contains(") rad/s"))
        let finalBias = try #require(meta.recording.finalGyroBiasRadPerS)
        #expect(finalBias.count == 3 && finalBias.allSatisfy { $0.isFinite })
    }

    /// Without --config, a recording made with a calibration is fused with that calibration
    /// (its metadata's numbers), so the recorder's D rows come back; it was fused with none,
    /// without a word, and its yaw came out up to 46° off.
    @Test func aCalibratedRecordingIsFusedWithItsOwnCalibration() throws {
        let dir = Binary.temporaryDirectory()
        let config = dir + "/config.yaml"
        try "calibration:\n  mag_hard_iron: [12, -7, 20]\n  gyro_bias: [0.004, -0.006, 0.002]\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let input = try Binary.recordSimulated(["--duration", "20", "--sources", "AGMD", "--config", config])
        let fused = try Binary.run(["fuse", input, "-o", dir + "/again.csv"])
        #expect(fused.status == 0 && fused.stdout.contains("calibration: ") && fused.stdout.contains("the recording's own"), "\(fused.stdout)")
        let recorded = try angles(input), again = try angles(dir + "/again.csv")
        #expect(recorded.count == 2000 && again.count == 2000)
        var worst = 0.0
        for (x, y) in zip(recorded, again) where x.count == 3 && y.count == 3 {
            for k in 0..<3 { worst = max(worst, abs(x[k] - y[k])) }
        }
        #expect(worst < 1e-4, "recorded vs fused again: \(worst) rad")
        let meta = try RecordingMetadata.decode(Array(try #require(FileManager.default.contents(atPath: dir + "/again.json"))))
        #expect(meta.recording.calibration?.magHardIronMicrotesla == [12, -7, 20])
        // A new calibration is applied with --config, as the help says.
        let newer = dir + "/newer.yaml"
        try "calibration:\n  mag_hard_iron: [11, -6, 19]\n".write(toFile: newer, atomically: true, encoding: .utf8)
        #expect(try Binary.run(["fuse", input, "-o", dir + "/newer.csv", "--config", newer]).status == 0)
        let newerMeta = try RecordingMetadata.decode(Array(try #require(FileManager.default.contents(atPath: dir + "/newer.json"))))
        #expect(newerMeta.recording.calibration?.magHardIronMicrotesla == [11, -6, 19])
    }

    @Test("without the magnetometer yaw starts at 0")
    func noMagnetometer() throws {
        let input = try record("AGM", seconds: 2)
        let output = Binary.temporaryDirectory() + "/o.csv"
        #expect(try Binary.run(["fuse", input, "-o", output, "--no-magnetometer", "--no-calibration"]).status == 0)
        let firstD = try lines(output).first { $0.hasPrefix("D,") }!
        // Zero up to the rounding of the heading correction (heading = −yaw of the
        // inclination, then composed with it): exactly 0.0 with the Box–Muller noise's first
        // sample, −8.5e-22 rad with the ziggurat's (issue 17); a real yaw offset is ≥ 1e-6.
        let yaw = try #require(Double(String(firstD.split(separator: ",").last ?? "")))
        #expect(abs(yaw) < 1e-15, "\(yaw)")
    }

    @Test("refuses to overwrite without --force, and to replace its input")
    func overwrite() throws {
        let input = try record("AG", seconds: 1)
        #expect(try Binary.run(["fuse", input, "--no-calibration"]).status == 0)
        let again = try Binary.run(["fuse", input, "--no-calibration"])
        #expect(again.status == 2)
        #expect(again.stderr.contains("--force"))
        #expect(try Binary.run(["fuse", input, "--no-calibration", "--force"]).status == 0)
        let same = try Binary.run(["fuse", input, "-o", input, "--force"])
        #expect(same.status == 2)
        #expect(same.stderr.contains("replace the input"))
        // Another recording is not an earlier output: --force leaves it alone.
        let other = try record("AG", seconds: 1)
        let before = try Data(contentsOf: URL(fileURLWithPath: other))
        let over = try Binary.run(["fuse", input, "--no-calibration", "-o", other, "--force"])
        #expect(over.status == 2 && over.stderr.contains("is a recording, not an earlier output of `fuse`: not written over, even with --force"), "\(over.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: other)) == before)
        // A file that is no recording is named as such (it was called "a recording").
        let notes = Binary.temporaryDirectory() + "/notes.csv"
        try "a,b\n".write(toFile: notes, atomically: false, encoding: .utf8)
        let onNotes = try Binary.run(["fuse", input, "--no-calibration", "-o", notes, "--force"])
        #expect(onNotes.status == 2 && onNotes.stderr.contains("is another file, not an earlier output of `fuse`"), "\(onNotes.stderr)")
    }

    /// A later part of a rotated recording is fused from its own first row, which is said.
    @Test func aLaterPartSaysItsFilterStartsAfresh() throws {
        let out = (try Binary.recordSimulated(["--duration", "4", "--rotate-time", "2s", "--sources", "AG"]) as NSString)
            .deletingLastPathComponent
        let parts = Binary.csvFiles(in: out)
        try #require(parts.count >= 2)
        let first = try Binary.run(["fuse", parts[0], "--no-calibration", "-o", out + "/one.csv"])
        #expect(first.status == 0 && !first.stderr.contains("starts afresh"), "\(first.stderr)")
        let second = try Binary.run(["fuse", parts[1], "--no-calibration", "-o", out + "/two.csv"])
        #expect(second.status == 0 && second.stderr.contains("is part 2 of a rotated recording: the filter starts afresh"), "\(second.stderr)")
    }

    @Test("a recording without gyroscope rows is a clear error")
    func noGyro() throws {
        let input = try record("AM", seconds: 1)
        let r = try Binary.run(["fuse", input, "--no-calibration"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("both A and G"))
    }

    /// Pitch, roll and yaw of every D row, in file order.
    func angles(_ path: String) throws -> [[Double]] {
        try lines(path).filter { $0.hasPrefix("D,") }.map { line in
            line.split(separator: ",").suffix(3).compactMap { Double($0) }
        }
    }

    @Test("with L rows, fuse uses the GPS as the recorder did: the same D rows (to the When rounding), not the IMU-only ones")
    func groundVelocityAsRecorded() throws {
        // 60 s of the ride: pulling away, a climb, a leaning turn at 28–34 s, a descent.
        let input = try record("AGMDL", seconds: 60)
        let dir = Binary.temporaryDirectory()
        #expect(try Binary.run(["fuse", input, "-o", dir + "/aided.csv", "--no-calibration"]).status == 0)
        #expect(try Binary.run(["fuse", input, "-o", dir + "/alone.csv", "--no-calibration",
                                "--parameter", "groundVelocityAiding=false"]).status == 0)
        // A recording that lost rows (a loaded machine) is not the stream the recorder fused.
        let meta = try RecordingMetadata.decode(Array(try #require(FileManager.default.contents(
            atPath: input.replacingOccurrences(of: ".csv", with: ".json")))))
        #expect(meta.counters.droppedRows == 0 && meta.counters.missedTicks == 0, "\(meta.counters)")
        let recorded = try angles(input), aided = try angles(dir + "/aided.csv"), alone = try angles(dir + "/alone.csv")
        #expect(recorded.count == 6000 && aided.count == 6000 && alone.count == 6000)
        func largestDifference(_ a: [[Double]], _ b: [[Double]], axes: Range<Int>) -> Double {
            var worst = 0.0
            for (x, y) in zip(a, b) where x.count == 3 && y.count == 3 {
                for k in axes { worst = max(worst, abs(x[k] - y[k])) }
            }
            return worst
        }
        // The recorder's periods are exact, fuse's are When differences (off by ~1e-7 s): the
        // filters agree to far below a degree, and differ by degrees without the GPS.
        let same = largestDifference(recorded, aided, axes: 0..<2)
        #expect(same < 1e-4, "recorded vs fused with GPS: \(same) rad (\(input))")
        let without = largestDifference(recorded, alone, axes: 0..<2)
        #expect(without > 0.03, "recorded vs fused without GPS: \(without) rad")
    }
}
