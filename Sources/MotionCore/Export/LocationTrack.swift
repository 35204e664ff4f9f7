/// One point of a GPS track: an `L` row with its time as epoch seconds.
public struct TrackPoint: Sendable, Equatable {
    /// UTC seconds since 1970 (the row's When, converted from relative When if needed).
    public var time: Double
    public var latitude: Double
    public var longitude: Double
    /// Metres above mean sea level, nan when unknown.
    public var altitudeMSL: Double
    public var speed: Double
    public var course: Double
    /// 2 or 3.
    public var mode: Int

    public init(time: Double, latitude: Double, longitude: Double, altitudeMSL: Double = .nan,
                speed: Double = .nan, course: Double = .nan, mode: Int = 3) {
        self.time = time; self.latitude = latitude; self.longitude = longitude
        self.altitudeMSL = altitudeMSL; self.speed = speed; self.course = course; self.mode = mode
    }

    /// The point of an `L` row; `epochOffset` converts relative When to epoch seconds
    /// (0 for files written with epoch When). Nil for other rows, unusable positions and
    /// times outside 1970...9999 (after the offset).
    public init?(row: Row, epochOffset: Double = 0) {
        let time = row.when + epochOffset
        guard row.source == .location, time >= 0, time <= CSVFormat.maxWhen, row[0].isFinite, row[1].isFinite,
              (-90...90).contains(row[0]), (-180...180).contains(row[1]) else { return nil }
        self.init(time: time, latitude: row[0], longitude: row[1], altitudeMSL: row[2],
                  speed: row[3], course: row[4], mode: Int(row[8]))
    }

    public static func == (a: TrackPoint, b: TrackPoint) -> Bool {
        func same(_ x: Double, _ y: Double) -> Bool { x == y || (x.isNaN && y.isNaN) }
        return a.time == b.time && a.latitude == b.latitude && a.longitude == b.longitude
            && same(a.altitudeMSL, b.altitudeMSL) && same(a.speed, b.speed) && same(a.course, b.course)
            && a.mode == b.mode
    }
}

/// The `L` rows of one or more recording files as a track: points in time order, split
/// into segments at gaps (`gapSeconds`).
public struct LocationTrack: Sendable, Equatable {
    /// The shortest stretch without a fix that splits a track: the health report's "GPS had
    /// no fix" threshold. It was 10 s, which cut a Garmin's "smart recording" (a point every
    /// 1–20 s) and any logger saving a fix every 10 s or more into single points: the map
    /// drew nothing and exports were rows of one-point segments.
    public static let minimumGapSeconds = 30.0

    /// A gap in a track whose usual interval between fixes (the median) is `medianInterval`:
    /// more than 30 s, or more than three usual intervals where that is longer.
    public static func gapSeconds(medianInterval: Double) -> Double {
        max(minimumGapSeconds, 3 * (medianInterval.isFinite ? medianInterval : 0))
    }

    /// Every point, in time order.
    public let points: [TrackPoint]
    /// Where each segment lies in `points`.
    public let segmentRanges: [Range<Int>]

    /// Sorts the points by time (stable: equal times keep their order) and splits them at
    /// gaps longer than `maxGapSeconds` (default: `gapSeconds` of the points' own median
    /// interval). Points already in time order (a recording's) are kept as they are, not
    /// copied: a track of weeks is held once.
    public init(points: [TrackPoint], maxGapSeconds: Double? = nil) {
        let inOrder = zip(points, points.dropFirst()).allSatisfy { $0.time <= $1.time }
        let sorted = inOrder ? points : points.enumerated().sorted { a, b in
            a.element.time != b.element.time ? a.element.time < b.element.time : a.offset < b.offset
        }.map(\.element)
        let maxGapSeconds = maxGapSeconds ?? Self.gapSeconds(medianInterval: Self.medianInterval(sorted))
        var ranges: [Range<Int>] = []
        var start = 0
        for i in sorted.indices.dropFirst() where sorted[i].time - sorted[i - 1].time > maxGapSeconds {
            ranges.append(start..<i)
            start = i
        }
        if !sorted.isEmpty { ranges.append(start..<sorted.count) }
        self.points = sorted
        segmentRanges = ranges
    }

    /// The segments, in order (views into `points`).
    public var segments: [ArraySlice<TrackPoint>] { segmentRanges.map { points[$0] } }

    /// The median of the positive intervals between consecutive points (0 without any).
    static func medianInterval(_ sorted: [TrackPoint]) -> Double {
        var intervals = zip(sorted, sorted.dropFirst()).map { $1.time - $0.time }.filter { $0 > 0 }
        guard !intervals.isEmpty else { return 0 }
        intervals.sort()
        return intervals[intervals.count / 2]
    }

    public var isEmpty: Bool { points.isEmpty }
}
