/// One recording file of a track, and the offset that makes its relative When epoch seconds
/// (0 for files written with epoch When).
public struct TrackInput: Sendable, Equatable {
    public var path: String
    public var epochOffset: Double

    public init(path: String, epochOffset: Double) {
        self.path = path
        self.epochOffset = epochOffset
    }
}

/// The first reading of a track's files, fed point by point (`begin` each file, then `add`
/// its points): what a writer needs before the first point, and the points themselves while
/// there are at most `holdLimit`. `track()` then gives the held points as a `LocationTrack`,
/// or a `StreamedTrack` that reads the files again, so memory does not grow with the
/// track's length (docs/ANALYSIS.md, "Exports").
///
/// The output is the same either way: `LocationTrack`'s order (by time, stable) and its
/// segments (split where no fix came for more than `LocationTrack.gapSeconds` of the median
/// interval). The median is found without keeping every interval: when more than half of
/// them are at most a third of the shortest gap, the gap is the shortest whatever the
/// median; otherwise it is among the longer intervals, which are kept (one per 10 s of
/// recorded time at most, and they are also where segments can start).
public struct TrackScan {
    /// Points held before the scan stops holding them: 262 144, about 15 MB (56 bytes each).
    public static let defaultHoldLimit = 1 << 18
    /// Intervals up to this long cannot make the median matter (3 × it is the shortest gap).
    static let shortInterval = LocationTrack.minimumGapSeconds / 3

    /// An interval longer than `shortInterval`, ending at point `index` (of its file, or of
    /// the whole track once placed).
    struct LongStep: Sendable {
        var index: Int
        var seconds: Double
    }

    /// What the scan learnt of one file.
    struct File: Sendable {
        let input: TrackInput
        /// The file's place in the order given.
        let given: Int
        var count = 0
        var first = Double.nan, last = Double.nan
        var inOrder = true
        var shortSteps = 0
        var longSteps: [LongStep] = []
        var allHaveAltitude = true
        var fingerprint = TrackFingerprint()

        mutating func add(_ p: TrackPoint) {
            if count == 0 {
                first = p.time
            } else {
                let step = p.time - last
                if step < 0 { inOrder = false }
                if step > 0 && step <= TrackScan.shortInterval { shortSteps += 1 }
                if step > TrackScan.shortInterval { longSteps.append(LongStep(index: count, seconds: step)) }
            }
            last = p.time
            count += 1
            if !p.altitudeMSL.isFinite { allHaveAltitude = false }
            fingerprint.add(p)
        }
    }

    let holdLimit: Int
    var files: [File] = []
    /// The points read so far, in the order read, until there are more than `holdLimit`.
    var held: [TrackPoint]? = []

    public init(holdLimit: Int = defaultHoldLimit) {
        self.holdLimit = holdLimit
    }

    /// Points read so far.
    public private(set) var count = 0

    /// Starts the next file; its points follow with `add`.
    public mutating func begin(_ input: TrackInput) {
        files.append(File(input: input, given: files.count))
    }

    public mutating func add(_ point: TrackPoint) {
        guard !files.isEmpty else { return }
        files[files.count - 1].add(point)
        count += 1
        if count > holdLimit { held = nil } else { held?.append(point) }
    }

    /// Reads `inputs` (each file's usable `L` rows, `TrackPoint(row:epochOffset:)`).
    public static func reading(_ inputs: [TrackInput], holdLimit: Int = defaultHoldLimit) throws(RecordingReadError) -> TrackScan {
        var scan = TrackScan(holdLimit: holdLimit)
        for input in inputs {
            scan.begin(input)
            try RecordingReader(path: input.path).read { item in
                if case .row(_, let row) = item, let p = TrackPoint(row: row, epochOffset: input.epochOffset) { scan.add(p) }
            }
        }
        return scan
    }

    /// The track: the held points, or the files to read again in time order. Files whose
    /// points are out of time order inside them, or overlap one another, are read again
    /// into memory and sorted (the only case where memory grows with the track).
    public func track() throws -> any TrackPointSource {
        if let held { return LocationTrack(points: held) }
        guard let order = timeOrder() else {
            var points: [TrackPoint] = []
            points.reserveCapacity(count)
            try StreamedTrack(files: files, layout: .init()).forEachPoint { points.append($0) }
            return LocationTrack(points: points)
        }
        return StreamedTrack(files: order, layout: layout(of: order))
    }

    /// The non-empty files in time order, or nil when sorting the points by time (stable)
    /// would interleave files: a file out of order inside, or files that overlap.
    func timeOrder() -> [File]? {
        let files = self.files.filter { $0.count > 0 }
        guard files.allSatisfy(\.inOrder) else { return nil }
        let sorted = files.sorted { $0.first != $1.first ? $0.first < $1.first : $0.given < $1.given }
        for (a, b) in zip(sorted, sorted.dropFirst()) {
            // Equal times keep the order given, as the stable sort does.
            guard a.last < b.first || (a.last == b.first && a.given < b.given) else { return nil }
        }
        return sorted
    }

    /// Segments and the rest, as `LocationTrack(points:)` finds them on the same points.
    func layout(of order: [File]) -> StreamedTrack.Layout {
        var shortSteps = 0, longSteps: [LongStep] = [], offset = 0
        var previous: File?
        for file in order {
            if let previous {
                let step = file.first - previous.last
                if step > 0 && step <= Self.shortInterval { shortSteps += 1 }
                if step > Self.shortInterval { longSteps.append(LongStep(index: offset, seconds: step)) }
            }
            shortSteps += file.shortSteps
            longSteps += file.longSteps.map { LongStep(index: $0.index + offset, seconds: $0.seconds) }
            offset += file.count
            previous = file
        }
        // The median of the positive intervals is intervals[positives / 2] once sorted; the
        // short ones come first.
        let middle = (shortSteps + longSteps.count) / 2
        let gap: Double
        if middle < shortSteps {
            gap = LocationTrack.minimumGapSeconds
        } else {
            let long = longSteps.map(\.seconds).sorted()
            gap = LocationTrack.gapSeconds(medianInterval: long[middle - shortSteps])
        }
        let starts = offset == 0 ? [] : [0] + longSteps.filter { $0.seconds > gap }.map(\.index)
        return StreamedTrack.Layout(count: offset, segmentStarts: starts,
                                    allHaveAltitude: order.allSatisfy(\.allHaveAltitude),
                                    firstTime: order.first?.first)
    }
}

/// A checksum of the points read from a file (FNV-1a over their bits), to tell that a second
/// reading found the same points.
struct TrackFingerprint: Sendable, Equatable {
    var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ p: TrackPoint) {
        mix(p.time.bitPattern); mix(p.latitude.bitPattern); mix(p.longitude.bitPattern)
        mix(p.altitudeMSL.bitPattern); mix(p.speed.bitPattern); mix(p.course.bitPattern)
        mix(UInt64(truncatingIfNeeded: p.mode))
    }

    private mutating func mix(_ bits: UInt64) {
        value = (value ^ bits) &* 0x0000_0100_0000_01b3
    }
}
