/// Builds the timeline: stops (stay points), moves with their activity, and gaps.
///
/// 1. Stay points over all fixes (`StayPoints`, trackintel's method and defaults).
/// 2. Between stops, the track is a move; a stretch without fixes longer than
///    `gapSeconds` splits it, and becomes either a `gap` or, where the accelerometer kept
///    recording, stretches classified from the IMU alone.
/// 3. Each move is split at walk / non-walk change points and each piece classified
///    (`ModeClassifier`); pieces shorter than a minute are merged into their neighbours.
/// Without any fix the timeline comes from the IMU alone: lying or sitting still for at
/// least the stop duration is a stop (without a position), the rest moves.
/// Where another recording begins: the When of its first `L` row, and the pause before it
/// that makes it another recording (0 when the metadata says so; the gap limit without).
struct RecordingBreak {
    var time: Double
    var longerThan: Double
    /// Not another recording: parts of this one are missing from `time` on (just after the
    /// last row before them) to the next row, and nothing spans them.
    var hole = false
    /// Where the missing parts end: the first row after them, where the metadata says it
    /// (nil: not known; the hole then ends at the next window of the accelerometer).
    var end: Double?

    /// Whether going from a fix at time `a` to one at `b` crosses from one recording into another.
    static func crossed(_ breaks: [RecordingBreak], from a: Double, to b: Double) -> Bool {
        breaks.contains { $0.time > a && $0.time <= b && b - a > $0.longerThan }
    }
}

struct TimelineBuilder {
    let fixes: [Fix]
    /// The stay points of the fixes (`StayPoints`), indices into `fixes`.
    let stays: [StayPoint]
    let speeds: [Double]
    /// Speeds over ±15 s: position noise divided by 30 s instead of 10 s, for deciding the
    /// kind of motion and the speed percentiles (urban-canyon jitter of 10 m would make a
    /// walker look like a cyclist on ±5 s speeds).
    let steadySpeeds: [Double]
    /// Speeds held for `TrackStats.heldSeconds` (the moves' maximum speeds).
    let heldSpeeds: [Double]
    /// The track: the moves' distances are differences of its running distance.
    let track: TrackStats
    let imu: IMUIndex
    let options: AnalysisOptions
    /// Half-width of the window whose median speed decides walk-like or not, seconds.
    static let kindWindow = 45.0
    /// Fixes on each side that the window holds at least, when fixes are sparse.
    static let kindNeighbours = 2
    /// A loss of GPS longer than this (and up to `bridgeMaxSeconds`) covered faster than
    /// `bridgeMinSpeed` in a straight line was spent in a vehicle.
    static let bridgeMinSeconds = 120.0
    static let bridgeMaxSeconds = 7200.0
    static let bridgeMinSpeed = 3.0
    /// Two fixes this far apart are not one place seen with a position error: beyond the
    /// 100–600 m the first fixes after GPS comes back are often off (GeoLife).
    static let sparseMinMetres = 800.0

    /// First and last row of the recording (any source): the accelerometer's windows lie on
    /// a 5 s grid, and a night recorded from 22:04:01 to 06:04:29 was "still 22:04:00–06:04:30".
    let rows: ClosedRange<Double>
    /// Where other recordings begin, in time order: the logger was off before each, so
    /// nothing is inferred across it (two recordings 30 min and 6 km apart were a
    /// "vehicle, 30 min" move by the loss-of-signal rule).
    var recordingBreaks: [RecordingBreak] = []

    /// Whether the step from fix `a` to the next fix `b` is a loss of signal spent in a
    /// vehicle (`bridgeMinSeconds`…`bridgeMaxSeconds` covered at `bridgeMinSpeed` or more,
    /// within one recording), which becomes a `gap-speed` move.
    static func bridges(_ a: Fix, _ b: Fix, breaks: [RecordingBreak]) -> Bool {
        let dt = b.time - a.time
        return !b.jumped && dt > bridgeMinSeconds && dt <= bridgeMaxSeconds
            && a.distance(to: b) / max(dt, 1) >= bridgeMinSpeed && !RecordingBreak.crossed(breaks, from: a.time, to: b.time)
    }

