import Logging
import MotionConfig
import MotionCore
import MotionFusion
import MotionSimulator

/// Builds the parts a board needs: the IMU, the GPS source and the device-motion
/// estimator. The one place that knows which implementation serves which board.
enum SensorFactory {
    static func makeSensor(_ setup: RecordingSetup) throws(CommandFailure) -> MotionSensor {
        switch setup.board.imu.model {
        case "simulated":
            return SimulatedIMU()
        default:
            throw CommandFailure("IMU model \"\(setup.board.imu.model)\" of board \(setup.board.name) is not supported by this build yet", code: 2)
        }
    }

    static func makeLocation(_ setup: RecordingSetup, log: Logger) -> (LocationSource, String)? {
        guard setup.configuration.sources.contains(.location) else { return nil }
        if setup.board.imu.model == "simulated" {
            return (SimulatedGPS(), "simulated route (1 Hz)")
        }
        return nil
    }

    /// The sensor fusion for D rows, with the config file's calibration.
    static func makeEstimator(_ setup: RecordingSetup) throws(CommandFailure) -> DeviceMotionEstimator? {
        let calibration = setup.settings.calibration.map {
            FusionCalibration(settings: $0, origin: setup.settings.file)
        } ?? .none
        do { return try DeviceMotionFilter(calibration: calibration) } catch {
            throw .usage("\(setup.settings.file ?? "config"): \(error)")
        }
    }
}
