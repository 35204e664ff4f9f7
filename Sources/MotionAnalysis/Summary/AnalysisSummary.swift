/// What `motionlog summary --json` prints and what the summary cache stores: everything
/// the analysis of one recording (or one day / folder of consecutive recordings) found.
/// Encoded with snake_case keys (`distance_m`, `max_speed_mps`, ...); times are Unix
/// seconds; numbers are JSON numbers, and a value that cannot be known is `null`.
/// The schema is documented in docs/ANALYSIS.md.
public struct AnalysisSummary: Codable, Sendable, Equatable {
    /// Version of the analysis that produced this summary (a cache of an older one is stale).
    public var analysisVersion: Int
    /// The CSV files read, in time order, with the size and modification time they had.
    public var files: [SourceFile]
    /// First and last When of any row (Unix seconds), nil for a file without rows.
    @Nullable public var start: Double?
    @Nullable public var end: Double?
    /// `end - start`, seconds.
    public var durationS: Double
    /// `start...end`, nil without rows.
    public var recordedSpan: ClosedRange<Double>? {
        guard let start, let end, start <= end else { return nil }
        return start...end
    }
    /// Rows per source letter.
    public var rows: [String: Int]

    // Track (from L rows; zero without usable fixes).
    public var distanceM: Double
    /// Seconds spent moving faster than the moving threshold (see docs/ANALYSIS.md).
    public var movingS: Double
    @Nullable public var averageSpeedMps: Double?
    @Nullable public var maxSpeedMps: Double?
    public var elevationGainM: Double
    public var elevationLossM: Double
    @Nullable public var bbox: BoundingBox?
    /// Fixes used and rejected (bad position, bad eph, impossible jump).
    public var fixesUsed: Int
    public var fixesRejected: Int

    public var timeline: [TimelineEntry]
    /// Seconds per activity over the timeline's moves (`walking`, `cycling`, `vehicle`, `unknown`)
    /// plus `stop`.
    public var activitySeconds: [String: Double]
    public var movement: Movement
    public var health: Health
    /// Plain-sentence findings that need the owner's attention (also in `health.findings`).
    public var messages: [String]

    public init(analysisVersion: Int, files: [SourceFile]) {
        self.analysisVersion = analysisVersion; self.files = files
        start = nil; end = nil; durationS = 0; rows = [:]
        distanceM = 0; movingS = 0; averageSpeedMps = nil; maxSpeedMps = nil
        elevationGainM = 0; elevationLossM = 0; bbox = nil; fixesUsed = 0; fixesRejected = 0
        timeline = []; activitySeconds = [:]
        movement = Movement(intervalS: 600, starts: [], sums: [], epochS: 60, epochStarts: [], counts: [], source: nil)
        health = Health(); messages = []
    }

    /// One CSV file the summary was computed from; the cache compares these to the files on disk.
    public struct SourceFile: Codable, Sendable, Equatable {
        public var path: String
        public var bytes: Int64
        /// Modification time, nanoseconds since 1970.
        public var mtimeNs: Int64
        public init(path: String, bytes: Int64, mtimeNs: Int64) { self.path = path; self.bytes = bytes; self.mtimeNs = mtimeNs }
    }

    public struct BoundingBox: Codable, Sendable, Equatable {
        public var minLat: Double, minLon: Double, maxLat: Double, maxLon: Double
        public init(minLat: Double, minLon: Double, maxLat: Double, maxLon: Double) {
            self.minLat = minLat; self.minLon = minLon; self.maxLat = maxLat; self.maxLon = maxLon
        }
    }

    /// The sleep tracker's movement measure and actigraphy-style counts.
    public struct Movement: Codable, Sendable, Equatable {
        /// Interval length, seconds (default 600).
        public var intervalS: Double
        /// Start of each interval (Unix seconds, aligned to multiples of the interval).
        public var starts: [Double]
        /// Integral of |user acceleration| over each interval, g·s (sum of |ua| × sample period).
        public var sums: [Double]
        /// Actigraphy epoch, seconds (60).
        public var epochS: Double
        public var epochStarts: [Double]
        /// Activity count per epoch: integral of the 0.25–2.5 Hz band of |a|, milli-g·s.
        public var counts: [Double]
        /// `D` (user acceleration from the recording's fusion), `A` (gravity low-pass of A rows) or nil.
        @Nullable public var source: String?
    }

