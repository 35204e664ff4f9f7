import Foundation
@testable import MotionApp
import MotionConfig
import MotionCore
import MotionMath
import Testing

@Suite("motionlog calibrate")
struct CalibrateCLITests {
    static let hardIron = Vector3(-18.5, 9.25, 31)
    static let softIron = Matrix3(rows: Vector3(1.08, 0.06, -0.02), Vector3(0.06, 0.95, 0.03), Vector3(-0.02, 0.03, 0.99))
    static let gyroBias = Vector3(0.012, -0.02, 0.007)

    /// A recording of a magnetometer with known distortion: 5 s still, then turned through
    /// every orientation (a fresh random attitude each tick; the fit needs no continuity).
    static func writeRecording(_ path: String) throws {
        var bytes = CSVFormat.headerBytes
        var state: UInt64 = 11
        func uniform() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / 9_007_199_254_740_992.0
        }
        func gaussian() -> Double { (-2 * log(max(uniform(), 1e-300))).squareRoot() * cos(2 * Double.pi * uniform()) }
        let field = Vector3(1.2, 19.5, -45)  // ENU, µT
        for k in 0..<4200 {
            let when = 1_763_735_405 + Double(k) / 100
            var q = Quaternion.identity
            var rate = Vector3.zero
            if k >= 500 {
                let axis = Vector3(gaussian(), gaussian(), gaussian())
                q = Quaternion(axis: axis, angle: 2 * Double.pi * uniform())
                rate = Vector3(gaussian(), gaussian(), gaussian())
            }
            let a = q.inverseRotate(Vector3(0, 0, -1)) + Vector3(gaussian(), gaussian(), gaussian()) * 0.002
            let g = rate + gyroBias + Vector3(gaussian(), gaussian(), gaussian()) * 0.002
            let m = softIron * q.inverseRotate(field) + hardIron + Vector3(gaussian(), gaussian(), gaussian()) * 0.3
            for (s, v) in [(Source.accelerometer, a), (.gyroscope, g), (.magnetometer, m)] {
                RowEncoder.append(Row(source: s, label: Label.defaultLetter, when: when, v.x, v.y, v.z), to: &bytes)
            }
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// The numbers of `key: [a, b, c]` in the section, and the three rows under `key:`.
    func vector(_ key: String, in text: String) -> [Double]? {
        guard let line = text.split(separator: "\n").first(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix(key + ":") }),
              let open = line.firstIndex(of: "["), let close = line.firstIndex(of: "]") else { return nil }
        return line[line.index(after: open)..<close].split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
    }

