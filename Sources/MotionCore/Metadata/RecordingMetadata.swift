import Foundation

/// The metadata JSON written beside each CSV (same base name, `.json`): how the file was
/// recorded, what it holds, and whether it ended cleanly. Written when the file opens
/// (`endedCleanly: false`) and rewritten when it closes.
public struct RecordingMetadata: Codable, Sendable, Equatable {
    public var format = "MotionCollector CSV with L rows (docs/FORMAT.md)"
    public var software: Software
    public var recording: RecordingDescription
    public var file: FileSection
    public var counters: CounterSnapshot
    /// False while the file is being written and after a crash or power cut.
    public var endedCleanly: Bool
    /// `recording` (still open), `rotated`, `stopped`, `duration`, `low-disk-space`, or `recovered`.
    public var endReason: String
    /// Wall-clock time the file was closed, ISO 8601 UTC (`2026-11-21T13:30:05.120Z`).
    public var ended: String?

    public struct Software: Codable, Sendable, Equatable {
        public var name = "motionlog"
        public var version: String
        public init(version: String) { self.version = version }
    }

    /// The file this metadata describes.
    public struct FileSection: Codable, Sendable, Equatable {
        public var name: String
        /// 1 for the recording's first file.
        public var index: Int
        public var previous: String?
        /// When of the first and last row in the file (as written in the file).
        public var firstWhen: Double?
        public var lastWhen: Double?
        /// Local time of the first sample (the file name's time), ISO 8601 with the UTC
        /// offset (`2026-11-21T14:30:05+01:00`, or `Z` where local time is UTC).
        public var startLocal: String?
        /// The provisional name the file had before GPS time was known (docs/GPS.md).
        public var renamedFrom: String?
        /// Rows in the file per source letter.
        public var rows: [String: Int]
        public var bytes: Int64
        /// Set by recovery: ticks between the first and last row of the file's main IMU
        /// source that have no row, counted from the rows (nil: not recounted).
        public var ticksWithoutRows: Int64?

        public init(name: String, index: Int, previous: String?) {
            self.name = name; self.index = index; self.previous = previous
            rows = [:]; bytes = Int64(CSVFormat.headerBytes.count)
        }
    }

    public init(software: Software, recording: RecordingDescription, file: FileSection,
                counters: CounterSnapshot, endedCleanly: Bool, endReason: String, ended: String?) {
        self.software = software; self.recording = recording; self.file = file
        self.counters = counters; self.endedCleanly = endedCleanly; self.endReason = endReason; self.ended = ended
    }

    /// Pretty JSON with sorted keys; non-finite numbers as strings. The clock is written
    /// once, as `recording.clock`, from the time base when there is one (it can change
    /// during a recording, e.g. to `gps`).
    public func encoded() -> [UInt8] {
        var doc = self
        if let clock = doc.counters.time?.clock { doc.recording.clock = clock }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        guard let data = try? encoder.encode(doc) else { return Array("{}\n".utf8) }
        return Array(data) + [0x0A]
    }

    /// Reads metadata written by this or an older version (which also wrote
    /// `counters.time.clock`, the more precise of its two clocks). Throws for invalid JSON
    /// and for numbers no recorder writes (`ImplausibleMetadata`).
    public static func decode(_ bytes: [UInt8]) throws -> RecordingMetadata {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        var doc = try decoder.decode(RecordingMetadata.self, from: Data(bytes))
        struct Legacy: Decodable {
            struct Counters: Decodable { struct Time: Decodable { var clock: String? }; var time: Time? }
            var counters: Counters
        }
        if let legacy = try? decoder.decode(Legacy.self, from: Data(bytes)).counters.time?.clock {
            doc.recording.clock = legacy
        }
        if doc.counters.time != nil { doc.counters.time?.clock = doc.recording.clock }
        if let what = doc.implausibility { throw ImplausibleMetadata(what: what) }
        return doc
    }
}

