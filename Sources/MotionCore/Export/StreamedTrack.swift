/// A track whose points are read from its files again each time it is walked (`TrackScan`
/// made it): one row at a time is held, however long the track. Each file gives the points
/// it gave the scan; rows appended since (a recording still being written) are left out,
/// and a file whose first points changed makes the walk throw `TrackFilesChanged`.
public struct StreamedTrack: TrackPointSource {
    /// What the scan worked out for the whole track.
    struct Layout: Sendable {
        var count = 0
        var segmentStarts: [Int] = []
        var allHaveAltitude = true
        var firstTime: Double?
    }

    /// The files in the order their points are walked.
    let files: [TrackScan.File]
    let layout: Layout

    init(files: [TrackScan.File], layout: Layout) {
        self.files = files
        self.layout = layout
    }

    public var count: Int { layout.count }
    public var segmentStarts: [Int] { layout.segmentStarts }
    public var allHaveAltitude: Bool { layout.allHaveAltitude }
    public var firstTime: Double? { layout.firstTime }

    /// The state of one file's walk, shared by the reader's two closures.
    private final class Walk {
        var seen = 0
        var fingerprint = TrackFingerprint()
        var failure: (any Error)?
    }

    public func forEachPoint(_ body: (TrackPoint) throws -> Void) throws {
        for file in files {
            let walk = Walk(), input = file.input
            try RecordingReader(path: input.path).read(until: { walk.failure != nil || walk.seen >= file.count }) { item in
                guard walk.failure == nil, walk.seen < file.count, case .row(_, let row) = item,
                      let p = TrackPoint(row: row, epochOffset: input.epochOffset) else { return }
                walk.seen += 1
                walk.fingerprint.add(p)
                do { try body(p) } catch { walk.failure = error }
            }
            if let failure = walk.failure { throw failure }
            guard walk.seen == file.count, walk.fingerprint == file.fingerprint else {
                throw TrackFilesChanged(path: input.path)
            }
        }
    }
}

/// A track's file no longer holds the GPS rows it held when the export began.
public struct TrackFilesChanged: Error, CustomStringConvertible {
    public let path: String
    public var description: String {
        "\(path) changed while it was being exported (its GPS rows are not the ones first read): export again"
    }
}
