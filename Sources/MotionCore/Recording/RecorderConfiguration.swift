/// Everything that decides what a recording contains and how it is written.
public struct RecorderConfiguration: Sendable {
    /// One rate for all sources, as in MotionCollector (Hz).
    public var rateHz: Int
    public var sources: Set<Source>
    /// Initial label letter (ASCII).
    public var label: UInt8
    public var whenMode: WhenMode
    /// Seconds to record (nil: until stopped). The recording has exactly duration × rate ticks.
    public var duration: Double?
    public var rotation: RotationPolicy
    public var fsyncIntervalSeconds: Double
    /// Rows per buffer (the writer has two).
    public var bufferRows: Int
    public var boardName: String
    public var boardDescription: String?
    public var softwareVersion: String
    /// A description of the GPS source for the metadata (e.g. `gpsd localhost:2947`).
    public var gpsDescription: String?
    /// Who makes the number text: always our formatter, except in benchmarks comparing it
    /// with `Double.description` (the same bytes).
    public var numberText: NumberText.Maker = .ownFormatter
    /// The kernel's verdict on the system clock at start (nil: not asked, e.g. the simulated
    /// clock): the metadata's `clock` is `system-unsynchronised` when false.
    public var systemClockSynchronised: Bool?

    public init(rateHz: Int = RecorderConfiguration.defaultRateHz, sources: Set<Source> = Set(Source.allCases), label: UInt8 = Label.defaultLetter,
                whenMode: WhenMode = .epoch, duration: Double? = nil, rotation: RotationPolicy = .none,
                fsyncIntervalSeconds: Double = 1, bufferRows: Int = RecorderConfiguration.defaultBufferRows,
                boardName: String, boardDescription: String? = nil, softwareVersion: String,
                gpsDescription: String? = nil) {
        self.rateHz = rateHz; self.sources = sources; self.label = label; self.whenMode = whenMode
        self.duration = duration; self.rotation = rotation; self.fsyncIntervalSeconds = fsyncIntervalSeconds
        self.bufferRows = bufferRows; self.boardName = boardName; self.boardDescription = boardDescription
        self.softwareVersion = softwareVersion; self.gpsDescription = gpsDescription
    }

    /// Rows per buffer by default: 32768 rows (about 2.9 MB per buffer) holds 8 s of all
    /// sources at 1 kHz, enough to ride out a 5 s card stall (see BENCHMARKS.md).
    public static let defaultBufferRows = 32_768
    /// The sample rate when neither options nor config name one.
    public static let defaultRateHz = 100

    /// Valid rates.
    public static let rateRange = 1...10_000
    /// The smallest file size rotation may be set to (`--rotate-size`, `rotate_size`): a
    /// `rotate_size: 64` (a forgotten M) began a new file about 100 times a second.
    public static let minimumRotateBytes: Int64 = 4096
}