    /// What the accelerometer alone says (before, after and between the fixes).
    var imuTimeline: IMUTimeline { IMUTimeline(imu: imu, options: options, rows: rows, breaks: recordingBreaks) }

    /// The timeline of all the fixes.
    func build() -> [TimelineEntry] { Self.finish(entries(leading: true, trailing: true)) }

    /// The entries of a timeline's pieces, in time order, made final: short moves take
    /// their neighbour's activity and touching moves of one activity become one.
    static func finish(_ entries: [TimelineEntry]) -> [TimelineEntry] {
        joinTouchingMoves(judgeByNeighbours(absorbShortMoves(entries)))
    }

    /// Moves judged by the moves they meet end to start, where their own evidence is thin:
    /// * A loss bridged as `vehicle` (`gap-speed`) at a straight-line speed a bicycle
    ///   reaches (below `ModeClassifier.vehicleP85`) whose touching moves are all `cycling`
    ///   is `cycling`: a rider's logger saving a fix every one to two minutes made every
    ///   longer step a "vehicle" (13 km/h in a straight line between two rides).
    /// * A GPS move left `unknown` (too few fixes to judge, faster than walking) takes the
    ///   activity of the moves it meets when they agree on `cycling` or `vehicle`: changing
    ///   from one to the other passes through walking, and the move is too fast to be that
    ///   walk. A logger saving a fix a minute in a bus left such pieces between its
    ///   `vehicle` moves.
    static func judgeByNeighbours(_ entries: [TimelineEntry]) -> [TimelineEntry] {
        var out = entries
        func neighbourActivities(_ k: Int) -> Set<Activity> { Set(neighbours(of: k, in: out).compactMap { out[$0].activity }) }
        for k in out.indices where out[k].type == .move && out[k].basis == .gapSpeed {
            guard let metres = out[k].distanceM, out[k].duration > 0,
                  metres / out[k].duration < ModeClassifier.vehicleP85 else { continue }
            let around = neighbourActivities(k)
            if around == [.cycling] {
                out[k].activity = .cycling
                out[k].basis = .gapSpeedAndNeighbours
            }
        }
        for k in out.indices where out[k].type == .move && out[k].activity == .unknown && out[k].distanceM != nil {
            let around = neighbourActivities(k)
            guard around.count == 1, let activity = around.first, activity == .cycling || activity == .vehicle else { continue }
            out[k].activity = activity
            out[k].basis = .neighbours
        }
        return out
    }

    /// The entries of these fixes (one piece of a track, `TrackTimeline`), not yet
    /// `finish`ed; `leading`: what the IMU saw before the first fix (or, with fewer than
    /// two fixes in all, the whole IMU timeline), `trailing`: after the last one.
    func entries(leading: Bool, trailing: Bool) -> [TimelineEntry] {
        var out: [TimelineEntry] = []
        let imuOnly = imuTimeline
        guard fixes.count >= 2 else {
            if leading {
                guard let span = imuOnly.span else { return [] }
                return imuOnly.entries(from: span.start, to: span.end)
            }
            // The last piece of a track: its first fix ended the piece before.
            guard trailing, let last = fixes.last else { return [] }
            return imuOnly.after(last.time)
        }
        if leading { out += imuOnly.before(fixes[0].time) }
        var index = 0
        for stay in stays {
            if stay.first > index { out += moves(index, stay.first) }
            var e = TimelineEntry(type: .stop, start: stay.start, end: stay.end)
            e.lat = (stay.lat * 1e7).rounded() / 1e7; e.lon = (stay.lon * 1e7).rounded() / 1e7
            e.radiusM = Text.round(stay.radius, 1)
            out.append(e)
            index = stay.endIndex
        }
        if index < fixes.count - 1 { out += moves(index, fixes.count - 1) }
        if trailing { out += imuOnly.after(fixes[fixes.count - 1].time) }
        return out
    }

