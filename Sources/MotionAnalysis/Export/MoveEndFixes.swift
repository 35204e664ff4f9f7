/// The fixes a timeline export hands to the next move: a fix at the end of a move (where
/// moves touch, or at midnight where the storyline cuts a move) belongs to the move that
/// starts then too, as `TimelineExport.points` gives it to both. Writers that stream a
/// move's points (`StorylineWriter`, `TimelineGeoJSONWriter`) note each fix they write and
/// take the carried ones when the next move begins.
struct MoveEndFixes {
    /// The latest fixes of one time in the move being written.
    private var latest: [Fix] = []
    /// Those at the end of the move last written.
    private var carried: [Fix] = []

    /// A fix written into the current move.
    mutating func note(_ fix: Fix) {
        if let last = latest.last, last.time != fix.time { latest.removeAll() }
        latest.append(fix)
    }

    /// The current move is written (it ended at `end`): its fixes at the end are carried.
    mutating func endMove(at end: Double) {
        carried = latest.filter { $0.time >= end }
        latest.removeAll()
    }

    /// The carried fixes that lie in `move` (the next move).
    func carried(into move: TimelineEntry) -> [Fix] {
        carried.filter { $0.time >= move.start && $0.time <= move.end }
    }
}
