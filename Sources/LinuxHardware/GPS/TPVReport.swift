import MotionCore

/// One gpsd TPV report ("time-position-velocity"), as libgps decoded it: the fields an
/// `L` row needs, each `.nan` when gpsd did not send it. Pure data, so the fix assembly
/// can be tested without gpsd.
public struct TPVReport: Sendable, Equatable {
    /// The receiver's fix time; nil when the report has none (gpsd sends TPVs without
    /// time before the receiver's clock is known).
    public var time: GPSFixTime?
    /// 0 not seen, 1 no fix, 2 2-D fix, 3 3-D fix.
    public var mode: Int
    public var latitude: Double
    public var longitude: Double
    /// Metres above mean sea level (gpsd's `altMSL`).
    public var altitudeMSL: Double
    /// Metres per second over ground.
    public var speed: Double
    /// Degrees from true north (gpsd's `track`).
    public var track: Double
    /// Metres per second, up positive.
    public var climb: Double
    /// Estimated horizontal / vertical position error, metres.
    public var eph: Double
    public var epv: Double

    public init(time: GPSFixTime?, mode: Int, latitude: Double = .nan, longitude: Double = .nan,
                altitudeMSL: Double = .nan, speed: Double = .nan, track: Double = .nan, climb: Double = .nan,
                eph: Double = .nan, epv: Double = .nan) {
        self.time = time; self.mode = mode; self.latitude = latitude; self.longitude = longitude
        self.altitudeMSL = altitudeMSL; self.speed = speed; self.track = track; self.climb = climb
        self.eph = eph; self.epv = epv
    }

    /// True for a report that can become an `L` row: a 2-D or 3-D fix with a time and a
    /// finite position.
    /// A 2-D or 3-D fix with a time and a position the format allows (latitude 95 or
    /// longitude 200 made rows the recorder's own `check` rejected).
    public var isFix: Bool {
        (mode == 2 || mode == 3) && time != nil && latitude.isFinite && longitude.isFinite
            && CSVFormat.rangeProblem(.location, 3, latitude) == nil && CSVFormat.rangeProblem(.location, 4, longitude) == nil
    }

    public static func == (a: TPVReport, b: TPVReport) -> Bool {
        func same(_ x: Double, _ y: Double) -> Bool { x == y || (x.isNaN && y.isNaN) }
        return a.time == b.time && a.mode == b.mode && same(a.latitude, b.latitude) && same(a.longitude, b.longitude)
            && same(a.altitudeMSL, b.altitudeMSL) && same(a.speed, b.speed) && same(a.track, b.track)
            && same(a.climb, b.climb) && same(a.eph, b.eph) && same(a.epv, b.epv)
    }
}
