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
    /// (0 for files written with epoch When). Nil for other rows and unusable positions.
    public init?(row: Row, epochOffset: Double = 0) {
        guard row.source == .location, row[0].isFinite, row[1].isFinite,
              (-90...90).contains(row[0]), (-180...180).contains(row[1]) else { return nil }
        self.init(time: row.when + epochOffset, latitude: row[0], longitude: row[1], altitudeMSL: row[2],
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
/// into segments wherever consecutive points are more than `maxGapSeconds` apart.
public struct LocationTrack: Sendable, Equatable {
    /// The default gap that starts a new segment: more than 10 s without a fix.
    public static let defaultMaxGapSeconds = 10.0

    public private(set) var segments: [[TrackPoint]]

    /// Sorts the points by time (stable: equal times keep their order) and splits them.
    public init(points: [TrackPoint], maxGapSeconds: Double = LocationTrack.defaultMaxGapSeconds) {
        // Recordings are in time order already: sorting (and its copies) only when needed.
        let inOrder = zip(points, points.dropFirst()).allSatisfy { $0.time <= $1.time }
        let sorted = inOrder ? points : points.enumerated().sorted { a, b in
            a.element.time != b.element.time ? a.element.time < b.element.time : a.offset < b.offset
        }.map(\.element)
        var segments: [[TrackPoint]] = []
        var current: [TrackPoint] = []
        for p in sorted {
            if let last = current.last, p.time - last.time > maxGapSeconds {
                segments.append(current)
                current = []
            }
            current.append(p)
        }
        if !current.isEmpty { segments.append(current) }
        self.segments = segments
    }

    /// Every point, in order.
    public var points: [TrackPoint] { segments.flatMap { $0 } }

    public var isEmpty: Bool { segments.isEmpty }
}
