import MotionCore

/// The config file (default `/etc/motionlog/config.yaml`, or `--config`): recording
/// defaults that command-line options override, and calibration.
public struct RecorderSettings: Sendable, Equatable {
    public var board: String?
    /// The line of `board:` (what a board that cannot be loaded is reported at).
    public var boardLine: Int?
    /// The line of `boards_dir`, for messages about the folder it names.
    public var boardsDirLine: Int?
    public var boardsDir: String?
    public var out: String?
    public var rate: Int?
    public var sources: Set<Source>?
    public var label: UInt8?
    public var when: WhenMode?
    public var rotateBytes: Int64?
    public var rotateSeconds: Double?
    public var fsyncInterval: Double?
    public var bufferRows: Int?
    public var gpsd: GPSDAddress?
    /// Magnetic declination in degrees, east positive: yaw of D rows then refers to true north.
    public var declinationDegrees: Double?
    /// Where D rows come from (`device_motion: motionlog|chip`).
    public var deviceMotion: DeviceMotionOrigin?
    public var calibration: CalibrationSettings?
    /// Stop recording while this many bytes are still free (`min_free_space`; 0 disables).
    public var minFreeSpace: Int64?
    /// `motionlog daemon` settings (`daemon:` section).
    public var daemon: DaemonSettings?
    /// Copies to USB sticks and uploads (`offload:` section).
    public var offload: OffloadSettings?
    /// The web page (`web:` section).
    public var web: WebSettings?
    public var file: String?

    public init() {}

    /// The system-wide config file.
    public static let defaultPath = "/etc/motionlog/config.yaml"

    public static func parse(text: String, file: String) throws(ConfigError) -> RecorderSettings {
        let doc = try YAMLDocument(text: text, file: file)
        var s = RecorderSettings()
        s.file = file
        s.board = try doc.string("board")
        s.boardLine = doc.line(of: "board")
        s.boardsDir = try doc.string("boards_dir")
        s.boardsDirLine = doc.line(of: "boards_dir")
        s.out = try doc.string("out")
        s.rate = try doc.int("rate", in: RecorderConfiguration.rateRange)
        s.sources = try doc.parsed("sources", expected: "a set of source letters from AGMDL") {
            if case .success(let set) = Source.parseSet($0) { return set } else { return nil }
        }
        s.label = try doc.parsed("label", expected: "one uppercase letter", Label.parse)
        s.when = try doc.parsed("when", expected: "epoch or relative") { WhenMode(rawValue: $0) }
        s.rotateBytes = try doc.parsed("rotate_size", expected: "a size of at least 4K, such as 64M or 1G") {
            QuantityText.bytes($0).flatMap { $0 >= RecorderConfiguration.minimumRotateBytes ? $0 : nil }
        }
        s.rotateSeconds = try doc.parsed("rotate_time", expected: "a duration of at least 1 s, such as 90s, 10m or 1h") {
            QuantityText.seconds($0).flatMap { $0 >= 1 ? $0 : nil }
        }
        s.fsyncInterval = try doc.parsed("fsync_interval", expected: "a duration such as 1s or 0.5") {
            QuantityText.seconds($0).flatMap { $0 <= 3600 ? $0 : nil }
        }
        s.bufferRows = try doc.int("buffer_rows", in: 256...16_777_216)
        s.gpsd = try doc.parsed("gpsd", expected: GPSDAddress.expected, GPSDAddress.init(parsing:))
        s.declinationDegrees = try doc.double("declination", in: -180...180)
        s.deviceMotion = try doc.parsed("device_motion", expected: DeviceMotionOrigin.help) { DeviceMotionOrigin(rawValue: $0) }
        if let c = try doc.section("calibration") {
            s.calibration = try CalibrationSettings.parse(c)
        }
        s.minFreeSpace = try doc.parsed("min_free_space", expected: "a size such as 100M or 1G (0 disables the guard)") {
            $0 == "0" ? 0 : QuantityText.bytes($0)
        }
        if let d = try doc.section("daemon") {
            s.daemon = try DaemonSettings.parse(d)
        }
        if let o = try doc.section("offload") {
            s.offload = try OffloadSettings.parse(o)
        }
        if let w = try doc.section("web") { s.web = try WebSettings.parse(w) }
        try doc.rejectUnknownKeys()
        return s
    }
}

/// Calibration of the IMU (written by `motionlog calibrate`). A/G/M rows stay raw; these
/// values feed device motion (D rows) only.
public struct CalibrationSettings: Sendable, Equatable {
    /// rad/s, subtracted from the gyroscope.
    public var gyroBias: [Double]?
    /// µT, subtracted from the magnetometer.
    public var magHardIron: [Double]?
    /// 3×3, applied after the hard-iron offset.
    public var magSoftIron: [[Double]]?
    /// g, subtracted from the accelerometer, then scaled per axis.
    public var accelOffset: [Double]?
    public var accelScale: [Double]?

    public init() {}

    static func parse(_ c: YAMLDocument) throws(ConfigError) -> CalibrationSettings {
        var s = CalibrationSettings()
        // Ranges no real calibration leaves (a gyro_bias of 1e300 turned every D row NaN).
        s.gyroBias = try c.numbers("gyro_bias", count: 3, within: -10...10)            // rad/s
        s.magHardIron = try c.numbers("mag_hard_iron", count: 3, within: -5000...5000)  // µT
        s.magSoftIron = try c.matrix3("mag_soft_iron")
        s.accelOffset = try c.numbers("accel_offset", count: 3, within: -16...16)       // g
        s.accelScale = try c.numbers("accel_scale", count: 3, within: 0.5...2)
        try c.rejectUnknownKeys()
        return s
    }
}
