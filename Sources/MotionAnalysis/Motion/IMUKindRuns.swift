/// What the accelerometer-only timeline reads of a window: its kind (`IMUTimeline`).
enum IMUWindowKind: UInt8, Sendable {
    case still, walking, cycling, vehicle, active

    init(_ w: IMUWindow) {
        if w.looksStill { self = .still }
        else if w.looksLikeSteps { self = .walking }
        else if !w.resolvesVibration { self = .active }   // cycling or riding: it cannot tell
        else if w.vibrationRMS >= ModeClassifier.cyclingVibration { self = .cycling }
        else if w.motionRMS < 0.05 { self = .vehicle }
        else { self = .active }
    }
}

/// Windows no piece of the track can still need whole, kept as runs of adjacent windows
/// (5 s apart, nothing missing between) of one kind: all the accelerometer-only timeline
/// reads of them. A night in bed is a few runs instead of 5760 windows of 7 numbers; the
/// windows of a recording grew by about 1.7 MB a day before (`IMUWindowBuilder.compact`).
struct IMUKindRun: Sendable {
    /// The first window's index (its start is `first` × `IMUWindowBuilder.windowSeconds`).
    var first: Int64
    var count: Int64
    var kind: IMUWindowKind

    var end: Int64 { first + count }
}

/// The IMU windows in time order: the older ones as kind runs, the recent ones whole.
struct IMUIndex {
    var runs: [IMUKindRun] = []
    var windows: [IMUWindow] = []

    /// The whole windows overlapping `[from, to)` (the features of a stretch of the track,
    /// which only ever lies among the recent windows).
    func range(from: Double, to: Double) -> ArraySlice<IMUWindow> {
        var lo = 0, hi = windows.count
        while lo < hi { let m = (lo + hi) / 2; if windows[m].start + IMUWindowBuilder.windowSeconds <= from { lo = m + 1 } else { hi = m } }
        var end = lo
        while end < windows.count && windows[end].start < to { end += 1 }
        return windows[lo..<end]
    }

    /// Start and kind of every window overlapping `[from, to)`, runs and whole windows alike,
    /// in time order.
    func forEachKind(from: Double, to: Double, _ body: (Double, IMUWindowKind) -> Void) {
        let length = IMUWindowBuilder.windowSeconds
        var lo = 0, hi = runs.count   // the first run ending after `from`
        while lo < hi { let m = (lo + hi) / 2; if Double(runs[m].end) * length <= from { lo = m + 1 } else { hi = m } }
        for run in runs[lo...] {
            if Double(run.first) * length >= to { break }
            for k in run.first..<run.end {
                let start = Double(k) * length
                if start + length > from && start < to { body(start, run.kind) }
            }
        }
        for w in range(from: from, to: to) { body(w.start, IMUWindowKind(w)) }
    }

    /// Keeps the whole windows that end at or before `time` as runs of their kind only, when
    /// there are at least `atLeast` of them.
    mutating func compact(before time: Double, atLeast: Int = 1) {
        let n = windows.firstIndex { $0.start + IMUWindowBuilder.windowSeconds > time } ?? windows.count
        guard n >= atLeast else { return }
        for w in windows[..<n] {
            let k = floorToInt64(w.start / IMUWindowBuilder.windowSeconds), kind = IMUWindowKind(w)
            if let last = runs.last, last.kind == kind, last.end == k {
                runs[runs.count - 1].count += 1
            } else {
                runs.append(IMUKindRun(first: k, count: 1, kind: kind))
            }
        }
        windows.removeFirst(n)
    }

    /// Start of the first window and end of the last, nil without windows.
    var span: (start: Double, end: Double)? {
        let length = IMUWindowBuilder.windowSeconds
        guard let start = runs.first.map({ Double($0.first) * length }) ?? windows.first?.start,
              let end = windows.last.map({ $0.start + length }) ?? runs.last.map({ Double($0.end) * length }) else { return nil }
        return (start, end)
    }

    func describe(from: Double, to: Double, into f: inout ModeClassifier.Features) {
        let w = range(from: from, to: to)
        f.imuWindows = w.count
        guard !w.isEmpty else { return }
        f.stepShare = Double(w.filter(\.looksLikeSteps).count) / Double(w.count)
        // Vibration only from windows fast enough to hold it (at 10 Hz there is nothing
        // above 5 Hz: every bicycle looked like a car).
        let resolved = w.filter(\.resolvesVibration)
        f.vibrationKnown = resolved.count * 2 >= w.count
        f.vibration = ModeClassifier.percentile(resolved.map(\.vibrationRMS).sorted(), 0.5)
        f.motion = ModeClassifier.percentile(w.map(\.motionRMS).sorted(), 0.5)
    }
}
