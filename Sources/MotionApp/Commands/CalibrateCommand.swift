import ArgumentParser
import Foundation
import Logging
import MotionConfig
import MotionCore
import MotionFusion
import MotionMath
import MotionSimulator

/// `motionlog calibrate`: guided magnetometer calibration (hard and soft iron by an
/// ellipsoid fit) and gyroscope bias, live on a board or the simulator, or from a
/// recording (`--from FILE`). Writes the config file's `calibration:` section.
struct CalibrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calibrate",
        abstract: "Calibrate the magnetometer (hard and soft iron) and the gyroscope bias.",
        discussion: """
            Live: keep the device still on a table for a few seconds (gyroscope bias), then turn \
            it slowly through all orientations — screen up and down, each edge up and down — \
            until the coverage reaches 90 % (magnetometer). From a recording (--from FILE): \
            the M rows are fitted, and the gyroscope bias is taken from the parts where the \
            device lay still.
            The result, with its quality (fit residual, coverage), is printed as the config \
            file's `calibration:` section and written into the config file (--config, default \
            /etc/motionlog/config.yaml), replacing that section and keeping everything else. \
            A poor result is not written: do it again. On the simulator board nothing is \
            written unless --config FILE names the file (a simulated calibration must never \
            reach a real board's config).
            Exit status: 0 calibrated, 1 poor result (nothing written), 2 usage or I/O error.
            """)

    @Option(name: .long, help: "Calibrate from a recording's A, G and M rows instead of live.")
    var from: String?

    @Option(name: .long, help: "Board name or file for a live calibration (see `motionlog boards`).")
    var board: String?

    @Option(name: .long, help: "Config file to write (default /etc/motionlog/config.yaml; on the simulator board only this file).")
    var config: String?

    @Option(name: .customLong("boards-dir"), help: "Folder with board files.")
    var boardsDir: String?

    @Option(name: .long, help: "Live: sample rate in Hz.")
    var rate: Int = RecorderConfiguration.defaultRateHz

    @Option(name: .long, help: "Live: longest time to turn the device, in seconds.")
    var duration: Double = 120

    @Option(name: .long, help: "Local field strength in µT (e.g. from a geomagnetic model): scales the soft-iron matrix so corrected fields have it. Default: keep the average size.")
    var field: Double?

    @Flag(name: .customLong("dry-run"), help: "Print the section, do not write the config file.")
    var dryRun = false

    @Flag(name: .long, help: "Simulator only: run on the simulated clock as fast as possible.")
    var fast = false

    func validate() throws {
        if let f = field, !(f.isFinite && f > 0) { throw ValidationError("--field \(f): give the field strength in µT, e.g. 49") }
        if !(duration.isFinite && duration >= 10) { throw ValidationError("--duration \(duration): give at least 10 seconds") }
        if from != nil && (board != nil || fast) { throw ValidationError("--from reads a recording: --board and --fast are for live calibration") }
    }

    func run() throws {
        var gyro: GyroBiasCalibrator
        var mag: MagnetometerCalibrator
        let origin: String
        var simulated = false
        if let from {
            (gyro, mag) = try Self.collect(recording: from)
            origin = "recording \((from as NSString).lastPathComponent)"
        } else {
            (gyro, mag, origin, simulated) = try collectLive()
        }
        try finish(gyro: gyro, mag: mag, origin: origin, simulated: simulated)
    }

    /// Reads a recording: M rows for the fit, A and G rows of the same tick for the bias.
    /// Streams the file; the M rows kept for the fit are an evenly spread subset of at most
    /// `maxMagnetometerSamples`, so memory does not grow with the recording's length.
    static func collect(recording path: String,
                        maxMagnetometerSamples: Int = 100_000) throws(CommandFailure) -> (GyroBiasCalibrator, MagnetometerCalibrator) {
        var gyro = GyroBiasCalibrator()
        var magSamples = EvenSubset<Vector3>(capacity: maxMagnetometerSamples)
        var lastAccel: Row?
        var lastGyroWhen: Double?
        let progress = ProgressMeter(verb: "reading", paths: [path])
        progress.begin(path, bytesBefore: 0)
        let summary: RecordingReadSummary
        do {
            summary = try RecordingReader(path: path).read(progress: { progress.update($0) }) { item in
                switch item {
                case .problem: break
                case .row(_, let r):
                    switch r.source {
                    case .accelerometer: lastAccel = r
                    case .gyroscope:
                        if let a = lastAccel, a.when == r.when {
                            let dt = lastGyroWhen.map { r.when - $0 } ?? 0
                            if dt > 0 {
                                gyro.add(gyro: Vector3(r[0], r[1], r[2]), accel: Vector3(a[0], a[1], a[2]), dt: dt)
                            }
                        }
                        lastGyroWhen = r.when
                    case .magnetometer: magSamples.add(Vector3(r[0], r[1], r[2]))
                    default: break
                    }
                }
            }
        } catch { progress.finish(); throw CommandFailure("\(error)", code: 2) }
        progress.finish()
        if summary.skippedLines > 0 {
            Console.error("\(path): \(summary.skippedLines) defective line\(summary.skippedLines == 1 ? "" : "s") skipped (see `motionlog check \(path)`)")
        }
        var mag = MagnetometerCalibrator()
        for m in magSamples.kept { mag.add(m) }
        if mag.samples.isEmpty {
            throw CommandFailure("\(path) has no M rows: record with the magnetometer (sources including M) while turning the device", code: 2)
        }
        return (gyro, mag)
    }

    /// Live: still phase, then turning with coverage guidance.
    func collectLive() throws(CommandFailure) -> (GyroBiasCalibrator, MagnetometerCalibrator, String, simulated: Bool) {
        var options: RecordingOptions
        do { options = try RecordingOptions.parse([]) } catch { throw .usage("\(error)") }
        options.rate = rate
        options.board = board
        // The config file may not exist yet (calibrate creates it).
        if let config, FileManager.default.fileExists(atPath: config) { options.config = config }
        options.boardsDir = boardsDir
        let setup = try RecordingSetup.resolve(options)
        let simulated = setup.board.imu.model.isSimulated
        if fast && !simulated { throw .usage("--fast needs the simulator board (--board simulator)") }
        let sensor: MotionSensor = simulated ? SimulatedTurningIMU()
            : try SensorFactory.makeSensor(setup, log: Logging.motionlogLogger())
        do { try sensor.start(rateHz: rate) } catch { throw CommandFailure("cannot start the IMU: \(error)", code: 2) }
        let clock: TickClock = fast
            ? SimulatedClock(start: SystemClock.monotonicNanos(), epoch: SystemClock.realtimeNanos())
            : SystemClock()
        if simulated { Console.out("Simulator: a scripted hand keeps the IMU still, then turns it through all orientations.") }
        var session = LiveCalibration(sensor: sensor, clock: clock, rate: rate, maxTurnSeconds: duration)
        session.fieldStrength = field
        let (gyro, mag) = session.run { Console.out($0) }
        return (gyro, mag, "live on board \(setup.board.name)", simulated)
    }

    /// Prints the result and writes the config (unless poor or --dry-run).
    func finish(gyro: GyroBiasCalibrator, mag: MagnetometerCalibrator, origin: String, simulated: Bool = false) throws {
        var bias: Vector3?
        switch gyro.result {
        case .success(let r):
            bias = r.bias
            Console.out("Gyroscope bias: \(Self.text(r.bias, 5)) rad/s (\(Self.text(r.bias * (180 / Double.pi), 3)) °/s), "
                        + "spread \(Self.text(r.spread * (180 / Double.pi), 3)) °/s over \(fixed(gyro.restSeconds, 1)) s at rest")
        case .failure(let e):
            Console.out("Gyroscope bias: not measured — \(e)")
        }
        let magResult: MagnetometerCalibration
        switch mag.calibrate(fieldStrength: field) {
        case .failure(let e):
            Console.out("Magnetometer: \(e)")
            Console.out("DO IT AGAIN: nothing was written.")
            throw CommandFailure("", code: 1)
        case .success(let m): magResult = m
        }
        // A fit to too few orientations has no meaningful centre either: no hard iron then.
        Console.out("Magnetometer: " + (magResult.fitIsMeaningful ? "hard iron \(Self.text(magResult.hardIron, 3)) µT; " : "") + magResult.figure)
        if case .poor(let reasons) = magResult.quality {
            Console.out("Quality: POOR")
            for r in reasons { Console.out("  - \(r)") }
            Console.out("DO IT AGAIN: turn the device slowly through all orientations (screen up, screen down, each edge "
                        + "pointing up and down), away from magnets, steel and running motors. Nothing was written.")
            throw CommandFailure("", code: 1)
        }
        Console.out("Quality: \(magResult.quality == .good ? "good" : "acceptable")")
        let target = Self.configTarget(explicit: config, simulated: simulated)
        let path = target ?? RecorderSettings.defaultPath
        let existingText = target.flatMap { FileManager.default.contents(atPath: $0) }.map { String(decoding: $0, as: UTF8.self) }
        var old: CalibrationSettings?
        if let existingText {
            do { old = try RecorderSettings.parse(text: existingText, file: path).calibration } catch {
                throw CommandFailure("\(error) — fix the config file first; nothing written", code: 2)
            }
        }
        let comment = "motionlog calibrate \(MotionLogCommand.version), \(TimeText.isoLocal(epochSeconds: Date().timeIntervalSince1970)), "
            + "\(origin): \(magResult.figure)"
        let soft = magResult.softIron
        let section = CalibrationSection.text(gyroBias: bias.map { [$0.x, $0.y, $0.z] },
                                              magHardIron: [magResult.hardIron.x, magResult.hardIron.y, magResult.hardIron.z],
                                              magSoftIron: [soft.rows.0, soft.rows.1, soft.rows.2].map { [$0.x, $0.y, $0.z] },
                                              keeping: old, comment: comment)
        Console.out("")
        Console.out(String(section.dropLast()))
        if dryRun { return }
        guard target != nil else {
            Console.out("Simulator: nothing written (a simulated calibration must not reach \(path)); pass --config FILE to write it into a file.")
            return
        }
        let outcome: CalibrationSection.Outcome
        do { outcome = try CalibrationSection.update(path, existing: existingText, section: section,
                                                     inputs: from.map { [$0] } ?? []) } catch {
            if config == nil {
                // The default system file is not writable: the result is still printed above.
                Console.error("\(error)\nThe section above was not written; paste it into your config file or pass --config FILE.")
                return
            }
            throw CommandFailure("\(error)", code: 2)
        }
        Console.out(outcome.sentence(path))
    }

    /// The config file to write: `--config`, else the system file, except for the
    /// simulator, which writes only where it is told (nil: nowhere).
    static func configTarget(explicit: String?, simulated: Bool) -> String? {
        explicit ?? (simulated ? nil : RecorderSettings.defaultPath)
    }

    static func text(_ v: Vector3, _ digits: Int) -> String {
        "[\(fixed(v.x, digits)), \(fixed(v.y, digits)), \(fixed(v.z, digits))]"
    }
}