    /// The health of the recording: is the data trustworthy, what is missing.
    public struct Health: Codable, Sendable, Equatable {
        public var sources: [SourceHealth] = []
        public var droppedRows: Int64 = 0
        public var overruns: Int64 = 0
        public var missedTicks: Int64 = 0
        public var rowsLostToWriteErrors: Int64 = 0
        public var writeErrors: Int64 = 0
        public var clockSteps: Int = 0
        /// Rows whose When went backwards or repeated (a clock step, files out of order).
        public var timeJumps: Int = 0
        @Nullable public var gps: GPSQuality?
        /// Samples at the accelerometer / gyro range limit.
        public var accelClipped: Int = 0
        public var gyroClipped: Int = 0
        /// IMU rows left out for a value no sensor gives (infinite, or a million or more).
        public var impossibleRows: Int = 0
        @Nullable public var magnetometer: MagneticField?
        /// Every file ended cleanly (metadata `endedCleanly`); nil without metadata.
        @Nullable public var endedCleanly: Bool?
        /// Files that were recovered after a crash or power cut, or still need to be.
        public var recoveredFiles: [String] = []
        /// Lines that could not be used (defective rows, a torn last line).
        public var badLines: Int = 0
        public var tornLines: Int = 0
        public var findings: [String] = []
        public init() {}
    }

    /// Rate and gaps of one source.
    public struct SourceHealth: Codable, Sendable, Equatable {
        public var source: String
        public var rows: Int
        @Nullable public var configuredHz: Double?
        @Nullable public var achievedHz: Double?
        /// Histogram of intervals between consecutive rows: `gap_edges_s[i]` is the upper
        /// edge of `gap_counts[i]` (the last bin is open).
        public var gapEdgesS: [Double]
        public var gapCounts: [Int]
        /// The longest intervals, longest first.
        public var longestGaps: [Gap]
    }

    public struct Gap: Codable, Sendable, Equatable {
        public var start: Double
        public var durationS: Double
    }

    public struct GPSQuality: Codable, Sendable, Equatable {
        public var fixes: Int
        public var share3d: Double
        @Nullable public var medianEphM: Double?
        @Nullable public var p95EphM: Double?
        /// Fixes without a finite position.
        public var noPosition: Int
    }

    public struct MagneticField: Codable, Sendable, Equatable {
        /// Mean and standard deviation of the raw field magnitude |m|, µT (the device's
        /// own hard-iron offset included).
        public var meanUT: Double
        public var stdUT: Double

        /// Spelled so that snake_case (`mean_ut`) reads back to the same names.
        enum CodingKeys: String, CodingKey {
            case meanUT = "meanUt", stdUT = "stdUt"
        }
    }
}

/// One element of the timeline, in time order: a stop, a move or a gap.
public struct TimelineEntry: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable { case stop, move, gap }
    public var type: Kind
    public var start: Double
    public var end: Double
    // Stops: the stay point's centre and the radius that holds its fixes.
    public var lat: Double?
    public var lon: Double?
    public var radiusM: Double?
    // Moves.
    public var activity: Activity?
    public var distanceM: Double?
    public var meanSpeedMps: Double?
    public var maxSpeedMps: Double?
    /// What decided the activity.
    public var basis: ActivityBasis?

    public init(type: Kind, start: Double, end: Double) { self.type = type; self.start = start; self.end = end }

    public var duration: Double { end - start }

    enum CodingKeys: String, CodingKey {
        case type, start, end, lat, lon, radiusM, activity, distanceM, meanSpeedMps, maxSpeedMps, basis
    }

    /// Every key of its type, `null` where the value is not known (a stop or move from the
    /// IMU alone has no position, distance or speed): docs/ANALYSIS.md promises the keys,
    /// and `e["distance_m"]` of such a move raised KeyError in Python. A gap has only its times.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(type, forKey: .type)
        try c.encode(start, forKey: .start)
        try c.encode(end, forKey: .end)
        func put<T: Encodable>(_ value: T?, _ key: CodingKeys) throws {
            if let value { try c.encode(value, forKey: key) } else { try c.encodeNil(forKey: key) }
        }
        switch type {
        case .stop:
            try put(lat, .lat)
            try put(lon, .lon)
            try put(radiusM, .radiusM)
        case .move:
            try put(activity, .activity)
            try put(distanceM, .distanceM)
            try put(meanSpeedMps, .meanSpeedMps)
            try put(maxSpeedMps, .maxSpeedMps)
            try put(basis, .basis)
        case .gap:
            break
        }
    }
}

/// How a move was made.
public enum Activity: String, Codable, Sendable, CaseIterable {
    case walking, cycling, vehicle, unknown
}

/// What decided a move's activity (docs/ANALYSIS.md, "Activity"); the raw values are the
/// JSON's `basis`.
public enum ActivityBasis: String, Codable, Sendable, CaseIterable {
    /// The GPS speed profile of the move's fixes.
    case speed
    /// The speed profile and the accelerometer (steps, vibration).
    case speedAndIMU = "speed+imu"
    /// The accelerometer alone (no fixes over the move).
    case imu
    /// Signal lost while covering ground faster than anyone walks: the straight-line speed
    /// over the loss.
    case gapSpeed = "gap-speed"
    /// A loss at a bicycle's pace between rides (rule 7).
    case gapSpeedAndNeighbours = "gap-speed+neighbours"
    /// Too few fixes to judge; the moves it meets agreed (rule 7).
    case neighbours
}
