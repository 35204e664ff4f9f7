import ArgumentParser
import Foundation
import IMUDrivers
import MotionCore
import MotionSimulator

/// `motionlog-bench tick-loop`: N ticks of the full pipeline (all sources, simulator
/// sensors, writer thread) on the simulated clock into /dev/null, as fast as the machine
/// allows. Run under callgrind for instructions per tick, and natively for CPU per tick.
struct TickLoopCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tick-loop", abstract: "Internal: N simulated-clock ticks of the pipeline into /dev/null.",
        shouldDisplay: false)

    @Option(help: "Ticks to run.") var ticks: Int
    @Option(help: "Tick rate, Hz.") var rate: Int = 1000
    @Option(help: "simulated (the scripted ride's physics per tick), replay (readings recorded beforehand), or a chip (mpu9250, icm20948, lsm9ds1: the real driver against a register-level fake).")
    var sensor = "simulated"
    @Option(help: "Who makes the number text: own (DoubleText, as shipped) or description (Double.description, the reference).")
    var numberText = "own"
    @Flag(help: "Record A, G, M and L only: no D rows, so no fusion filter.") var noFusion = false
    @Flag(help: "The fusion filter without its GPS velocity aid (the IMU-only filter).") var noGroundVelocityAiding = false

    func run() throws {
        guard ticks > 0, rate > 0 else { throw ValidationError("--ticks and --rate must be positive") }
        let imu: MotionSensor
        switch sensor {
        case "simulated": imu = BenchParts.makeSensor()
        case "replay": imu = ReplaySensor(recordedFrom: BenchParts.makeSensor(), rateHz: rate)
        default:
            guard let chip = IMUModel(rawValue: sensor) else {
                throw ValidationError("--sensor must be simulated, replay, mpu9250, icm20948 or lsm9ds1")
            }
            imu = SimulatedChipIMU(model: chip)
        }
        let clock = SimulatedClock(start: 1_000_000_000, epoch: BenchParts.simulatedEpochNanos)
        let directory = NullDirectory()
        var configuration = BenchParts.configuration(rateHz: rate, seconds: Double(ticks) / Double(rate))
        switch numberText {
        case "own": configuration.numberText = .ownFormatter
        case "description": configuration.numberText = .standardLibrary
        default: throw ValidationError("--number-text must be own or description")
        }
        if noFusion { configuration.sources.remove(.deviceMotion) }
        let recorder = Recorder(configuration: configuration,
                                clock: clock, sensor: imu, location: BenchParts.makeLocation(),
                                estimator: noFusion ? nil : try BenchParts.makeEstimator(groundVelocityAiding: !noGroundVelocityAiding), directory: directory,
                                log: BenchParts.logger())
        let cpu0 = CPUTime.processNanos(), wall0 = SystemClock.monotonicNanos()
        let summary: RecordingSummary
        do { summary = try recorder.run() } catch { throw BenchError("\(error)") }
        let cpu1 = CPUTime.processNanos(), wall1 = SystemClock.monotonicNanos()
        try printJSON(TickLoopResult(ticks: summary.ticks, rowsWritten: summary.rowsWritten.values.reduce(0, +),
                                     droppedRows: summary.counters.droppedRows,
                                     processCPUSeconds: Double(cpu1 - cpu0) / 1e9,
                                     wallSeconds: Double(wall1 - wall0) / 1e9))
    }
}
