import Foundation
import MotionAnalysis
import MotionCore
import Synchronization

/// What a recording's page plots, read from its CSVs (all parts) in one streaming pass and thinned to a
/// few thousand points: the GPS track, speed and elevation from the `L` rows, and the
/// acceleration magnitude of the `A` rows per time bin (min, mean, max). Raw values only:
/// stops, moves, activities and movement per interval belong to the summary (MotionAnalysis).
struct RecordingSeries: Sendable {
    struct Point: Sendable { var t: Double; var v: Double }
    struct Bin: Sendable { var t: Double; var min: Double; var mean: Double; var max: Double }

    /// Track segments (a new one after a gap: `GapThinner`).
    var track: [[TrackPoint]] = []
    /// km/h against seconds since the first row, in pieces between gaps: gpsd's speed, or
    /// where it gave none, the speed from positions (`PositionSpeed`; `speedFromPositions`).
    var speed: [[Point]] = []
    /// Fixes whose speed was taken from positions, and from gpsd (before thinning).
    var speedFromPositions = 0
    var speedFromGPSD = 0
    /// Whether most of the speed chart comes from positions.
    var speedIsFromPositions: Bool { speedFromPositions > speedFromGPSD }
    /// Metres above sea level against seconds since the first row, in pieces between gaps.
    var elevation: [[Point]] = []
    /// Acceleration magnitude in g per bin, in pieces between gaps in the rows
    /// (`AccelerationBins.pieces`).
    var acceleration: [[Bin]] = []
    var firstWhen: Double?
    var lastWhen: Double?
    /// Lines the reader refused (see `motionlog check`).
    var defectiveLines = 0

    static let maxPoints = 3000
    static let bins = 600

    /// One file to read: its path, the offset of a relative When, and its clock step.
    struct Input: Sendable {
        var csvPath: String
        var epochOffset: Double
        var step: ClockStep?
        /// The When the recorder wrote into the file: a row outside was changed after
        /// recording and is left out, as the summary leaves it out.
        var written: WrittenWhen?
    }

    /// The files of `recording` in `folder`, in the order written; a clock step recorded by
    /// any part applies to all of them (`ClockStep.assign`, as the summary reads them).
    static func inputs(_ recording: RecordingParts, folder: String) -> [Input] {
        let metas = recording.parts.map(\.metadata)
        let steps = ClockStep.assign(metas)
        return recording.parts.enumerated().map { k, e in
            Input(csvPath: folder + "/" + e.name + ".csv",
                  epochOffset: e.metadata.map { $0.recording.whenMode == .relative ? $0.recording.startEpoch : 0 } ?? 0,
                  step: steps.perFile[k].map { steps.steps[$0] }, written: WrittenWhen(e.metadata))
        }
    }

    /// Reads `inputs` in order in one streaming pass, as one series; `duration` (from the
    /// metadata) sizes the acceleration bins; without it (a CSV copied in without its
    /// metadata) they start at the finest width and widen as the rows go on
    /// (`AccelerationBins`). IMU rows stamped before a clock step are placed by it
    /// (`ClockStep`). The rows are the summary's (`RowScanner`, several processors, the file
    /// parsed in place), less those `check` calls out of range (`CSVFormat.rangeProblem`).
    static func read(_ inputs: [Input], duration: Double?) throws -> RecordingSeries {
        var sink = SeriesSink(duration: duration)
        for input in inputs {
            sink.input = input
            var counts = ScanCounts()
            try RowScanner.scan(path: input.csvPath, whenOffset: 0, into: &sink, counts: &counts)
            sink.series.defectiveLines += counts.badLines
        }
        return sink.finish()
    }
}

/// Collects a `RecordingSeries` from the rows of its files, in order.
struct SeriesSink: RowSink {
    var series = RecordingSeries()
    /// The file being read.
    var input = RecordingSeries.Input(csvPath: "", epochOffset: 0)
    private var track = GapThinner<TrackPoint>(limit: RecordingSeries.maxPoints * 2) { $0.time }
    private var speed = GapThinner<RecordingSeries.Point>(limit: RecordingSeries.maxPoints) { $0.t }
    private var elevation = GapThinner<RecordingSeries.Point>(limit: RecordingSeries.maxPoints) { $0.t }
    private var bins: AccelerationBins
    private var positionSpeed = PositionSpeed()
    private var first: Double?

    init(duration: Double?) { bins = AccelerationBins(duration: duration, count: RecordingSeries.bins) }

