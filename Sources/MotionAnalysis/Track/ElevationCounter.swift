/// Elevation gain and loss of a track, fix by fix, holding five altitudes: the altitudes of
/// 3-D fixes are filtered by a median of 5 (centred; 3 and 4 at a stretch's ends) and
/// counted once the filtered altitude moves `hysteresis` from the last reference, so that
/// noise does not add up. Not across a break (`TrackStats.breaksTrack`: a jump or a loss
/// longer than the timeline's gap), where the way taken is unknown: two logs of one day an
/// hour apart counted the 44 m between them as a descent.
struct ElevationCounter {
    let hysteresis: Double
    private(set) var gain = 0.0
    private(set) var loss = 0.0
    /// The stretch's last five altitudes (oldest first) and how many it has had.
    private var recent: [Double] = []
    private var count = 0
    private var reference: Double?
    private var window: [Double] = []

    init(hysteresis: Double) {
        self.hysteresis = hysteresis
        recent.reserveCapacity(5)
        window.reserveCapacity(5)
    }

    /// The next fix of the track; `breaks`: the way to it from the fix before is unknown.
    mutating func add(_ fix: Fix, breaks: Bool) {
        if breaks { endStretch() }
        guard fix.mode == 3 && fix.alt.isFinite else { return }
        if recent.count == 5 { recent.removeFirst() }
        recent.append(fix.alt)
        count += 1
        // The altitude two before this one now has its window (up to two on each side).
        if count >= 3 { step(last: min(count, 5)) }
    }

    /// The end of the track.
    mutating func finish() { endStretch() }

    /// The last two altitudes' windows (fewer on the right), then a new stretch. A stretch
    /// of one altitude counts nothing.
    private mutating func endStretch() {
        if count >= 2 {
            step(last: min(count, 4))
            step(last: min(count, 3))
        }
        recent.removeAll(keepingCapacity: true)
        count = 0
        reference = nil
    }

    /// One filtered altitude: the median of the newest `last` altitudes (the upper middle
    /// of an even count).
    private mutating func step(last: Int) {
        window.removeAll(keepingCapacity: true)
        window.append(contentsOf: recent.suffix(last))
        window.sort()
        let a = window[window.count / 2]
        guard let r = reference else { reference = a; return }
        if a >= r + hysteresis { gain += a - r; reference = a }
        else if a <= r - hysteresis { loss += r - a; reference = a }
    }
}
