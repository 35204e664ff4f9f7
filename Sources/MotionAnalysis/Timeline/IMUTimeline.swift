/// The timeline from the accelerometer alone (no fixes, or before, after or between them):
/// each window still, walking, cycling, vehicle or unknown; spans under a minute take the
/// kind of the longer neighbour; still spans of a stop's length are stops.
struct IMUTimeline {
    let imu: IMUIndex
    let options: AnalysisOptions
    /// First and last row of the recording (`TimelineBuilder.rows`).
    let rows: ClosedRange<Double>
    /// Where missing parts of a recording begin (`RecordingBreak.hole`): no
    /// span of the accelerometer reaches across (a deleted part between two still stretches
    /// was one stop).
    let holes: [Double]
    /// Where they end, where known (`RecordingBreak.end`): a window the first row after a
    /// hole falls inside starts there.
    let holeEnds: [Double]

    init(imu: IMUIndex, options: AnalysisOptions, rows: ClosedRange<Double>, breaks: [RecordingBreak] = []) {
        self.imu = imu; self.options = options; self.rows = rows
        holes = breaks.filter(\.hole).map(\.time)
        holeEnds = breaks.filter(\.hole).compactMap(\.end)
    }

    /// Whether missing parts begin after window start `a` and by `b` (window starts, which
    /// lie at or before their rows: a window's end may lie past the last row before a hole).
    func holeBetween(_ a: Double, _ b: Double) -> Bool { holes.contains { $0 > a && $0 <= b } }

    /// The span the IMU windows cover, within the rows.
    var span: (start: Double, end: Double)? {
        guard let span = imu.span else { return nil }
        return (max(span.start, rows.lowerBound), min(span.end, rows.upperBound))
    }

    /// Before the first fix (at `time`): what the IMU saw, if anything worth a minute.
    func before(_ time: Double) -> [TimelineEntry] {
        guard let span, time - span.start >= ModeClassifier.minRunSeconds else { return [] }
        return entries(from: span.start, to: time)
    }

    /// After the last fix (at `time`): what the IMU saw, if anything worth a minute.
    func after(_ time: Double) -> [TimelineEntry] {
        guard let span, span.end - time >= ModeClassifier.minRunSeconds else { return [] }
        return entries(from: time, to: span.end)
    }

    /// The timeline of `[from, to)` from the accelerometer alone.
    func entries(from: Double, to: Double) -> [TimelineEntry] {
        guard to > from else { return [] }
        enum Kind: Equatable { case window(IMUWindowKind), missing }
        struct Span { var start: Double; var end: Double; var kind: Kind }
        var spans: [Span] = []
        var cursor = from, lastStart = -Double.infinity
        imu.forEachKind(from: from, to: to) { start, windowKind in
            // A window a missing part ends inside starts at the first row after it, and one a
            // missing part begins inside ends there: its rows across the hole are not known
            // to be of one kind, and a 2-second part missing from a ride was a move drawn
            // across it and a gap of 0 s.
            let after = holeEnds.filter { $0 > start && $0 < start + IMUWindowBuilder.windowSeconds }.max()
            let s = max(from, start, after ?? start)
            let inside = holes.first { $0 > start && $0 < start + IMUWindowBuilder.windowSeconds && $0 > (after ?? -.infinity) }
            let e = min(to, start + IMUWindowBuilder.windowSeconds, inside ?? .infinity)
            let hole = holeBetween(lastStart, start) || after != nil
            if s - cursor > options.gapSeconds || (hole && s > cursor) { spans.append(Span(start: cursor, end: s, kind: .missing)) }
            let k = Kind.window(windowKind)
            if let l = spans.last, l.kind == k, s - l.end <= options.gapSeconds, !hole { spans[spans.count - 1].end = e }
            else { spans.append(Span(start: spans.last.map { $0.kind == .missing ? s : $0.end } ?? from, end: e, kind: k)) }
            cursor = e
            lastStart = start
        }
        guard !spans.isEmpty else { return [TimelineEntry(type: .gap, start: from, end: to)] }
        if to - cursor > options.gapSeconds || (holeBetween(lastStart, to) && to > cursor) { spans.append(Span(start: cursor, end: to, kind: .missing)) }
        else if let l = spans.last { spans[spans.count - 1].end = max(l.end, to) }
        // Smooth: spans under a minute take the kind of the longer neighbour (never of a gap).
        var changed = true
        while changed && spans.count > 1 {
            changed = false
            let candidates = spans.indices.filter { spans[$0].kind != .missing && spans[$0].end - spans[$0].start < ModeClassifier.minRunSeconds }
            guard let k = candidates.min(by: { spans[$0].end - spans[$0].start < spans[$1].end - spans[$1].start }) else { break }
            let left = k > 0 && spans[k - 1].kind != .missing ? k - 1 : nil
            let right = k + 1 < spans.count && spans[k + 1].kind != .missing ? k + 1 : nil
            let target: Int?
            switch (left, right) {
            case let (l?, r?): target = spans[l].end - spans[l].start >= spans[r].end - spans[r].start ? l : r
            case let (l?, nil): target = l
            case let (nil, r?): target = r
            default: target = nil
            }
            guard let t = target else { break }
            spans[t].start = min(spans[t].start, spans[k].start); spans[t].end = max(spans[t].end, spans[k].end)
            spans.remove(at: k)
            var joined: [Span] = []
            for s in spans {
                if let j = joined.last, j.kind == s.kind { joined[joined.count - 1].end = s.end } else { joined.append(s) }
            }
            spans = joined
            changed = true
        }
        return spans.map { s in
            switch s.kind {
            case .missing: return TimelineEntry(type: .gap, start: s.start, end: s.end)
            case .window(.still) where s.end - s.start >= options.stopMinSeconds:
                return TimelineEntry(type: .stop, start: s.start, end: s.end)
            case .window(let kind):
                var e = TimelineEntry(type: .move, start: s.start, end: s.end)
                switch kind {
                case .walking: e.activity = .walking
                case .cycling: e.activity = .cycling
                case .vehicle: e.activity = .vehicle
                case .still, .active: e.activity = .unknown
                }
                e.basis = .imu
                return e
            }
        }
    }
}
