/// The analysis' thresholds, with defaults from the literature (docs/ANALYSIS.md gives
/// each one's source). All configurable from `motionlog summary`.
public struct AnalysisOptions: Sendable, Equatable {
    /// Stay points (trackintel's sliding method, Li et al. 2008): a stop is a run of fixes
    /// within `stopRadiusM` of its first fix lasting at least `stopMinSeconds`; fixes more
    /// than `stopMaxGapSeconds` apart never form one. Defaults: trackintel's 100 m, 5 min, 15 min.
    public var stopRadiusM = 100.0
    public var stopMinSeconds = 300.0
    public var stopMaxGapSeconds = 900.0
    /// Whether the fixes after the last departure form a stop when they lasted
    /// `stopMinSeconds` (trackintel's `include_last=True`; its default is false, which made
    /// a wait at the end of a recording part of the last move), at the end of the track and
    /// before a break (a loss longer than `stopMaxGapSeconds`, a jump).
    public var finalStop = true
    /// A stretch without any data longer than this is a `gap` in the timeline; shorter
    /// losses of GPS (a tunnel, a train) stay inside the move they interrupt.
    public var gapSeconds = 600.0
    /// Movement per interval and actigraphy epoch, seconds.
    public var movementIntervalS = 600.0
    public var epochS = 60.0
    /// Fixes with a larger horizontal error estimate (eph) are not used.
    public var maxEphM = 50.0
    /// Faster than this between two fixes is an impossible jump (outlier).
    public var maxSpeedMps = 100.0
    /// Slower than this counts as standing still for moving time.
    public var movingSpeedMps = 0.5
    /// Elevation changes smaller than this are noise (hysteresis).
    public var elevationHysteresisM = 5.0
    /// Only rows with When in `[from, to)` are used (`--day`), nil for all.
    public var from: Double?
    public var to: Double?
    /// Whether the track and timeline are computed a piece at a time (`TrackTimeline`);
    /// off, the whole track is one piece (the same result, all fixes held: tests compare).
    var piecewise = true
    /// A stretch of more fixes than this without a stop or a long loss is cut anyway (where
    /// no stay point can span the cut), so a track that never stops is not held whole: 2^15
    /// fixes, 9 h at 1 Hz, 55 min at 10 Hz, about 5 MB while analysed (`TrackTimeline`).
    var longestPieceFixes = 1 << 15

    public init() {}
}