    mutating func row(_ source: Source, when raw: Double, values v: UnsafeBufferPointer<Double>) {
        // What `motionlog check` refuses as out of range is not plotted (an infinite value,
        // a latitude past 90, a negative speed, an L row's mode other than 2 or 3).
        for k in 0..<v.count where CSVFormat.rangeProblem(source, k + 3, v[k]) != nil {
            series.defectiveLines += 1
            return
        }
        if source == .location && v[8] != 2 && v[8] != 3 { series.defectiveLines += 1; return }
        if let written = input.written, !written.admits(source, raw) { return }
        let when = input.step?.place(source, raw) ?? raw
        if first == nil { first = when }
        let t = when - (first ?? when)
        series.lastWhen = when
        switch source {
        case .location:
            let row = Row(source: source, label: 0, when: raw, values: (v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8]))
            guard let p = TrackPoint(row: row, epochOffset: input.epochOffset) else { return }
            track.add(p)
            if p.speed.isFinite {
                speed.add(RecordingSeries.Point(t: t, v: p.speed * 3.6))
                series.speedFromGPSD += 1
            } else if let s = positionSpeed.add(time: when, lat: p.latitude, lon: p.longitude) {
                speed.add(RecordingSeries.Point(t: t, v: s * 3.6))
                series.speedFromPositions += 1
            }
            if p.altitudeMSL.isFinite { elevation.add(RecordingSeries.Point(t: t, v: p.altitudeMSL)) }
        case .accelerometer:
            let m = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).squareRoot()
            // As in the summary: a value no sensor gives is left out (`SensorValue`).
            guard m.isFinite, !(0..<3).contains(where: { SensorValue.isImpossible(v[$0]) }) else { return }
            bins.add(t: t, magnitude: m)
        default: break
        }
    }

    /// The series of the rows seen.
    func finish() -> RecordingSeries {
        var s = series
        s.firstWhen = first
        s.track = track.segments
        s.speed = speed.segments
        s.elevation = elevation.segments
        s.acceleration = bins.pieces(limit: RecordingSeries.maxPoints)
        return s
    }
}

/// The acceleration magnitude per time bin (min, sum, max), in bounded memory. With the
/// duration known, `count` bins of equal width cover it. Without it, bins start 0.05 s wide
/// and double in width (two neighbours merged) whenever there would be more than twice
/// `count`: a 4 s file gets 80 bins, not one 6 s bin, and a day gets between `count` and
/// twice `count`. Each bin keeps its first and last row's time, so that a gap in the rows is
/// told from a bin that is empty only because it is narrower than the rows' interval.
struct AccelerationBins {
    private(set) var width: Double
    private let count: Int
    private let fixed: Bool
    private var bins: [Int: Bin] = [:]
    private var intervals = IntervalMedian()

    struct Bin {
        var min: Double, sum: Double, max: Double, n: Int
        var first: Double, last: Double

        func merged(with b: Bin) -> Bin {
            Bin(min: Swift.min(min, b.min), sum: sum + b.sum, max: Swift.max(max, b.max), n: n + b.n,
                first: Swift.min(first, b.first), last: Swift.max(last, b.last))
        }
    }

    static let finest = 0.05

    init(duration: Double?, count: Int) {
        self.count = count
        fixed = duration != nil
        width = duration.map { max($0 / Double(count), Self.finest) } ?? Self.finest
    }

    mutating func add(t: Double, magnitude m: Double) {
        _ = intervals.add(t)
        var k = Int(t / width)
        if fixed {
            // The last row lies at t == duration: it belongs to the last bin, not to a bin
            // of its own past the end (one sample, drawn as a spike).
            if k == count { k -= 1 }
            guard k < count + 1_000_000 else { return }
        } else {
            while k >= 2 * count {
                widen()
                k = Int(t / width)
            }
        }
        let row = Bin(min: m, sum: m, max: m, n: 1, first: t, last: t)
        bins[k] = bins[k].map { $0.merged(with: row) } ?? row
    }

    /// Doubles the width: bins 2j and 2j+1 become bin j.
    private mutating func widen() {
        var merged: [Int: Bin] = [:]
        for (k, b) in bins { merged[k / 2] = merged[k / 2].map { $0.merged(with: b) } ?? b }
        bins = merged
        width *= 2
    }

    /// The first `limit` bins with rows, in time order, in pieces: a new piece starts where
    /// the rows stopped for longer than two bins and three of their usual intervals (the
    /// accelerometer was not recorded, or stopped answering), and the chart is not drawn
    /// across it.
    func pieces(limit: Int) -> [[RecordingSeries.Bin]] {
        let gap = max(2 * width, 3 * intervals.median)
        var out: [[RecordingSeries.Bin]] = []
        var lastRow: Double?
        for k in bins.keys.sorted().prefix(limit) {
            guard let b = bins[k] else { continue }
            let bin = RecordingSeries.Bin(t: (Double(k) + 0.5) * width, min: b.min, mean: b.sum / Double(b.n), max: b.max)
            if let lastRow, b.first - lastRow <= gap { out[out.count - 1].append(bin) } else { out.append([bin]) }
            lastRow = b.last
        }
        return out
    }
}

/// The last few recordings' series, by the stamps of their files (a page opened twice
/// reads the CSVs once).
final class SeriesCache: Sendable {
    private let entries = Mutex<[(key: String, stamp: [FileStamp], series: RecordingSeries)]>([])
    static let capacity = 8

    func get(_ name: String, _ stamp: [FileStamp]) -> RecordingSeries? {
        entries.withLock { e in e.first { $0.key == name && $0.stamp == stamp }?.series }
    }

    func put(_ name: String, _ stamp: [FileStamp], _ series: RecordingSeries) {
        entries.withLock { e in
            e.removeAll { $0.key == name }
            e.append((name, stamp, series))
            if e.count > Self.capacity { e.removeFirst() }
        }
    }

    func forget(_ name: String) { entries.withLock { $0.removeAll { $0.key == name } } }
}
