import MotionCore

/// Writes `export --format timeline-geojson` (`TimelineExport`) while the summary's
/// filtered fixes go past in time order (`add`): a move's line is written as its fixes
/// arrive, a few thousand coordinates at a time (`JSONArrayPieces`), so what is held does
/// not grow with the move (a 14-day move held whole took 622 MB). The bytes are those of
/// the whole FeatureCollection encoded at once (compact, sorted keys:
/// `{"features":[…],"type":"FeatureCollection"}`; in a feature `geometry` comes first and
/// in it `coordinates`, so a line can be written before the move's properties).
public final class TimelineGeoJSONWriter: FixStreamWriter {
    private let out: JSONPieces
    private let entries: [TimelineEntry]
    /// The next entry to write.
    private var index = 0
    /// The move's fixes while there are fewer than two (a Point, or no geometry), then its
    /// line being written.
    private var first: [Fix] = []
    private var line: JSONArrayPieces<[Double]>?
    private var ends = MoveEndFixes()
    private var failure: Error?

    public init(_ summary: AnalysisSummary, sink: @escaping ([UInt8]) throws -> Void) {
        out = JSONPieces(sink, outputFormatting: TimelineExport.geoJSONFormatting)
        entries = summary.timeline
        attempt { try out.text(#"{"features":["#) }
        takeCarried()
    }

    /// The next fix (after the one before in time).
    public func add(_ fix: Fix) {
        while failure == nil && index < entries.count && (entries[index].type != .move || fix.time > entries[index].end) {
            writeEntry()
        }
        guard index < entries.count, fix.time >= entries[index].start else { return }
        point(fix)
    }

    /// Writes the entries left and the end; throws what the sink or the encoder threw.
    public func finish() throws {
        while failure == nil && index < entries.count { writeEntry() }
        attempt {
            try out.text(#"],"type":"FeatureCollection"}"# + "\n")
            try out.flush()
        }
        if let failure { throw failure }
    }

    /// A fix of the move at `index`.
    private func point(_ fix: Fix) {
        ends.note(fix)
        attempt {
            if let line { try line.append([fix.lon, fix.lat]); return }
            first.append(fix)
            guard first.count == 2 else { return }
            // Two fixes: a LineString, whose coordinates come first in the feature.
            try out.text((index > 0 ? "," : "") + #"{"geometry":{"coordinates":"#)
            let started = try JSONArrayPieces<[Double]>(out)
            for f in first { try started.append([f.lon, f.lat]) }
            first.removeAll()
            line = started
        }
    }

    private func writeEntry() {
        let e = entries[index]
        attempt {
            if let line {
                try line.close()
                try out.text(#","type":"LineString"},"properties":"#)
                try out.value(TimelineExport.properties(e))
                try out.text(#","type":"Feature"}"#)
            } else {
                if index > 0 { try out.text(",") }
                try out.value(TimelineExport.feature(e, fixes: first))
            }
        }
        line = nil
        first.removeAll()
        if e.type == .move { ends.endMove(at: e.end) }
        index += 1
        takeCarried()
    }

    /// The fixes carried from the move before that lie in the move at `index`, if it is one.
    private func takeCarried() {
        guard index < entries.count, entries[index].type == .move else { return }
        for f in ends.carried(into: entries[index]) { point(f) }
    }

    private func attempt(_ body: () throws -> Void) {
        guard failure == nil else { return }
        do { try body() } catch { failure = error }
    }
}
