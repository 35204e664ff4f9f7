import Foundation
import IMUDrivers
import Logging
import MotionConfig
import LinuxHardware
import MotionCore
import MotionSimulator

/// Everything a recording needs, resolved from options, config file and board file.
struct RecordingSetup {
    var board: BoardDefinition
    var configuration: RecorderConfiguration
    var settings: RecorderSettings
    var outputPath: String
    var fast: Bool
    /// True when the user named the sources (then a missing one is worth a warning).
    var sourcesExplicit: Bool
    /// `--imu`: the chip whose driver runs against a register-level fake on the simulator board.
    var simulatedChip: IMUModel? = nil
    /// `--scenario`: what the simulator board lives through.
    var scenario: SimulatorScenario = .ride
    /// The gpsd to read fixes from; nil: no gpsd (the simulator's scripted route, or no GPS).
    var gpsdAddress: GPSDAddress? = nil

    /// Resolves the setup; every problem becomes a usage failure with a clear message.
    static func resolve(_ o: RecordingOptions) throws(CommandFailure) -> RecordingSetup {
        let settings: RecorderSettings
        do { settings = try ConfigLoader.load(explicit: o.config) } catch { throw .usage("\(error)") }
        let board = try resolveBoard(o, settings)

        let rate = o.rate ?? settings.rate ?? 100
        guard RecorderConfiguration.rateRange.contains(rate) else {
            throw .usage("--rate \(rate) is outside \(RecorderConfiguration.rateRange.lowerBound)...\(RecorderConfiguration.rateRange.upperBound) Hz")
        }
        var sources = settings.sources ?? Set(Source.allCases)
        if let s = o.sources {
            switch Source.parseSet(s) {
            case .success(let set): sources = set
            case .failure(let e): throw .usage("--sources: \(e)")
            }
        }
        var label = settings.label ?? Label.defaultLetter
        if let l = o.label {
            guard let letter = Label.parse(l) else { throw .usage("--label \"\(l)\": use one uppercase letter, e.g. W or T") }
            label = letter
        }
        var when = settings.when ?? .epoch
        if let w = o.when {
            guard let mode = WhenMode(rawValue: w) else { throw .usage("--when \"\(w)\": use epoch or relative") }
            when = mode
        }
        var duration: Double?
        if let d = o.duration {
            guard let s = QuantityText.seconds(d), s > 0, s <= 100 * 365 * 86_400 else {
                throw .usage("--duration \"\(d)\": use seconds, or a number with s/m/h, e.g. 600 or 10m (at most 100 years)")
            }
            duration = s
        }
        var rotation = RotationPolicy(maxBytes: settings.rotateBytes, maxSeconds: settings.rotateSeconds)
        if let r = o.rotateSize {
            guard let b = QuantityText.bytes(r), b >= 4096 else { throw .usage("--rotate-size \"\(r)\": use a size of at least 4K, e.g. 64M or 1G") }
            rotation.maxBytes = b
        }
        if let r = o.rotateTime {
            guard let s = QuantityText.seconds(r), s >= 1 else { throw .usage("--rotate-time \"\(r)\": use a duration of at least 1 s, such as 60, 90s, 10m or 1h") }
            rotation.maxSeconds = s
        }
        var fsync = settings.fsyncInterval ?? 1
        if let f = o.fsyncInterval {
            guard let s = QuantityText.seconds(f), s <= 3600 else { throw .usage("--fsync-interval \"\(f)\": use seconds, e.g. 1 or 0.5") }
            fsync = s
        }
        let bufferRows = o.bufferRows ?? settings.bufferRows ?? RecorderConfiguration.defaultBufferRows
        guard (256...16_777_216).contains(bufferRows) else { throw .usage("--buffer-rows must be within 256...16777216") }
        let simulated = board.imu.model == "simulated"
        if o.fast && !simulated {
            throw .usage("--fast runs on the simulated clock and needs the simulator board (--board simulator)")
        }
        if o.fast && duration == nil {
            throw .usage("--fast needs --duration (a simulated recording runs as fast as the machine allows)")
        }
        var simulatedChip: IMUModel?
        if let chip = o.imu {
            guard let model = IMUModel(rawValue: chip) else { throw .usage("--imu \"\(chip)\": use mpu9250, icm20948 or lsm9ds1") }
            guard simulated else {
                throw .usage("--imu chooses the chip simulated on the simulator board; board \(board.name) names its IMU in its board file (imu: model:)")
            }
            simulatedChip = model
        }
        var scenario = SimulatorScenario.ride
        if let name = o.scenario {
            guard let s = SimulatorScenario(rawValue: name) else {
                throw .usage("--scenario \"\(name)\": use \(SimulatorScenario.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            guard simulated else { throw .usage("--scenario needs the simulator board (--board simulator)") }
            scenario = s
        }
        // gpsd: --gpsd, else the config file, else the board; the simulator board only with --gpsd.
        var gpsdAddress: GPSDAddress?
        if let text = o.gpsd ?? (simulated ? nil : settings.gpsd ?? board.gpsd) {
            guard let address = GPSDAddress(parsing: text) else {
                throw .usage("gpsd address \"\(text)\": use host:port, e.g. localhost:2947 or [::1]:2947")
            }
            gpsdAddress = address
        }
        if o.fast && o.gpsd != nil {
            throw .usage("--fast runs on the simulated clock and cannot read a real gpsd: drop --fast or --gpsd")
        }
        let out = o.out ?? settings.out ?? board.output ?? "./recordings"
        let configuration = RecorderConfiguration(
            rateHz: rate, sources: sources, label: label, whenMode: when, duration: duration, rotation: rotation,
            fsyncIntervalSeconds: fsync, bufferRows: bufferRows, boardName: board.name,
            boardDescription: board.description, softwareVersion: MotionLogCommand.version)
        return RecordingSetup(board: board, configuration: configuration, settings: settings, outputPath: out,
                              fast: o.fast, sourcesExplicit: o.sources != nil || settings.sources != nil,
                              simulatedChip: simulatedChip, scenario: scenario, gpsdAddress: gpsdAddress)
    }

    static func resolveBoard(_ o: RecordingOptions, _ settings: RecorderSettings) throws(CommandFailure) -> BoardDefinition {
        let catalog = BoardCatalog.locate(explicit: o.boardsDir ?? settings.boardsDir, executablePath: ExecutablePath.current)
        if let name = o.board ?? settings.board {
            if name.contains("/") || name.hasSuffix(".yaml") {
                do { return try BoardCatalog.load(path: name) } catch { throw .usage("\(error)") }
            }
            guard let catalog else {
                throw .usage("board \"\(name)\": no boards folder found; pass --boards-dir or a board file path")
            }
            do { return try catalog.load(name) } catch { throw .usage("\(error)") }
        }
        // /proc/device-tree links to /sys/firmware/devicetree/base (the service hides /proc's non-process files).
        let modelData = ["/proc/device-tree/model", "/sys/firmware/devicetree/base/model"].lazy
            .compactMap { FileManager.default.contents(atPath: $0) }.first
        if let catalog, let data = modelData {
            let model = String(decoding: data.filter { $0 != 0 }, as: UTF8.self)
            if let b = catalog.match(deviceTreeModel: model) { return b }
            throw .usage("this board (\"\(model)\") matches no board file: choose one with --board NAME (see `motionlog boards`) or add model_match to a board file")
        }
        throw .usage("no board chosen: pass --board NAME (see `motionlog boards`; `--board simulator` needs no hardware) or set `board:` in the config file")
    }
}
