/// Speed from positions, fix by fix, for a chart where gpsd gave no speed (a track
/// imported from GPX, a receiver without Doppler): the displacement over about the last
/// `window` seconds, so a few metres of position jitter add little (5 m over 10 s is
/// 1.8 km/h), and never over less than half of it; from the fix before where fixes are
/// sparser, but never across a loss longer than `TrackStats.joinSeconds`; nothing faster
/// than `AnalysisOptions.maxSpeedMps` (a jump). The summary's own speeds (`TrackStats`) are
/// smoothed over the whole track.
public struct PositionSpeed: Sendable {
    /// (time, latitude, longitude) of the fixes from just before the window on.
    private var recent: [(t: Double, lat: Double, lon: Double)] = []
    public static let window = 10.0

    public init() {}

    /// The speed at the next fix (after the one before in time), m/s; nil for the first fix
    /// after a loss or a jump.
    public mutating func add(time t: Double, lat: Double, lon: Double) -> Double? {
        if let last = recent.last, !(t > last.t) || t - last.t > TrackStats.joinSeconds { recent.removeAll() }
        while recent.count >= 2 && recent[1].t <= t - Self.window { recent.removeFirst() }
        defer { recent.append((t, lat, lon)) }
        // Not over less than half the window (the first fixes after a loss or a jump: ±3 m
        // of jitter over one second is ±22 km/h).
        guard let from = recent.first, t - from.t >= Self.window / 2 else { return nil }
        let speed = Geo.distance(from.lat, from.lon, lat, lon) / (t - from.t)
        guard speed <= AnalysisOptions().maxSpeedMps else {
            recent.removeAll()   // a jump: start again from this fix
            return nil
        }
        return speed
    }
}
