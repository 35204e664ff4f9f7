/// How long and how often each figure is measured. The default is what issue 7 asks for;
/// `--quick` shortens everything for development (its numbers are not the reference).
struct BenchPlan: Codable, Sendable {
    var quick: Bool
    var schedulerRates = [100, 500, 1000]
    /// Seconds per side (motionlog and the C floor) per rate, split into alternating segments.
    var schedulerSeconds = 60.0
    var schedulerSegments = 12
    /// Rates measured again with both sides pinned to one CPU, and seconds per side.
    var oneCPURates = [1000]
    var oneCPUSeconds = 20.0
    /// Ticks of rows (1 kHz, all sources) for the format figure, and rounds per writer.
    var formatTicks = 100_000
    var formatRounds = 5
    /// Random bit patterns the formatter is checked on against Double.description (make
    /// test checks 10^7 in a debug build; the bench checks more in release).
    var formatterCheckValues = 50_000_000
    /// Ticks for CPU per tick on the simulated clock.
    var simulatedTicks = 200_000
    /// The two tick counts whose callgrind totals are subtracted.
    var callgrindTicks = [2_000, 12_000]
    /// `motionlog record --fast` durations (seconds of recording) for the memory figure.
    var memoryDurations = [60.0, 3600.0]
    var stallLengths = [0.5, 2.0, 5.0]
    var stallFirstAfter = 5.0
    var stallInterval = 10.0
    var stallCount = 2
    var stallTail = 5.0
    /// Smaller buffers tried at the longest stall, to show where dropping starts.
    var sweepBufferRows = [16_384]
    /// Web figure: seconds of the `--fast` 1 kHz recording served for download (all sources
    /// write about 449 kB per second, so 1 115 s is about 500 MB), and download rounds.
    var webRecordingSeconds = 1115.0
    var webDownloadRounds = 3
    /// Recordings in the listed folder, and warm requests per page after the first.
    var webListRecordings = 10_000
    var webListWarmRequests = 20
    /// Longest wait for serve to finish its background work (summaries) before measuring.
    var webSettleLimitSeconds = 900.0
    /// Seconds of `record --rate 1000` (real clock) per side — alone, downloading from
    /// serve, downloading from nginx — split into this many segments per side (alone,
    /// serve, nginx, nginx, serve, alone, ...).
    var webSamplerSeconds = 60.0
    var webSamplerSegments = 2

    static let full = BenchPlan(quick: false)

    static let quickPlan: BenchPlan = {
        var p = BenchPlan(quick: true)
        p.schedulerSeconds = 4
        p.schedulerSegments = 2
        p.oneCPUSeconds = 4
        p.formatTicks = 20_000
        p.formatRounds = 3
        p.formatterCheckValues = 10_000_000
        p.simulatedTicks = 50_000
        p.callgrindTicks = [500, 2_500]
        p.memoryDurations = [10, 60]
        p.stallFirstAfter = 2
        p.stallInterval = 2
        p.stallCount = 1
        p.stallTail = 1
        p.webRecordingSeconds = 240
        p.webListWarmRequests = 10
        p.webSamplerSeconds = 8
        p.webSamplerSegments = 1
        return p
    }()

    /// Seconds a stall run records: lead, stalls with gaps between them, and a tail.
    func stallRunSeconds(_ length: Double) -> Double {
        stallFirstAfter + Double(stallCount) * length + Double(max(0, stallCount - 1)) * stallInterval + stallTail
    }
}
