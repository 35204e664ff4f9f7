/// The track and timeline of a recording's filtered fixes, computed a piece at a time as
/// the fixes arrive, so that what is held follows the longest piece, not the recording.
///
/// The track is cut where nothing computed on one side depends on the other:
/// - at the fix that leaves a stay point (its stop ends there; the move after it starts
///   there);
/// - at a loss of fixes that no move bridges and that no speed, stop or move is computed
///   across (longer than the gap limit, the stop's longest gap and the 5 minutes over which
///   sparse fixes are still joined for a speed).
/// A stretch of more than `AnalysisOptions.longestPieceFixes` fixes without either is cut
/// as well, at a fix where the stay-point window restarts: its move is classified in parts
/// (joined again where they agree), the one place where the result is not the whole
/// track's.
/// Each piece is analysed by `TrackStats` and `TimelineBuilder` as the whole track was, on
/// its own fixes, with their speeds computed from the fixes around them: a minute and three
/// fixes on each side, more than any speed window reaches (±15 s, 20 s held, one
/// neighbour). So a piece is analysed once fixes a minute past its end have arrived, and
/// once the accelerometer's windows up to its end are complete. The distance and moving
/// time are added up over the pieces fix by fix, in track order, as over the whole track;
/// the entries of all pieces are finished together (`TimelineBuilder.finish`). The result
/// is the same, bit for bit, as analysing the whole track at once (`piecewise` off), for
/// rows in time order and no stretch longer than that.
///
/// What is held: the fixes of the piece being collected (from the stay point or gap before
/// it to the next, at most `longestPieceFixes` and a minute), the stay points and cuts not
/// yet analysed, and the timeline's entries.
struct TrackTimeline {
    let options: AnalysisOptions
    /// Every fix in `all`, for the exports that draw the track.
    let keepAll: Bool
    private(set) var all: [Fix] = []
    /// Called with every fix, in order, instead of analysing them (the second reading of
    /// `export --format timeline`, `RecordingAnalyzer.forEachFix`).
    var eachFix: ((Fix) -> Void)?
    /// Fixes held: `buffer[k - base]` is fix `k` of the track.
    private var buffer: [Fix] = []
    private var base = 0
    /// Fixes in the track so far.
    private(set) var count = 0
    private var stayPoints: StayPoints
    /// Stay points (track indices) not yet in an analysed piece.
    private var stays: [StayPoint] = []
    /// Where pieces end (track indices, ascending) that are not analysed yet; the next
    /// piece starts at `pieceStart` (a cut fix belongs to the pieces on both sides).
    private var cuts: [Int] = []
    private var pieceStart = 0
    /// The cuts inside a move (`AnalysisOptions.longestPieceFixes`), and, when the next
    /// piece starts at one, the point the distance was last counted from before it.
    private var moveCuts: Set<Int> = []
    private var counted: Fix?
    /// The entries of the pieces analysed so far.
    private var entries: [TimelineEntry] = []
    private var firstTime: Double?
    private(set) var distance = 0.0
    private(set) var moving = 0.0
    /// The highest speed held for `TrackStats.heldSeconds`.
    private var topHeld: Double?
    private(set) var bbox: AnalysisSummary.BoundingBox?
    private var elevation: ElevationCounter
    /// Pieces analysed (for tests: a long track is cut).
    private(set) var pieces = 0
    /// The most fixes to hold at once (nil: no limit); past it nothing more is held and
    /// `exceeded` is set: the caller gives up (`AnalysisMemory.TooLong`).
    let heldLimit: Int?
    private(set) var exceeded = false

    static let marginSeconds = 60.0
    static let marginFixes = 3

    init(options: AnalysisOptions, keepAll: Bool, heldLimit: Int? = nil) {
        self.options = options
        self.keepAll = keepAll
        self.heldLimit = heldLimit
        stayPoints = StayPoints(options: options)
        elevation = ElevationCounter(hysteresis: options.elevationHysteresisM)
    }

    var gain: Double { elevation.gain }
    var loss: Double { elevation.loss }
    /// The highest speed held (`TrackStats.maximum`), nil without fixes.
    var maxSpeed: Double? { topHeld.map { TrackStats.maximum(held: $0, distance: distance, seconds: moving) } }

    private func fix(_ k: Int) -> Fix { buffer[k - base] }

    /// The time of the earliest fix held (the pieces still to analyse start there; nil
    /// when none is): the IMU windows before it are needed for their kind only.
    var heldFrom: Double? { buffer.first?.time }

    /// The next fix of the track (after the one before in time). `imu`: the accelerometer's
    /// windows so far, and where the one still being filled starts (nil: none is); `breaks`:
    /// where other recordings begin.
    mutating func add(_ f: Fix, imu: IMUIndex, imuPending: Double?, breaks: [RecordingBreak]) {
        guard !exceeded else { return }
        if let heldLimit, buffer.count >= heldLimit {
            exceeded = true
            buffer = []; all = []; stays = []; cuts = []; entries = []
            return
        }
        if let eachFix { eachFix(f); return }
        if keepAll { all.append(f) }
        if firstTime == nil { firstTime = f.time }
        let box = bbox ?? .init(minLat: f.lat, minLon: f.lon, maxLat: f.lat, maxLon: f.lon)
        bbox = .init(minLat: min(box.minLat, f.lat), minLon: min(box.minLon, f.lon),
                     maxLat: max(box.maxLat, f.lat), maxLon: max(box.maxLon, f.lon))
        let current = count
        let previous = current > 0 ? fix(current - 1) : nil
        elevation.add(f, breaks: previous.map { f.jumped || f.time - $0.time > options.gapSeconds } ?? false)
        buffer.append(f)
        count += 1
        guard let previous else { return }
        if let stay = stayPoints.next(current, in: buffer, base: base) {
            stays.append(stay)
            if options.piecewise { cuts.append(current) }
        } else if options.piecewise && isCut(previous, f, breaks: breaks) {
            cuts.append(current)
        } else if options.piecewise && stayPoints.anchor == current
                    && current - (cuts.last ?? pieceStart) >= options.longestPieceFixes {
            // A long stretch without a stop (a day's drive, a passage at sea): cut where the
            // stay-point window has just restarted, so no stay point spans the cut.
            cuts.append(current)
            moveCuts.insert(current)
        }
        while let end = cuts.first, isReady(end, imuPending: imuPending) {
            cuts.removeFirst()
            analysePiece(to: end, imu: imu, rows: nil, breaks: breaks, leading: false, trailing: false)
        }
    }