    /// A move shorter than a minute that touches a longer move on either side takes the
    /// activity of the longer neighbour, as short runs inside a stretch do (step 3 of
    /// `classify`): the pieces around a bridged loss are classified apart, and two fixes
    /// 230 m and 11 s apart between two bridged vehicle moves were "walking, 75.6 km/h".
    static func absorbShortMoves(_ entries: [TimelineEntry]) -> [TimelineEntry] {
        var out = entries
        for k in out.indices where out[k].type == .move && out[k].duration < ModeClassifier.minRunSeconds {
            let longer = neighbours(of: k, in: out).filter { out[$0].duration > out[k].duration }
            guard let longest = longer.max(by: { out[$0].duration < out[$1].duration }) else { continue }
            out[k].activity = out[longest].activity
        }
        return out
    }

    /// Whether move `b` follows move `a` with nothing between, both from GPS or both from
    /// the IMU alone (or one of them an IMU sliver).
    static func meet(_ a: TimelineEntry, _ b: TimelineEntry) -> Bool {
        a.type == .move && b.type == .move && a.end == b.start
            && ((a.distanceM == nil) == (b.distanceM == nil) || isSliver(a) || isSliver(b))
    }

    /// A move of the accelerometer alone shorter than one IMU window: it meets the moves of
    /// the fixes beside it (takes their activity, joins them). Between the last fix and a
    /// missing part, 0.66 s of rows made a "cycling" move beside a walk.
    static func isSliver(_ e: TimelineEntry) -> Bool { e.distanceM == nil && e.duration < IMUWindowBuilder.windowSeconds }

    /// The moves that meet entry `k` (before it, after it).
    static func neighbours(of k: Int, in entries: [TimelineEntry]) -> [Int] {
        (k > 0 && meet(entries[k - 1], entries[k]) ? [k - 1] : []) + (k + 1 < entries.count && meet(entries[k], entries[k + 1]) ? [k + 1] : [])
    }

    /// Moves with the same activity that meet end to start become one (a train logged once a
    /// minute was a row of `vehicle` pieces: classified stretches and the losses bridged
    /// between them). Distances add up; the mean speed is recomputed; the basis is the
    /// longer piece's. Pieces with and without a GPS distance (IMU only) stay apart, but for
    /// an IMU-only sliver shorter than one window (`isSliver`).
    static func joinTouchingMoves(_ entries: [TimelineEntry]) -> [TimelineEntry] {
        var out: [TimelineEntry] = []
        for e in entries {
            guard var last = out.last, meet(last, e), last.activity == e.activity else {
                out.append(e); continue
            }
            if e.duration > last.duration { last.basis = e.basis }
            last.end = e.end
            if let a = last.distanceM, let b = e.distanceM {
                last.distanceM = Text.round(a + b, 1)
                last.meanSpeedMps = Text.round((a + b) / last.duration, 2)
            } else if let d = last.distanceM ?? e.distanceM {
                last.distanceM = d
                last.meanSpeedMps = Text.round(d / last.duration, 2)
            }
            if let a = last.maxSpeedMps, let b = e.maxSpeedMps { last.maxSpeedMps = max(a, b) } else { last.maxSpeedMps = last.maxSpeedMps ?? e.maxSpeedMps }
            out[out.count - 1] = last
        }
        return out
    }

