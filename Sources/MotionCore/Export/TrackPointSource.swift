/// A track's points in time order, with what a writer must know before the first point
/// (GPX's first time, GeoJSON's geometry type): a `LocationTrack` held in memory, or a
/// `StreamedTrack` that reads its files again each time it is walked.
public protocol TrackPointSource: Sendable {
    /// Points in all.
    var count: Int { get }
    /// The index of each segment's first point, in order (the first is 0; none when empty).
    var segmentStarts: [Int] { get }
    /// Whether every point has a finite altitude.
    var allHaveAltitude: Bool { get }
    /// The first point's time, nil when empty.
    var firstTime: Double? { get }
    /// Calls `body` with every point in time order. A streamed source reads its files again
    /// and throws when they no longer hold the points first read.
    func forEachPoint(_ body: (TrackPoint) throws -> Void) throws
}

extension LocationTrack: TrackPointSource {
    public var count: Int { points.count }
    public var segmentStarts: [Int] { segmentRanges.map(\.lowerBound) }
    public var allHaveAltitude: Bool { points.allSatisfy { $0.altitudeMSL.isFinite } }
    public var firstTime: Double? { points.first?.time }
    public func forEachPoint(_ body: (TrackPoint) throws -> Void) rethrows {
        for p in points { try body(p) }
    }
}
