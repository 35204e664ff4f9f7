import Logging
import MotionCore
import MotionFusion
import MotionSimulator

/// The recording setup every benchmark shares: the simulator board's sensors (scripted
/// ride, IMU with noise and vibration, 1 Hz GPS), a device-motion estimator, all sources.
enum BenchParts {
    static let softwareVersion = "motionlog-bench"

    static func makeSensor() -> MotionSensor { SimulatedIMU() }
    static func makeLocation() -> LocationSource { SimulatedGPS() }
    /// The estimator behind `D` rows: the real fusion filter, as `motionlog record` uses it
    /// (`groundVelocityAiding` false: without the GPS aid, for comparison).
    static func makeEstimator(groundVelocityAiding: Bool = true) throws(BenchError) -> DeviceMotionEstimator {
        var parameters = FusionParameters()
        parameters.groundVelocityAiding = groundVelocityAiding
        do { return try DeviceMotionFilter(parameters: parameters) } catch {
            throw BenchError("the fusion filter did not start: \(error)")
        }
    }
    static let estimatorName = "MotionFusion DeviceMotionFilter (the recorder's D rows)"

    /// A configuration recording all sources (A, G, M, D, L) at `rateHz` for `seconds`.
    static func configuration(rateHz: Int, seconds: Double,
                              bufferRows: Int = RecorderConfiguration.defaultBufferRows) -> RecorderConfiguration {
        RecorderConfiguration(rateHz: rateHz, sources: Set(Source.allCases), duration: seconds,
                              bufferRows: bufferRows, boardName: "simulator",
                              boardDescription: "benchmark", softwareVersion: softwareVersion,
                              gpsDescription: "simulated route (1 Hz)")
    }

    /// Log messages go to stderr, so a probe's stdout carries only its JSON result.
    static func logger() -> Logger {
        var log = Logger(label: "motionlog-bench") { StreamLogHandler.standardError(label: $0) }
        log.logLevel = .notice
        return log
    }

    /// A fixed start for simulated-clock runs (20 Nov 2025, 14:30:05 UTC), so they repeat exactly.
    static let simulatedEpochNanos: Int64 = 1_763_735_405_000_000_000
}