    /// Whether the step from `a` to the next fix `b` is a loss nothing is computed across.
    private func isCut(_ a: Fix, _ b: Fix, breaks: [RecordingBreak]) -> Bool {
        let dt = b.time - a.time
        let apart = max(options.gapSeconds, options.stopMaxGapSeconds, 5 * TrackStats.joinSeconds)
        return dt > apart && !TimelineBuilder.bridges(a, b, breaks: breaks)
    }

    /// Whether the piece ending at fix `end` can be analysed: three fixes more than a
    /// minute after it have arrived, and no accelerometer window before it is still open.
    private func isReady(_ end: Int, imuPending: Double?) -> Bool {
        let k = count - Self.marginFixes
        guard k > end, fix(k).time > fix(end).time + Self.marginSeconds else { return false }
        return imuPending.map { $0 >= fix(end).time } ?? true
    }

    /// The end of the track: the last pieces, with `rows` the recording's first and last
    /// row (any source), and the whole timeline.
    mutating func finish(imu: IMUIndex, rows: ClosedRange<Double>, breaks: [RecordingBreak]) -> [TimelineEntry] {
        elevation.finish()
        if count >= 2, let stay = stayPoints.final(count - 1, in: buffer, base: base) { stays.append(stay) }
        for end in cuts { analysePiece(to: end, imu: imu, rows: rows, breaks: breaks, leading: false, trailing: false) }
        cuts = []
        // Fewer than two fixes: no track; the timeline is the IMU's alone.
        let whole = count < 2
        analysePiece(to: count - 1, imu: imu, rows: rows, breaks: breaks, leading: whole, trailing: true)
        if !whole, let firstTime {
            entries = IMUTimeline(imu: imu, options: options, rows: rows, breaks: breaks).before(firstTime) + entries
        }
        return TimelineBuilder.finish(entries)
    }

    /// Analyses fixes `pieceStart...end` (none when `end` < `pieceStart`) and starts the
    /// next piece at `end`.
    private mutating func analysePiece(to end: Int, imu: IMUIndex, rows: ClosedRange<Double>?,
                                       breaks: [RecordingBreak], leading: Bool, trailing: Bool) {
        let start = pieceStart
        do {   // (what the piece holds is released before the buffer is trimmed)
            // The fixes whose speeds the piece's depend on, up to the newest.
            let from = start < count ? marginStart(start) : base
            // (Not copied where a piece is all that is held: a long track without stops.)
            let around = from == base ? buffer : Array(buffer[(from - base)...])
            let speedsAround = TrackStats.smoothedSpeeds(around)
            let heldAround = TrackStats.held(speedsAround, around)
            let piece = (start - from)..<(max(end, start - 1) + 1 - from)
            func part<T>(_ all: [T]) -> [T] { piece == all.indices ? all : Array(all[piece]) }
            let fixes = part(around), speeds = part(speedsAround), held = part(heldAround)
            let local = stays.filter { $0.endIndex <= end }.map { s -> StayPoint in
                var l = s; l.first -= start; l.endIndex -= start; return l
            }
            stays.removeAll { $0.endIndex <= end }
            let track = TrackStats(fixes, stays: local, speeds: speeds, heldSpeeds: held,
                                   distanceBefore: distance, movingBefore: moving, counted: counted, options: options)
            counted = moveCuts.remove(end) != nil ? track.lastCounted : nil
            distance = track.distance
            moving = track.moving
            if let top = held.max() { topHeld = max(topHeld ?? top, top) }
            // (After the track's per-fix sums are freed: one array fewer at the peak.)
            let steadyAround = TrackStats.smoothedSpeeds(around, halfWindow: 15)
            entries += builder(fixes, local, speeds, part(steadyAround), held, track, imu: imu, rows: rows ?? 0...0,
                               breaks: breaks).entries(leading: leading, trailing: trailing)
        }
        pieces += 1
        guard end >= start, !trailing else { return }
        pieceStart = end
        // Keep what the next piece's speeds look back at.
        let keep = marginStart(end)
        buffer.removeFirst(keep - base)
        base = keep
    }

    /// The first fix a piece starting at fix `start` needs: a minute and three fixes before it.
    private func marginStart(_ start: Int) -> Int {
        var k = start
        while k > base && fix(k - 1).time >= fix(start).time - Self.marginSeconds { k -= 1 }
        return max(base, k - Self.marginFixes)
    }

    private func builder(_ fixes: [Fix], _ stays: [StayPoint], _ speeds: [Double], _ steady: [Double], _ held: [Double],
                         _ track: TrackStats, imu: IMUIndex, rows: ClosedRange<Double>,
                         breaks: [RecordingBreak]) -> TimelineBuilder {
        TimelineBuilder(fixes: fixes, stays: stays, speeds: speeds, steadySpeeds: steady, heldSpeeds: held, track: track,
                        imu: imu, options: options, rows: rows, recordingBreaks: breaks)
    }
}