/// What stays the same for the whole recording (every file's metadata repeats it).
public struct RecordingDescription: Codable, Sendable, Equatable {
    /// Identifies the recording across its rotated files.
    public var id: String
    public var board: String
    public var boardDescription: String?
    public var sensor: SensorInfo
    public var gps: String?
    public var deviceMotion: [String: String]?
    /// The `deviceMotion` key that `motionlog fuse` sets to the name of its input: a fused
    /// file holds that file's rows with the D rows recomputed (docs/FUSION.md).
    public static let recomputedFromKey = "recomputedFrom"
    /// The `deviceMotion` key `fuse` sets when its input had lost rows since it was
    /// recorded (cut short, damaged): the sentence that says so. A fused file is complete
    /// in itself, and the input it stands for in a folder is left out: without it a
    /// summary of half a recording said nothing needs attention.
    public static let inputDamagedKey = "inputDamaged"
    /// The file whose rows this one copies (a `fuse` output), by name in the same folder.
    public var recomputedFrom: String? { deviceMotion?[Self.recomputedFromKey] }
    /// The calibration the D rows were computed with, as numbers (nil: none applied).
    public var calibration: CalibrationRecord?
    /// `motionlog fuse` only: the filter's gyroscope bias estimate at the end, rad/s.
    public var finalGyroBiasRadPerS: [Double]?
    public var rateHz: Int
    /// Source letters recorded, e.g. `AGMDL`.
    public var sources: String
    public var label: String
    public var whenMode: WhenMode
    /// Epoch seconds of the first tick (the zero of relative When).
    public var startEpoch: Double
    /// Wall-clock time of the first tick, ISO 8601 UTC (`2026-11-21T13:30:05.120Z`).
    public var started: String
    /// What When is based on: `system` (the system clock, synchronised), `system-unsynchronised`
    /// (no time service: provisional until GPS time is known), `gps` (anchored to GPS
    /// time), `simulated` (--fast), or `unknown` (rebuilt or foreign metadata).
    public var clock: String
    public var rotateBytes: Int64?
    public var rotateSeconds: Double?
    public var fsyncIntervalSeconds: Double
    public var bufferRows: Int
    /// Things a reader of the data must know (e.g. why a source has no rows).
    public var notes: [String]

    public init(id: String, board: String, boardDescription: String?, sensor: SensorInfo, gps: String?,
                deviceMotion: [String: String]?, rateHz: Int, sources: String, label: String, whenMode: WhenMode,
                startEpoch: Double, started: String, clock: String, rotateBytes: Int64?, rotateSeconds: Double?,
                fsyncIntervalSeconds: Double, bufferRows: Int, notes: [String], calibration: CalibrationRecord? = nil) {
        self.calibration = calibration
        self.id = id; self.board = board; self.boardDescription = boardDescription; self.sensor = sensor
        self.gps = gps; self.deviceMotion = deviceMotion; self.rateHz = rateHz; self.sources = sources
        self.label = label; self.whenMode = whenMode; self.startEpoch = startEpoch; self.started = started
        self.clock = clock; self.rotateBytes = rotateBytes; self.rotateSeconds = rotateSeconds
        self.fsyncIntervalSeconds = fsyncIntervalSeconds; self.bufferRows = bufferRows; self.notes = notes
    }
}

/// Recording-wide counters at the moment a metadata file was written: running totals since
/// the recording started (not per file), so the last file's metadata holds the totals.
public struct CounterSnapshot: Codable, Sendable, Equatable {
    /// Scheduler wake-ups later than one period.
    public var overruns: Int64 = 0
    /// Ticks skipped by overruns (no sample exists for them).
    public var missedTicks: Int64 = 0
    /// Rows dropped because both buffers were full.
    public var droppedRows: Int64 = 0
    /// GPS fixes refused by the recorder (time not increasing, or no 2-D/3-D fix).
    public var rejectedFixes: Int64 = 0
    /// Rows produced but lost to write errors (e.g. a full card).
    public var rowsLostToWriteErrors: Int64 = 0
    public var writeErrors: Int64 = 0
    /// Most rows one buffer held, and that as a fraction of its capacity.
    public var peakBufferRows: Int = 0
    public var peakBufferFill: Double = 0
    /// Slowest single write or fsync, milliseconds.
    public var worstWriteLatencyMs: Double = 0
    public var fsyncs: Int64 = 0
    public var sensorHealth = SensorHealth()
    public var locationHealth: LocationHealth?
    /// Which clock When is based on and the GPS time correction (nil without a time base).
    public var time: GPSTimeRecord?

    public init() {}
}

/// The sensor calibration a recording's `D` rows were computed with, as JSON numbers in
/// the units the key names (`recording.calibration`; see docs/FORMAT.md).
public struct CalibrationRecord: Codable, Sendable, Equatable {
    /// Gyroscope bias the filter started from, rad/s, [x, y, z].
    public var gyroBiasRadPerS: [Double]
    /// Magnetometer hard-iron offset, µT, subtracted first.
    public var magHardIronMicrotesla: [Double]
    /// Magnetometer soft-iron matrix (rows), unitless, applied after the offset.
    public var magSoftIron: [[Double]]
    /// Accelerometer offset, g (format sign), subtracted first.
    public var accelOffsetG: [Double]
    /// Accelerometer scale per axis, unitless, applied after the offset.
    public var accelScale: [Double]
    /// Where the values came from, e.g. `/etc/motionlog/config.yaml`.
    public var origin: String?

    public init(gyroBiasRadPerS: [Double], magHardIronMicrotesla: [Double], magSoftIron: [[Double]],
                accelOffsetG: [Double], accelScale: [Double], origin: String?) {
        self.gyroBiasRadPerS = gyroBiasRadPerS; self.magHardIronMicrotesla = magHardIronMicrotesla
        self.magSoftIron = magSoftIron; self.accelOffsetG = accelOffsetG; self.accelScale = accelScale
        self.origin = origin
    }
}
