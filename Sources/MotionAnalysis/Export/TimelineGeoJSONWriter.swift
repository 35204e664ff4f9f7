/// Writes `export --format timeline-geojson` (`TimelineExport`) a feature at a time while
/// the summary's filtered fixes go past in time order (`add`), holding only the fixes of
/// the move being drawn. The bytes are those of the whole FeatureCollection encoded at once
/// (compact, sorted keys: `{"features":[…],"type":"FeatureCollection"}`), each feature
/// encoded alone.
public final class TimelineGeoJSONWriter: FixStreamWriter {
    private let sink: ([UInt8]) throws -> Void
    private let entries: [TimelineEntry]
    private let encoder = TimelineExport.geoJSONEncoder
    /// The next entry to write, and the fixes from the start of the move it is (or the
    /// next move) on.
    private var index = 0
    private var fixes: [Fix] = []
    private var failure: Error?

    public init(_ summary: AnalysisSummary, sink: @escaping ([UInt8]) throws -> Void) {
        self.sink = sink
        entries = summary.timeline
        write(Array(#"{"features":["#.utf8))
    }

    /// The next fix (after the one before in time).
    public func add(_ fix: Fix) {
        while failure == nil && index < entries.count && (entries[index].type != .move || fix.time > entries[index].end) {
            writeEntry()
        }
        if index < entries.count && fix.time >= entries[index].start { fixes.append(fix) }
    }

    /// Writes the entries left and the end; throws what `sink` or the encoder threw.
    public func finish() throws {
        while failure == nil && index < entries.count { writeEntry() }
        write(Array(#"],"type":"FeatureCollection"}"#.utf8) + [0x0A])
        if let failure { throw failure }
    }

    private func writeEntry() {
        let e = entries[index]
        do {
            let bytes = try encoder.encode(TimelineExport.feature(e, fixes: fixes))
            write((index > 0 ? [0x2C] : []) + Array(bytes))
        } catch {
            failure = error
        }
        index += 1
        // A fix at the end of this move may also start the next one.
        if e.type == .move { fixes.removeAll { $0.time < e.end } }
    }

    private func write(_ bytes: [UInt8]) {
        guard failure == nil else { return }
        do { try sink(bytes) } catch { failure = error }
    }
}
