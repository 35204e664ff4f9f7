import IMUDrivers
import LinuxHardware
import Logging
import MotionConfig
import MotionCore
import MotionFusion
import MotionSimulator

/// Builds the parts a board needs: the IMU, the GPS source and the device-motion
/// estimator. The one place that knows which implementation serves which board.
enum SensorFactory {
    /// One logging thread per process for messages posted from sampling threads.
    static let eventLog = DeferredLog(logger: Logging.motionlogLogger())

    static func makeSensor(_ setup: RecordingSetup, log: Logger) throws(CommandFailure) -> MotionSensor {
        let board = setup.board
        var options = IMUOptions()
        options.mount = board.imu.mount
        options.magMount = board.imu.magMount
        options.chipFusion = setup.deviceMotion == .chip
        // Events come from the sampling thread: hand them to the logging thread.
        let deferred = Self.eventLog
        let onEvent: (IMUEvent) -> Void = { event in
            switch event {
            case .gapStarted, .magnetometerStalled: deferred.post(.warning, "\(event)")
            case .gapEnded, .magnetometerResumed: deferred.post(.notice, "\(event)")
            }
        }
        let chip: IMUSelection?
        switch board.imu.model {
        case .simulated:
            let ride = SimulatedIMU(ride: setup.scenario.route)
            guard let chip = setup.simulatedChip else { return ride }
            return SimulatedChipIMU(selection: chip, ride: ride, options: options, onEvent: onEvent)
        case .chip(let named): chip = named
        case .auto: chip = nil
        }
        options.address = board.imu.address.map { UInt8($0) }
        options.magAddress = board.imu.magAddress.map { UInt8($0) }
        let busNumber = board.imu.bus ?? 1
        let bus: LinuxI2CBus
        do { bus = try LinuxI2CBus(bus: busNumber) } catch {
            throw CommandFailure("the IMU of board \(board.name) (\(board.file)): \(error)", code: 2)
        }
        let model: IMUSelection
        if let chip { model = chip } else { model = try detect(on: bus, board: board, options: &options, log: log) }
        return IMUDriver(selection: model, bus: bus, options: options, onEvent: onEvent)
    }

    /// `imu: model: auto`: the chip that answers on the bus; its address replaces the board's.
    private static func detect(on bus: LinuxI2CBus, board: BoardDefinition, options: inout IMUOptions,
                               log: Logger) throws(CommandFailure) -> IMUSelection {
        let found = probe(bus: bus, openingBypass: true)
        guard let detected = DetectedIMU(found) else {
            let seen = found.isEmpty ? "nothing answered" : "found " + found.map(\.description).joined(separator: "; ")
            throw CommandFailure("imu: auto: no supported IMU on \(bus.name) (\(seen)); check the wiring or set imu: model: and address: in \(board.file)", code: 2)
        }
        log.info("imu: auto found the \(detected.selection.displayName) at \(Hex.byte(detected.address)) on \(bus.name)")
        if options.chipFusion && !detected.selection.hasOwnFusion {
            throw CommandFailure("device motion from the chip: imu: auto found the \(detected.selection.displayName) on \(bus.name): "
                                 + IMUError.noFusionMessage(chip: detected.selection.displayName), code: 2)
        }
        options.address = detected.address
        options.magAddress = options.magAddress ?? detected.magAddress
        return detected.selection
    }

    static func makeLocation(_ setup: RecordingSetup, log: Logger) -> (LocationSource, String)? {
        guard setup.hasGPS else { return nil }
        if let address = setup.gpsdAddress {
            return (GPSDClient(address: address, log: log), "gpsd \(address)")
        }
        let scenario = setup.scenario
        return (SimulatedGPS(ride: scenario.route, noiseMetres: scenario.gpsNoiseMetres),
                "simulated route (1 Hz, scenario \(scenario.rawValue))")
    }

    /// Where D rows come from: the sensor fusion with the config file's calibration, or the
    /// chip's own fusion passed through (`--device-motion chip`; the declination applies to both).
    static func makeEstimator(_ setup: RecordingSetup, sensor: MotionSensor, log: Logger) throws(CommandFailure) -> DeviceMotionProvider? {
        let declination = setup.settings.declinationDegrees.map { $0 * Double.pi / 180 }
        if setup.deviceMotion == .chip {
            if setup.settings.calibration != nil {
                log.notice("D rows come from the chip's own fusion: the calibration: section of \(setup.settings.file ?? "the config file") is not applied")
            }
            return ChipFusionDeviceMotion(sensor: sensor, declination: declination)
        }
        let calibration = setup.settings.calibration.map {
            FusionCalibration(settings: $0, origin: setup.settings.file)
        } ?? .none
        var parameters = FusionParameters()
        parameters.declination = declination
        do { return try DeviceMotionFilter(calibration: calibration, parameters: parameters) } catch {
            throw .usage("\(setup.settings.file ?? "config"): \(error)")
        }
    }
}

extension SensorFactory {
    /// The recorder for a resolved setup: sensor, GPS source, estimator, sources the board
    /// can provide (when the user did not name them), output folder, clock and GPS time
    /// base. Shared by `record` and the daemon, so both record the same way. An output
    /// folder that cannot be created is exit 1, as one that cannot be written (found when
    /// the first file is created; docs/ARCHITECTURE.md, failure handling).
    static func makeRecorder(_ base: RecordingSetup, log: Logger,
                             stop: StopSignal = StopSignal()) throws(CommandFailure) -> (Recorder, locationDescription: String?) {
        var setup = base
        let sensor = try makeSensor(setup, log: log)
        let location = makeLocation(setup, log: log)
        setup.configuration.gpsDescription = location?.1
        let estimator = try makeEstimator(setup, sensor: sensor, log: log)
        if !setup.sourcesExplicit {
            // Default sources: everything this board can provide.
            if estimator == nil { setup.configuration.sources.remove(.deviceMotion) }
            if location == nil { setup.configuration.sources.remove(.location) }
        }
        // M from a chip without a magnetometer: the metadata listed M and the file had none.
        if sensor.hasMagnetometer == false && setup.configuration.sources.contains(.magnetometer) {
            if setup.sourcesExplicit {
                throw .usage("the sources asked for (--sources, or sources: in the config) include M, but the IMU (\(sensor.info.model)) has no magnetometer: leave M out, or pair one (e.g. --imu mpu6050+qmc5883l; docs/IMU.md)")
            }
            setup.configuration.sources.remove(.magnetometer)
        }
        let directory: DiskDirectory
        do { directory = try DiskDirectory(path: setup.outputPath) } catch {
            throw CommandFailure("\(error)", code: 1)
        }
        let clock: TickClock = setup.fast
            ? SimulatedClock(start: SystemClock.monotonicNanos(), epoch: SystemClock.realtimeNanos())
            : SystemClock()
        let timeBase = GPSTimeBase.forRecording(location: location?.0, realClock: !setup.fast, log: log)
        let recorder = Recorder(configuration: setup.configuration, clock: clock, sensor: sensor,
                                location: location?.0, estimator: estimator, directory: directory, log: log,
                                timeBase: timeBase, stop: stop)
        return (recorder, location?.1)
    }
}
