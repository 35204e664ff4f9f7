import ArgumentParser
import MotionAnalysis
import MotionCore
import MotionSimulator

/// The recording options shared by `record` and `daemon`. Each overrides the config file,
/// which overrides the board file, which overrides the built-in defaults. Options that
/// mean something to one of them only are declared there (`RecordRunOptions`, the
/// daemon's `--duration`), so each command's help lists what it accepts.
struct RecordingOptions: ParsableArguments {
    @Option(name: .long, help: "Board name from boards/ (see `motionlog boards`) or a board file path.")
    var board: String?

    @Option(name: .long, help: "Output folder (created if missing). Default: the board's, else ./recordings.")
    var out: String?

    @Option(name: .long, parsing: .unconditional, help: "Sample rate in Hz for all sources (default \(RecorderConfiguration.defaultRateHz)).")
    var rate: Int?

    @Option(name: .long, help: "Sources to record, a subset of AGMDL (default: all the board provides).")
    var sources: String?

    @Option(name: .long, help: "Label letter for the rows (default W).")
    var label: String?

    @Option(name: .long, help: "When as epoch seconds (default) or relative seconds since the first sample.")
    var when: String?

    @Option(name: .customLong("rotate-size"), parsing: .unconditional, help: "Start a new file at this size (K/M/G suffix).")
    var rotateSize: String?

    @Option(name: .customLong("rotate-time"), parsing: .unconditional, help: "Start a new file every this long (s/m/h suffix).")
    var rotateTime: String?

    @Option(name: .customLong("fsync-interval"), parsing: .unconditional, help: "Seconds between fsyncs; a power cut loses at most this much (default 1).")
    var fsyncInterval: String?

    @Option(name: .customLong("buffer-rows"), parsing: .unconditional, help: "Rows per writer buffer (two buffers; default 32768).")
    var bufferRows: Int?

    @Option(name: .long, help: ArgumentHelp("Simulator only: run the real chip drivers against register-level fakes of this IMU: mpu9250, icm20948, lsm9ds1, bno055, or mpu6050, lsm6dsox, icm42688 alone or with +hmc5883l, +qmc5883l or +lis3mdl.",
                                            valueName: "chip[+magnetometer]"))
    var imu: String?

    @Option(name: .customLong("device-motion"), help: ArgumentHelp("Where D rows come from: motionlog (its own fusion of A/G/M, the default) or chip (the IMU's own fusion: a BNO055 runs in NDOF mode; refused for chips without one).",
                                                                    valueName: "motionlog|chip"))
    var deviceMotion: String?

    @Option(name: .long, help: ArgumentHelp("Simulator only: what the simulated sensors live through (default ride), each so long before it repeats: \(RecordingOptions.scenarioLengths).",
                                            valueName: "ride|commute|car|night"))
    var scenario: String?

    @Option(name: .long, help: ArgumentHelp("gpsd to read GPS fixes from (default: the board's gps.gpsd, else localhost:2947). On the simulator board it replaces the scripted route with a real gpsd.",
                                            valueName: "host:port"))
    var gpsd: String?

    @Option(name: .long, help: "Config file (default /etc/motionlog/config.yaml if present).")
    var config: String?

    @Option(name: .customLong("boards-dir"), help: "Folder with board files.")
    var boardsDir: String?
}

/// `record`'s own options: how long, how fast, and the live status line.
struct RecordRunOptions: ParsableArguments {
    @Option(name: .long, parsing: .unconditional, help: "Seconds to record, or with s/m/h (default: until Ctrl-C).")
    var duration: String?

    @Flag(name: .long, help: "Simulator only: run on the simulated clock as fast as the machine allows; needs --duration, or --scenario, which it then records once.")
    var fast = false

    @Flag(name: .long, help: "No live status line.")
    var quiet = false
}

extension RecordingOptions {
    /// Each scenario's length, as `--scenario`'s help gives it: `ride 3 min 49 s, commute …`.
    static var scenarioLengths: String {
        SimulatorScenario.allCases.map { "\($0.rawValue) \(MotionAnalysis.Text.duration($0.duration))" }.joined(separator: ", ")
    }
}