    /// Moves over fixes `lo...hi`, split at long losses of data.
    private func moves(_ lo: Int, _ hi: Int) -> [TimelineEntry] {
        var out: [TimelineEntry] = []
        var start = lo
        for i in (lo + 1)...hi {
            let dt = fixes[i].time - fixes[i - 1].time
            if Self.bridges(fixes[i - 1], fixes[i], breaks: recordingBreaks) {
                let straight = fixes[i - 1].distance(to: fixes[i]) / max(dt, 1)
                // Signal lost while travelling faster than anyone walks (a train, a subway,
                // a bus): a vehicle move over the loss, straight-line distance.
                if i - 1 > start { out += classify(start, i - 1) }
                var e = TimelineEntry(type: .move, start: fixes[i - 1].time, end: fixes[i].time)
                e.activity = .vehicle; e.basis = .gapSpeed
                e.distanceM = Text.round(straight * dt, 1)
                e.meanSpeedMps = Text.round(straight, 2)
                e.maxSpeedMps = e.meanSpeedMps
                out.append(e)
                start = i
                continue
            }
            if dt > options.gapSeconds || fixes[i].jumped {
                if i - 1 > start { out += classify(start, i - 1) }
                let covered = imu.range(from: fixes[i - 1].time, to: fixes[i].time).count
                if Double(covered) * IMUWindowBuilder.windowSeconds >= 0.5 * dt {
                    out += imuTimeline.entries(from: fixes[i - 1].time, to: fixes[i].time)
                } else {
                    out.append(TimelineEntry(type: .gap, start: fixes[i - 1].time, end: fixes[i].time))
                }
                start = i
            }
        }
        if hi > start { out += classify(start, hi) }
        return out
    }

    /// A run of fixes with one provisional kind.
    private struct Run {
        var lo: Int, hi: Int
        var walkLike: Bool
        var activity: Activity = .unknown
        var basis = ActivityBasis.speed
    }

