import ArgumentParser
import Foundation
import MotionConfig
import MotionCore
import MotionFusion
import MotionMath
import MotionSystem

/// `motionlog fuse IN.csv [-o OUT.csv]`: recomputes the `D` rows of a recording from its
/// `A`, `G` and `M` rows, with the current calibration. Other rows are kept as they are.
struct FuseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fuse",
        abstract: "Recompute the D (device motion) rows of a recording from its A, G and M rows.",
        discussion: """
            Reprocesses a recording with the sensor fusion of this version and a calibration: \
            with --config FILE its `calibration:` section (see `motionlog calibrate`); without, \
            the one the recording was made with (its metadata), else the system config's: old D rows \
            are replaced, every other row is kept byte for byte in value. A D row is written for \
            every tick with both A and G rows; M rows, when present, reference yaw to magnetic \
            north. The metadata JSON beside the output says which calibration was used.
            Rows whose When does not increase for their source are left out (and counted), so \
            the output passes `motionlog check`. The output never replaces the input or its \
            metadata; existing outputs need --force; both files are written to temporary files \
            and renamed when complete.
            Exit status: 0 done, 1 written, but the input had lost rows since it was recorded \
            (cut short or damaged: the output says so in its metadata), 2 usage or I/O error.
            """)

    @Argument(help: "The recording to reprocess (.csv).")
    var input: String

    @Option(name: [.short, .customLong("output")], help: "Output file (default: IN-fused.csv beside the input).")
    var output: String?

    @Option(name: .long, help: "Config file whose `calibration:` section to use (default: the calibration the recording was made with; else /etc/motionlog/config.yaml if present, for recordings with motionlog metadata).")
    var config: String?

    @Flag(name: .long, help: "Ignore any calibration: raw accelerometer and magnetometer.")
    var noCalibration = false

    @Flag(name: .long, help: "Do not use M rows: yaw starts at 0 and follows the gyroscope.")
    var noMagnetometer = false

    @Option(name: .long, help: "Magnetic declination in degrees (east positive): yaw referenced to true north.")
    var declination: Double?

    @Option(name: .customLong("parameter"), help: ArgumentHelp("Advanced: set a fusion parameter, NAME=VALUE (SI units; repeatable; see docs/FUSION.md).", valueName: "NAME=VALUE"))
    var parameterAssignments: [String] = []

    @Flag(name: .long, help: "Overwrite the output files if they exist.")
    var force = false

    func validate() throws {
        if let d = declination, !(d.isFinite && abs(d) <= 180) {
            throw ValidationError("--declination \(d): use degrees within -180...180 (east positive)")
        }
    }

    func run() throws {
        let out = output ?? Self.defaultOutput(for: input)
        let metadataPath = try Self.checkPaths(input: input, output: out, force: force)
        let inputMetadata = RecordingFiles.readMetadata(besides: input)
        let calibration = try loadCalibration(hasMetadata: inputMetadata != nil,
                                              chipCompensated: inputMetadata?.recording.deviceMotion?["source"] == "chip",
                                              recorded: inputMetadata?.recording.calibration)
        var parameters = FusionParameters()
        parameters.useMagnetometer = !noMagnetometer
        parameters.declination = declination.map { $0 * Double.pi / 180 }
        for a in parameterAssignments {
            if let problem = parameters.set(a) { throw CommandFailure.usage("--parameter \(problem)") }
        }
        let filter: DeviceMotionFilter
        do { filter = try DeviceMotionFilter(calibration: calibration, parameters: parameters) } catch {
            throw CommandFailure.usage("\(error)")
        }
        let inputs = [input, RecordingFiles.metadataPath(for: input)]
        let csvFile: SafeOutputFile, metadataFile: SafeOutputFile
        do {
            csvFile = try SafeOutputFile(path: out, inputs: inputs, overwrite: force)
            metadataFile = try SafeOutputFile(path: metadataPath, inputs: inputs, overwrite: force)
        } catch { throw CommandFailure("\(error)", code: 2) }
        let rate = inputMetadata?.recording.rateHz
        let progress = ProgressMeter(verb: "fusing", paths: [input])
        progress.begin(input, bytesBefore: 0)
        var rewriter = DeviceMotionRewriter(estimator: filter, firstPeriod: rate.map { 1 / Double($0) } ?? 0,
                                            clockStep: ClockStep(inputMetadata))
        let rewrite: RewriteResult
        do {
            rewrite = try RecordingRewrite.rewrite(input: input, output: csvFile, through: &rewriter,
                                                   progress: { progress.update($0) })
        } catch { progress.finish(); throw CommandFailure("\(error)", code: 2) }
        progress.finish()
        let result = FuseResult(rewrite: rewrite, rewriter: rewriter)
        for p in rewrite.problems { Console.error("\(input):\(p.line): \(p.severity.rawValue): \(p.message)") }
        if rewrite.moreProblems > 0 { Console.error("\(input): \(rewrite.moreProblems) more problems not shown") }
        if rewrite.skippedLines > 0 {
            Console.error("\(input): \(rewrite.skippedLines) defective line\(rewrite.skippedLines == 1 ? "" : "s") skipped (see `motionlog check \(input)`)")
        }
        if let first = rewrite.firstOutOfOrder {
            Console.error("\(input): \(rewrite.outOfOrderRows) row\(rewrite.outOfOrderRows == 1 ? "" : "s") left out because When goes backwards (first: line \(first.line): \(first.message)); the output keeps time order")
        }
        guard result.rewriter.deviceMotionRows > 0 else {
            throw CommandFailure("\(input) has no tick with both A and G rows: D rows need the accelerometer and the gyroscope; nothing written", code: 2)
        }
        var info = filter.info
        info[FuseOutput.recomputedBy] = "motionlog fuse \(MotionLogCommand.version) from \((input as NSString).lastPathComponent)"
        info[RecordingDescription.recomputedFromKey] = (input as NSString).lastPathComponent
        if result.rewriter.magnetometerSamples == 0 && !noMagnetometer {
            info["yawReference"] = "start heading (the recording has no M rows): yaw starts at 0"
        }
        // An input that lost rows since it was recorded (cut short, damaged) makes a fused
        // file that is complete in itself: it says so, and so does its metadata, which the
        // summary reads (the input is then left out as a copy of the same rows).
        let damage = Self.inputDamage(inputMetadata, input: input, rewrite: rewrite)
        if let damage {
            Console.error("\(damage); the fused file holds only the rows that are left (exit status 1)")
            info[RecordingDescription.inputDamagedKey] = damage
        }
        var metadata = FuseOutput.fusedMetadata(from: inputMetadata, input: input, output: out, result: result,
                                                    info: info, calibration: calibration)
        let bias = filter.estimate.gyroBias
        metadata?.recording.finalGyroBiasRadPerS = [bias.x, bias.y, bias.z]
        if let metadata { try FuseOutput.writeMetadata(metadata, to: metadataFile) } else { metadataFile.discard() }
        do {
            try SafeOutputFile.commitRecording(csv: csvFile, metadata: metadata != nil ? metadataFile : nil)
        } catch { throw CommandFailure("\(error)", code: 2) }
        let r = result.rewriter
        Console.out("""
            \(out): \(r.deviceMotionRows) D rows written (\(r.replacedRows) old D rows replaced), \
            \(rewrite.rowsWritten - r.deviceMotionRows) other rows kept
              magnetometer: \(r.magnetometerSamples > 0 && !noMagnetometer ? "\(r.magnetometerSamples) samples used, yaw from \(declination == nil ? "magnetic" : "true") north" : "not used, yaw starts at 0")
              calibration: \(calibration.summary)
              metadata: \(metadata == nil ? "none: the input has relative When and no metadata with its start time" : metadataPath)
            """)
        if r.incompleteTicks > 0 {
            Console.error("\(CountText.of(r.incompleteTicks, "tick")) had only one of A and G: no D row for \(r.incompleteTicks == 1 ? "it" : "them")")
        }
        // A later part of a rotated recording: the recorder's filter had run since part 1,
        // this one starts from its first row (docs/FUSION.md): said, not left to be found.
        if let index = inputMetadata?.file.index, index > 1 {
            Console.error("\(input) is part \(index) of a rotated recording: the filter starts afresh at its first row (the recorder's had run since part 1), so the first seconds' attitude may differ from the recorded D rows")
        }
        if damage != nil { throw CommandFailure("", code: 1) }
    }

    /// Whether the input holds fewer A, G, M or L rows than its metadata says it was closed
    /// with (D rows are recomputed, so not compared): the sentence, nil when it holds them all.
    static func inputDamage(_ metadata: RecordingMetadata?, input: String, rewrite: RewriteResult) -> String? {
        guard var expected = metadata else { return nil }
        expected.file.rows["D"] = nil
        var kept: [Source: Int] = [:]
        for (key, n) in rewrite.rowsBySource where key != "D" {
            if let letter = key.first, let source = Source(letter: letter) { kept[source] = n }
        }
        let size = (try? FileSystem.status(input).size) ?? 0
        return CutShortFile(metadata: expected, fileBytes: size, fileRows: kept)?.sentence(subject: (input as NSString).lastPathComponent)
    }

    /// The calibration to apply: none with --no-calibration; the --config file's; else the
    /// one the recording was made with (`recorded`, its metadata's numbers), so that fuse
    /// reproduces the recorder's D rows (it used the system config's, or none, and a
    /// calibrated recording's yaw came out 46° off); else the system config's — but only
    /// for a recording motionlog made (with its metadata): a file from elsewhere was not
    /// recorded by this machine's IMU, and one recorded with the chip's own fusion
    /// (`--device-motion chip`) holds A/G/M the chip compensated.
    func loadCalibration(hasMetadata: Bool, chipCompensated: Bool = false,
                         recorded: CalibrationRecord? = nil) throws(CommandFailure) -> FusionCalibration {
        if noCalibration { return .none }
        if config == nil, !chipCompensated, let recorded {
            let origin = "the recording's own" + (recorded.origin.map { ", from \($0)" } ?? "")
            guard let c = FusionCalibration(record: recorded, origin: origin) else {
                throw .usage("\(input): its metadata's calibration is damaged (not 3 numbers per vector): pass --config FILE or --no-calibration")
            }
            // Recalibrated since (the old calibration was bad): say that the new one is not used.
            if let system = try? ConfigLoader.load(explicit: nil), let cal = system.calibration,
               FusionCalibration(settings: cal, origin: nil).record.withoutOrigin != recorded.withoutOrigin {
                Console.error("\(input): fused with the calibration it was recorded with; \(RecorderSettings.defaultPath) holds another (pass --config \(RecorderSettings.defaultPath) to use that one)")
            }
            return c
        }
        if config == nil && (!hasMetadata || chipCompensated) {
            if FileManager.default.fileExists(atPath: RecorderSettings.defaultPath) {
                let why = chipCompensated ? "was recorded with the chip's own fusion (its A/G/M are compensated by the chip)"
                                          : "has no motionlog metadata beside it"
                Console.error("\(input) \(why): the system calibration is not applied (pass --config FILE to apply one)")
            }
            return .none
        }
        let settings: RecorderSettings
        do { settings = try ConfigLoader.load(explicit: config) } catch { throw .usage("\(error)") }
        guard let c = settings.calibration else { return .none }
        return FusionCalibration(settings: c, origin: settings.file ?? config ?? RecorderSettings.defaultPath)
    }

    static func defaultOutput(for input: String) -> String {
        let base = input.hasSuffix(".csv") ? String(input.dropLast(4)) : input
        return base + "-fused.csv"
    }

    /// Refuses to overwrite the input or its metadata (compared by device and inode, and
    /// by name for files not yet written) or, without --force, existing outputs.
    static func checkPaths(input: String, output: String, force: Bool) throws(CommandFailure) -> String {
        guard FileManager.default.fileExists(atPath: input) else { throw .usage("\(input): no such file") }
        let metadata = RecordingFiles.metadataPath(for: output)
        let inputs = [input, RecordingFiles.metadataPath(for: input)]
        let same = (input as NSString).standardizingPath == (output as NSString).standardizingPath
        if same || RecordingFiles.metadataPath(for: input) == metadata {
            throw .usage("the output \(output) would replace the input: choose another name with -o")
        }
        do {
            try SafeOutputFile.check(output, inputs: inputs, overwrite: force)
            try SafeOutputFile.check(metadata, inputs: inputs, overwrite: force)
        } catch { throw .usage("\(error)") }
        if force {
            try ForcedReplacement.check(output, by: "fuse", instead: "choose another name with -o") {
                $0.recording.deviceMotion?[FuseOutput.recomputedBy] != nil
            }
        }
        return metadata
    }
}

extension FusionCalibration {
    /// The calibration of the config file's `calibration:` section (missing values: none).
    init(settings c: CalibrationSettings, origin: String?) {
        func vector(_ v: [Double]?, _ fallback: Vector3) -> Vector3 {
            guard let v, v.count == 3 else { return fallback }
            return Vector3(v[0], v[1], v[2])
        }
        var soft = Matrix3.identity
        if let m = c.magSoftIron, m.count == 3, m.allSatisfy({ $0.count == 3 }) {
            soft = Matrix3(rows: Vector3(m[0][0], m[0][1], m[0][2]), Vector3(m[1][0], m[1][1], m[1][2]),
                           Vector3(m[2][0], m[2][1], m[2][2]))
        }
        self.init(gyroBias: vector(c.gyroBias, .zero), magHardIron: vector(c.magHardIron, .zero), magSoftIron: soft,
                  accelOffset: vector(c.accelOffset, .zero), accelScale: vector(c.accelScale, Vector3(1, 1, 1)),
                  origin: origin)
    }
}
