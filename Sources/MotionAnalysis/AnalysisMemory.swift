/// What analysing a recording holds in memory, estimated from its GPS row count before any
/// row is read, and whether it fits in the memory free now.
///
/// The analysis streams the rows and holds the GPS fixes of one stretch of the track
/// between stops and long losses at a time (`TrackTimeline`; a track without a stop is
/// held whole): as the row count cannot say where the stops are, a summary is given a
/// limit of fixes to hold (`heldFixLimit`) and gives up past it (`TooLong`). The GPX,
/// GeoJSON and timeline exports hold the whole track and their document: they are
/// weighed by the row count (`refusal`) before any row is read. On a Pi Zero (512 MB) a
/// recording of weeks at 1 Hz, or days at 10 Hz, needs more than the daemon can spare, and
/// the kernel's out-of-memory killer ends the largest process, which is the daemon: the
/// recording would stop. The web page (inside the daemon) therefore declines such work
/// with a sentence that says why and what to do instead; the
/// command-line tools do not (a computer has the memory, and it is the owner's command).
public enum AnalysisMemory {
    /// Work on a whole recording, with the bytes it holds per GPS fix at its peak: measured
    /// with `/usr/bin/time` on 14 days at 1 Hz (1 209 600 fixes; BENCHMARKS.md, "Long GPS
    /// tracks"), the program's 30 MB taken off, with margin, and for the web page the
    /// document's bytes once more while it is sent.
    public enum Work: Sendable {
        /// The summary (track, timeline, movement, health): 125 bytes per fix.
        case summary
        /// The track as GPX: 107 bytes per fix written to a file, the document (116) and its
        /// bytes held whole by the page.
        case gpx
        /// The track as GeoJSON: 337 bytes per fix (the geometry's nested arrays, encoded
        /// whole; the properties one at a time), and the document's bytes held by the page.
        case geojson
        /// The Moves-style timeline JSON: the analysis' 125 bytes per fix (it is written a
        /// day at a time), and the document's bytes (150 per fix) held by the page.
        case timeline

        var bytesPerFix: Int {
            switch self {
            case .summary: return 160
            case .gpx: return 400
            case .geojson: return 600
            case .timeline: return 400
            }
        }

        /// What is declined, as the sentence says it.
        var what: String {
            switch self {
            case .summary: return "summarise"
            case .gpx: return "export as GPX"
            case .geojson: return "export as GeoJSON"
            case .timeline: return "export the timeline of"
            }
        }

        /// The command that does it on a computer.
        public var command: String {
            switch self {
            case .summary: return "motionlog summary"
            case .gpx: return "motionlog export --format gpx"
            case .geojson: return "motionlog export --format geojson"
            case .timeline: return "motionlog export --format timeline"
            }
        }
    }

    /// The share of the free memory the work may take: the rest is the recorder's, the web
    /// page's and the system's.
    public static let share = 0.5

    /// Bytes `work` needs for a recording of `locationRows` GPS rows.
    public static func estimate(_ work: Work, locationRows: Int) -> Int {
        let (bytes, overflow) = locationRows.multipliedReportingOverflow(by: work.bytesPerFix)
        return overflow ? .max : bytes
    }

    /// Nil when `work` on a recording of `locationRows` GPS rows fits in `share` of
    /// `availableBytes` (or when the free memory is unknown); else the sentence that says
    /// why it is not done here and what to do instead.
    public static func refusal(_ work: Work, locationRows: Int, availableBytes: Int?) -> String? {
        guard let available = availableBytes, locationRows > 0 else { return nil }
        let need = estimate(work, locationRows: locationRows)
        guard Double(need) > Double(available) * share else { return nil }
        return "Too long to \(work.what) on this logger: its \(locationRows) GPS rows need about "
            + "\(megabytes(need)) MB of memory; \(megabytes(available)) MB are free, and the recorder must keep half. "
            + "Copy the recording to a computer and run `\(work.command)` there."
    }

    /// The most GPS fixes a summary may hold at once in `share` of `availableBytes` (nil when
    /// the free memory is unknown): the summary holds one stretch of the track between stops
    /// and long losses, which the row count cannot foresee, so the page tries and gives up
    /// past this (`TooLong`) rather than declining every long recording.
    public static func heldFixLimit(availableBytes: Int?) -> Int? {
        guard let available = availableBytes else { return nil }
        return max(1, Int(Double(available) * share) / Work.summary.bytesPerFix)
    }

    /// A summary given up: a stretch of more than `heldFixLimit` GPS fixes without a stop or
    /// a long loss of signal would not fit (`heldFixLimit(availableBytes:)`).
    public struct TooLong: Error, Sendable, CustomStringConvertible {
        public let heldFixLimit: Int

        public var description: String {
            let need = estimate(.summary, locationRows: heldFixLimit)
            return "Too long to summarise on this logger: more than \(heldFixLimit) GPS fixes without a stop or a long "
                + "loss of signal need more than \(megabytes(need)) MB of memory, half of what is free (the recorder must "
                + "keep the rest). Copy the recording to a computer and run `\(Work.summary.command)` there."
        }
    }

    /// Whole megabytes, rounded up (without overflow at `Int.max`).
    static func megabytes(_ bytes: Int) -> Int { bytes >> 20 + (bytes & ((1 << 20) - 1) == 0 ? 0 : 1) }
}