    func matrix(_ key: String, in text: String) -> [[Double]] {
        let lines = text.split(separator: "\n").map(String.init)
        guard let i = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix(key + ":") }) else { return [] }
        return lines[(i + 1)...].prefix(3).map { l in
            guard let open = l.firstIndex(of: "["), let close = l.firstIndex(of: "]") else { return [] }
            return l[l.index(after: open)..<close].split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        }
    }

    @Test("--from a recording of a distorted magnetometer recovers the hard and soft iron and the gyro bias, into the config")
    func fromRecording() throws {
        let dir = Binary.temporaryDirectory()
        try Self.writeRecording(dir + "/turning.csv")
        let config = dir + "/config.yaml"
        try "# my settings\nrate: 200   # Hz\n\ncalibration:\n  accel_offset: [0.01, 0, 0]\n  mag_hard_iron: [1, 2, 3]\n\nlabel: T\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let r = try Binary.run(["calibrate", "--from", dir + "/turning.csv", "--config", config, "--field", "49"])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        let text = try String(contentsOfFile: config, encoding: .utf8)
        let hard = try #require(vector("mag_hard_iron", in: text))
        #expect(abs(hard[0] - Self.hardIron.x) < 0.2 && abs(hard[1] - Self.hardIron.y) < 0.2 && abs(hard[2] - Self.hardIron.z) < 0.2)
        // The soft-iron correction is the inverse of the distortion, scaled to the field given (the
        // simulated field is 48.95 µT, so allow 0.2 % of scale).
        let soft = matrix("mag_soft_iron", in: text)
        let inverse = try #require(Self.softIron.inverse)
        #expect(soft.count == 3)
        for row in 0..<3 { for col in 0..<3 {
            #expect(abs(soft[row][col] - inverse[row, col]) < 0.006, "soft iron [\(row)][\(col)] \(soft[row][col]) vs \(inverse[row, col])")
        } }
        let bias = try #require(vector("gyro_bias", in: text))
        #expect(abs(bias[0] - Self.gyroBias.x) < 0.001 && abs(bias[1] - Self.gyroBias.y) < 0.001 && abs(bias[2] - Self.gyroBias.z) < 0.001)
        // The rest of the file is kept, and so is the accelerometer calibration.
        #expect(text.hasPrefix("# my settings\nrate: 200   # Hz\n\ncalibration:\n"))
        #expect(text.hasSuffix("\n\nlabel: T\n"))
        #expect(text.contains("accel_offset: [0.01, 0.0, 0.0]"))
        #expect(!text.contains("[1.0, 2.0, 3.0]"))
        // And a recording reprocessed with it uses it.
        let fuse = try Binary.run(["fuse", dir + "/turning.csv", "--config", config])
        #expect(fuse.status == 0, "\(fuse.stderr)")
        #expect(fuse.stdout.contains("mag_hard_iron [\(hard.map { "\(($0 * 1000).rounded() / 1000)" }.joined(separator: ", "))]"))
    }

    @Test("a bike ride does not cover the orientations: DO IT AGAIN, exit 1, nothing written")
    func poorCoverage() throws {
        let dir = Binary.temporaryDirectory()
        #expect(try Binary.run(["record", "--board", "simulator", "--fast", "--duration", "60", "--sources", "AGM",
                                "--out", dir, "--quiet"]).status == 0)
        let file = try #require(Binary.csvFiles(in: dir).first)
        let r = try Binary.run(["calibrate", "--from", file, "--config", dir + "/config.yaml"])
        #expect(r.status == 1)
        #expect(r.stdout.contains("DO IT AGAIN"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/config.yaml"))
    }

    @Test("20 s of a ride barely turns the device: the coverage says so (it said 100 % around a fit inside the cluster)")
    func aClusterCoversNothing() throws {
        let dir = Binary.temporaryDirectory()
        #expect(try Binary.run(["record", "--board", "simulator", "--fast", "--duration", "20", "--sources", "AGM",
                                "--out", dir, "--quiet"]).status == 0)
        let file = try #require(Binary.csvFiles(in: dir).first)
        let r = try Binary.run(["calibrate", "--from", file, "--dry-run"])
        #expect(r.status == 1 && r.stdout.contains("DO IT AGAIN"))
        let coverage = r.stdout.components(separatedBy: "coverage ").dropFirst().first.flatMap { Int($0.prefix { $0.isNumber }) }
        #expect(coverage.map { $0 < 50 } == true, "\(r.stdout)")
    }

    /// A commute's readings all lie within a few µT of their median: no direction is seen
    /// at all, which is said as such (it read "never pointed along +X, -X, +Y, -Y, +Z, -Z").
    @Test func noDirectionSeenIsSaidAsSuch() throws {
        let file = try Binary.recordSimulated(["--duration", "600", "--scenario", "commute", "--sources", "AGM", "--rate", "20"])
        let r = try Binary.run(["calibrate", "--from", file, "--dry-run"])
        #expect(r.status == 1 && r.stdout.contains("DO IT AGAIN"), "\(r.stdout)")
        #expect(r.stdout.contains("the field's direction hardly changed") && !r.stdout.contains("+X, -X, +Y, -Y, +Z, -Z"), "\(r.stdout)")
    }

    @Test("10 s of the demo ride: the coverage is the problem, not a fitted 0.56 µT with a units hint")
    func aShortRideBlamesTheCoverageNotTheUnits() throws {
        let dir = Binary.temporaryDirectory()
        #expect(try Binary.run(["record", "--board", "simulator", "--fast", "--duration", "10", "--out", dir, "--quiet"]).status == 0)
        let file = try #require(Binary.csvFiles(in: dir).first)
        let r = try Binary.run(["calibrate", "--from", file, "--dry-run"])
        #expect(r.status == 1 && r.stdout.contains("DO IT AGAIN"), "\(r.stdout)")
        #expect(r.stdout.contains("of the orientations were covered") && r.stdout.contains("too little for a fit"), "\(r.stdout)")
        #expect(!r.stdout.contains("units") && !r.stdout.contains("µT is outside") && !r.stdout.contains("hard iron"), "\(r.stdout)")
        // The raw readings of the simulated magnetometer: Earth's field, plausibly sized.
        let raw = r.stdout.components(separatedBy: "raw field median ").dropFirst().first.flatMap { Double($0.prefix { $0.isNumber || $0 == "." }) }
        #expect(raw.map { (20...70).contains($0) } == true, "\(r.stdout)")
    }

    @Test("live on the simulator: guided still and turning phases find the simulated IMU's distortion")
    func liveSimulator() throws {
        let dir = Binary.temporaryDirectory()
        let r = try Binary.run(["calibrate", "--board", "simulator", "--fast", "--config", dir + "/c.yaml"])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("Step 1/2") && r.stdout.contains("Step 2/2"))
        // The last live coverage is the result's (it was 91 % live, 81 % in the result).
        func percent(after marker: String, in line: Substring) -> Int? {
            line.range(of: marker).flatMap { Int(line[$0.upperBound...].prefix { $0.isNumber }) }
        }
        let lines = r.stdout.split(separator: "\n")
        let live = try #require(lines.last { $0.contains(" s: coverage ") }.flatMap { percent(after: " s: coverage ", in: $0) })
        let result = try #require(lines.first { $0.hasPrefix("Magnetometer:") }.flatMap { percent(after: "coverage ", in: $0) })
        #expect(live == result && result >= 90, "\(r.stdout)")
        #expect(r.stdout.contains("Quality: good"))
        let text = try String(contentsOfFile: dir + "/c.yaml", encoding: .utf8)
        // The simulator's IMU: hard iron (12, −7, 20) µT, gyro bias (0.004, −0.006, 0.002) rad/s.
        let hard = try #require(vector("mag_hard_iron", in: text))
        #expect(abs(hard[0] - 12) < 0.3 && abs(hard[1] + 7) < 0.3 && abs(hard[2] - 20) < 0.3)
        let bias = try #require(vector("gyro_bias", in: text))
        #expect(abs(bias[0] - 0.004) < 0.001 && abs(bias[1] + 0.006) < 0.001 && abs(bias[2] - 0.002) < 0.001)
    }

    @Test("the simulator writes no config unless told; messages say created or updated; the write is durable")
    func simulatorWritesOnlyWhereTold() throws {
        // Without --config the simulator writes nowhere (as root it used to create /etc/motionlog/config.yaml).
        #expect(CalibrateCommand.configTarget(explicit: nil, simulated: true) == nil)
        #expect(CalibrateCommand.configTarget(explicit: nil, simulated: false) == "/etc/motionlog/config.yaml")
        #expect(CalibrateCommand.configTarget(explicit: "/tmp/c.yaml", simulated: true) == "/tmp/c.yaml")
        let dir = Binary.temporaryDirectory()
        let first = try Binary.run(["calibrate", "--board", "simulator", "--fast", "--config", dir + "/c.yaml"])
        #expect(first.status == 0 && first.stdout.contains("Created \(dir)/c.yaml with the calibration section."), "\(first.stdout)")
        #expect(!first.stdout.contains("unchanged"))
        let again = try Binary.run(["calibrate", "--board", "simulator", "--fast", "--config", dir + "/c.yaml"])
        #expect(again.stdout.contains("Updated \(dir)/c.yaml: its calibration section was replaced; the rest of the file is unchanged."))
        try "rate: 50\n".write(toFile: dir + "/d.yaml", atomically: true, encoding: .utf8)
        #expect(chmod(dir + "/d.yaml", 0o600) == 0)
        let added = try Binary.run(["calibrate", "--board", "simulator", "--fast", "--config", dir + "/d.yaml"])
        #expect(added.stdout.contains("Updated \(dir)/d.yaml: a calibration section was added at the end"))
        let text = try String(contentsOfFile: dir + "/d.yaml", encoding: .utf8)
        #expect(text.hasPrefix("rate: 50\n\ncalibration:\n"))
        var st = stat()
        #expect(stat(dir + "/d.yaml", &st) == 0 && st.st_mode & 0o777 == 0o600)      // the file's mode is kept
        #expect(!FileManager.default.fileExists(atPath: dir + "/d.yaml.motionlog-tmp"))
    }

    @Test("the config is never written through a symlink planted at the temporary name")
    func plantedSymlinkIsReplacedNotFollowed() throws {
        let dir = Binary.temporaryDirectory()
        try "precious\n".write(toFile: dir + "/victim", atomically: true, encoding: .utf8)
        #expect(symlink(dir + "/victim", dir + "/c.yaml.motionlog-tmp") == 0)
        try ConfigFileEdit.write("rate: 50\n", to: dir + "/c.yaml")
        #expect(try String(contentsOfFile: dir + "/victim", encoding: .utf8) == "precious\n")
        #expect(try String(contentsOfFile: dir + "/c.yaml", encoding: .utf8) == "rate: 50\n")
    }

    /// A config kept as a symbolic link is written where it points, and stays a link:
    /// `calibrate` and `web-password` replaced the link with a plain file, and the file it
    /// pointed to kept the old settings.
    @Test func aConfigThatIsALinkIsWrittenWhereItPoints() throws {
        let dir = Binary.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir + "/real", withIntermediateDirectories: true)
        try "label: W\n".write(toFile: dir + "/real/config.yaml", atomically: true, encoding: .utf8)
        #expect(symlink("real/config.yaml", dir + "/config.yaml") == 0)
        #expect(symlink(dir + "/config.yaml", dir + "/again.yaml") == 0)   // a link to the link
        try ConfigFileEdit.write("label: T\n", to: dir + "/again.yaml")
        #expect(try String(contentsOfFile: dir + "/real/config.yaml", encoding: .utf8) == "label: T\n")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: dir + "/config.yaml")) == "real/config.yaml")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: dir + "/again.yaml")) == dir + "/config.yaml")
    }
}