    /// Splits fixes `lo...hi` (no long gaps inside) into activities.
    private func classify(_ lo: Int, _ hi: Int) -> [TimelineEntry] {
        // 1. Walk-like or not per fix, from the median of the moving speeds within ±45 s
        //    (a red light or a jittery fix does not change the mode); fixes with no moving
        //    fix near them take the kind of the fix before (or after, at the start).
        var kinds = [Bool?](repeating: nil, count: hi - lo + 1)
        var a = lo, b = lo
        var window: [Double] = []
        for i in lo...hi {
            while fixes[a].time < fixes[i].time - Self.kindWindow { a += 1 }
            while b < hi && fixes[b + 1].time <= fixes[i].time + Self.kindWindow { b += 1 }
            // Sparse fixes (a logger saving every 30–60 s): the window also holds the
            // `kindNeighbours` nearest fixes on each side, however far (the move has no
            // loss longer than the gap limit inside), so it never decides on one fix.
            let from = min(a, max(lo, i - Self.kindNeighbours)), to = max(b, min(hi, i + Self.kindNeighbours))
            window.removeAll(keepingCapacity: true)
            for j in from...to where steadySpeeds[j] >= ModeClassifier.stillMax { window.append(steadySpeeds[j]) }
            guard window.count >= 3 else { continue }
            window.sort()
            kinds[i - lo] = window[window.count / 2] <= ModeClassifier.walkMax
        }
        var last: Bool? = kinds.first { $0 != nil } ?? true
        for k in kinds.indices {
            if let v = kinds[k] { last = v } else { kinds[k] = last }
        }
        // 2. Runs of equal kind.
        var runs: [Run] = []
        for i in lo...hi {
            let walk = kinds[i - lo] ?? true
            if let r = runs.last, r.walkLike == walk { runs[runs.count - 1].hi = i } else {
                runs.append(Run(lo: i, hi: i, walkLike: walk))
            }
        }
        // 3. Merge runs too short to be real into their neighbours, shortest first.
        mergeShort(&runs) { a, b in a.walkLike == b.walkLike }
        // 4. Classify each run, then merge neighbours that came out the same.
        for k in runs.indices {
            var f = ModeClassifier.features(fixes: fixes, speeds: speeds, steady: steadySpeeds, range: runs[k].lo...runs[k].hi, imu: imu)
            var walkLike = runs[k].walkLike
            var tooFewToJudge = false
            if f.movingFixes < ModeClassifier.minMovingFixes {
                // Too few moving fixes to judge by their speeds: walk-like, unless the fixes
                // are further apart than any position error, covered faster than anyone
                // walks — the evidence a bridged loss is judged on. (A train logged once a
                // minute, two fixes between two bridged losses: 1.8 km in 70 s was
                // "walking, 94 km/h".) Its straight-line speed is then its speed.
                let first = fixes[runs[k].lo], last = fixes[runs[k].hi]
                let straight = first.distance(to: last), dt = last.time - first.time
                if dt > 0 && straight >= Self.sparseMinMetres && straight >= Self.bridgeMinSpeed * dt {
                    let v = straight / dt
                    f.p50 = v; f.p85 = v; f.p95 = v
                    walkLike = false
                } else {
                    walkLike = true
                    // Faster than anyone walks, over less than a position error can explain:
                    // nothing to tell the mode by (a 2 s move of two fixes, 13 m apart, at the
                    // end of an imported ride was "walking, 23.4 km/h").
                    tooFewToJudge = dt > 0 && straight / dt > ModeClassifier.walkMax + 0.3
                }
            }
            (runs[k].activity, runs[k].basis) = walkLike ? ModeClassifier.classifyWalkLike(f) : ModeClassifier.classifyFast(f)
            if tooFewToJudge && runs[k].basis == .speed { runs[k].activity = .unknown }
        }
        var merged: [Run] = []
        for r in runs {
            if let m = merged.last, m.activity == r.activity { merged[merged.count - 1].hi = r.hi } else { merged.append(r) }
        }
        // 5. Entries: a run ends where the next begins.
        var out: [TimelineEntry] = []
        for (k, r) in merged.enumerated() {
            let startIndex = r.lo, endIndex = k + 1 < merged.count ? merged[k + 1].lo : r.hi
            var e = TimelineEntry(type: .move, start: fixes[startIndex].time, end: fixes[endIndex].time)
            guard e.end > e.start else { continue }
            e.activity = r.activity
            e.basis = r.basis
            let distance = track.distance(from: startIndex, to: endIndex)
            let top = heldSpeeds[startIndex..<endIndex].max() ?? 0
            e.distanceM = Text.round(distance, 1)
            e.meanSpeedMps = Text.round(distance / e.duration, 2)
            e.maxSpeedMps = Text.round(TrackStats.maximum(held: top, distance: distance, seconds: e.duration), 2)
            out.append(e)
        }
        return out
    }

    /// Repeatedly merges the shortest run under a minute into a neighbour (the longer
    /// one), until every run is long enough or only one is left.
    private func mergeShort(_ runs: inout [Run], same: (Run, Run) -> Bool) {
        func duration(_ r: Run) -> Double { fixes[r.hi].time - fixes[r.lo].time }
        while runs.count > 1 {
            guard let k = runs.indices.filter({ duration(runs[$0]) < ModeClassifier.minRunSeconds })
                    .min(by: { duration(runs[$0]) < duration(runs[$1]) }) else { break }
            let left = k > 0 ? k - 1 : nil, right = k + 1 < runs.count ? k + 1 : nil
            let target: Int
            switch (left, right) {
            case let (l?, r?): target = duration(runs[l]) >= duration(runs[r]) ? l : r
            case let (l?, nil): target = l
            case let (nil, r?): target = r
            default: return
            }
            let lo = min(runs[k].lo, runs[target].lo), hi = max(runs[k].hi, runs[target].hi)
            runs[target].lo = lo; runs[target].hi = hi
            runs.remove(at: k)
            // Neighbours of the same kind now touch: join them.
            var joined: [Run] = []
            for r in runs {
                if let j = joined.last, same(j, r) { joined[joined.count - 1].hi = r.hi } else { joined.append(r) }
            }
            runs = joined
        }
    }
}
