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
    var simulatedChip: IMUSelection? = nil
    /// `--scenario`: what the simulator board lives through.
    var scenario: SimulatorScenario = .ride
    /// The gpsd to read fixes from; nil: no gpsd (the simulator's scripted route, or no GPS).
    var gpsdAddress: GPSDAddress? = nil
    /// Where D rows come from (`--device-motion`, else the config's `device_motion:`).
    var deviceMotion: DeviceMotionOrigin = .motionlog

    /// A location source is configured: a gpsd (`--gpsd`, the config or the board), or the
    /// simulator's scripted route in a scenario that has one.
    var hasGPS: Bool {
        configuration.sources.contains(.location) && (gpsdAddress != nil || (board.imu.model.isSimulated && scenario.hasGPS))
    }

    /// How long and on which clock: `record`'s `--duration` and `--fast`, the daemon's `--duration`.
    struct Run {
        var duration: String?
        var fast = false
    }

    /// Resolves the setup; every problem becomes a usage failure with a clear message.
    static func resolve(_ o: RecordingOptions, run: Run = Run()) throws(CommandFailure) -> RecordingSetup {
        let settings: RecorderSettings
        do { settings = try ConfigLoader.load(explicit: o.config) } catch { throw .usage("\(error)") }
        let board = try resolveBoard(o, settings)

        let rate = o.rate ?? settings.rate ?? RecorderConfiguration.defaultRateHz
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
        if let d = run.duration {
            guard let s = QuantityText.seconds(d), s > 0, s <= 100 * 365 * 86_400 else {
                throw .usage("--duration \"\(d)\": use seconds, or a number with s/m/h, e.g. 600 or 10m (at most 100 years)")
            }
            duration = s
        }
        var rotation = RotationPolicy(maxBytes: settings.rotateBytes, maxSeconds: settings.rotateSeconds)
        if let r = o.rotateSize {
            guard let b = QuantityText.bytes(r), b >= RecorderConfiguration.minimumRotateBytes else { throw .usage("--rotate-size \"\(r)\": use a size of at least 4K, e.g. 64M or 1G") }
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
        let simulated = board.imu.model.isSimulated
        if run.fast && !simulated {
            throw .usage("--fast runs on the simulated clock and needs the simulator board (--board simulator)")
        }
        var simulatedChip: IMUSelection?
        if let chip = o.imu {
            let model: IMUSelection
            do { model = try IMUSelection(parsing: chip) } catch { throw .usage("--imu \(error)") }
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
        if run.fast && duration == nil {
            // A scenario has its own length; the plain ride loops forever.
            guard o.scenario != nil else {
                throw .usage("--fast needs --duration or --scenario (a simulated recording runs as fast as the machine allows)")
            }
            duration = scenario.duration
        }
        let deviceMotion = try resolveDeviceMotion(o, settings, board: board, simulatedChip: simulatedChip)
        // gpsd: --gpsd, else the config file, else the board; the simulator board only with --gpsd.
        var gpsdAddress = simulated ? nil : settings.gpsd ?? board.gpsd
        if let text = o.gpsd {
            guard let address = GPSDAddress(parsing: text) else {
                throw .usage("--gpsd \"\(text)\": use \(GPSDAddress.expected)")
            }
            gpsdAddress = address
        }
        if run.fast && o.gpsd != nil {
            throw .usage("--fast runs on the simulated clock and cannot read a real gpsd: drop --fast or --gpsd")
        }
        // --gpsd asked for, and sources without L: say which one wins (gpsd was ignored in silence).
        if o.gpsd != nil && !sources.contains(.location) {
            let from = o.sources != nil ? "--sources" : "sources: in \(settings.file ?? "the config")"
            Console.error("note: --gpsd is not used: the sources (\(from)) leave out L (GPS rows); add L to record them")
        }
        let out = o.out ?? settings.out ?? board.output ?? "./recordings"
        var configuration = RecorderConfiguration(
            rateHz: rate, sources: sources, label: label, whenMode: when, duration: duration, rotation: rotation,
            fsyncIntervalSeconds: fsync, bufferRows: bufferRows, boardName: board.name,
            boardDescription: board.description, softwareVersion: MotionLogCommand.version)
        // The metadata said "system" (a synchronised clock) whatever the kernel said.
        if !run.fast { configuration.systemClockSynchronised = SystemClockStatus.current().synchronised }
        return RecordingSetup(board: board, configuration: configuration, settings: settings, outputPath: out,
                              fast: run.fast, sourcesExplicit: o.sources != nil || settings.sources != nil,
                              simulatedChip: simulatedChip, scenario: scenario, gpsdAddress: gpsdAddress,
                              deviceMotion: deviceMotion)
    }

    /// `--device-motion`, else the config's `device_motion:`, else motionlog's fusion. The
    /// chip's own fusion is refused here for an IMU known to have none (`imu: model: auto`
    /// is checked once the probe found the chip).
    static func resolveDeviceMotion(_ o: RecordingOptions, _ settings: RecorderSettings, board: BoardDefinition,
                                    simulatedChip: IMUSelection?) throws(CommandFailure) -> DeviceMotionOrigin {
        var origin = settings.deviceMotion ?? .motionlog
        var given = "device_motion: \(origin) (\(settings.file ?? "config file"))"
        if let text = o.deviceMotion {
            guard let parsed = DeviceMotionOrigin(rawValue: text.lowercased()) else {
                throw .usage("--device-motion \"\(text)\": use \(DeviceMotionOrigin.help)")
            }
            origin = parsed
            given = "--device-motion \(parsed)"
        }
        guard origin == .chip else { return origin }
        let selection: IMUSelection
        switch board.imu.model {
        case .auto:
            return origin
        case .simulated:
            guard let chip = simulatedChip else {
                throw .usage("\(given): the simulator board's built-in IMU has no fusion of its own; add --imu bno055 "
                             + "to run the BNO055 driver and its fused output against the fake chip")
            }
            selection = chip
        case .chip(let chip):
            selection = chip
        }
        guard selection.hasOwnFusion else {
            throw .usage("\(given): " + IMUError.noFusionMessage(chip: selection.displayName))
        }
        return origin
    }

    static func resolveBoard(_ o: RecordingOptions, _ settings: RecorderSettings) throws(CommandFailure) -> BoardDefinition {
        let catalog = try BoardsCommand.catalog(explicit: o.boardsDir, settings: settings)
        if let name = o.board ?? settings.board {
            do { return try catalog.load(name) } catch {
                // Say where the name came from when it was the config's.
                let at = [settings.file ?? "the config file", settings.boardLine.map(String.init)].compactMap { $0 }.joined(separator: ":")
                throw .usage((o.board == nil ? "\(at): board: " : "") + "\(error)")
            }
        }
        // /proc/device-tree links to /sys/firmware/devicetree/base (the service hides /proc's non-process files).
        let modelData = ["/proc/device-tree/model", "/sys/firmware/devicetree/base/model"].lazy
            .compactMap { FileManager.default.contents(atPath: $0) }.first
        if let data = modelData {
            let model = String(decoding: data.filter { $0 != 0 }, as: UTF8.self)
            if let b = catalog.match(deviceTreeModel: model) { return b }
            throw .usage("this board (\"\(model)\") matches no board file: choose one with --board NAME (see `motionlog boards`) or add model_match to a board file")
        }
        throw .usage("no board chosen: pass --board NAME (see `motionlog boards`; `--board simulator` needs no hardware) or set `board:` in the config file")
    }
}
