/// What analysing a recording holds in memory, estimated from its GPS row count before any
/// row is read, and whether it fits in the memory free now.
///
/// The analysis streams the rows, but keeps every usable GPS fix for the track and the
/// timeline (`RecordingAnalyzer`), and a GPX or GeoJSON export holds the whole track and
/// its document. On a Pi Zero (512 MB) a recording of weeks at 1 Hz, or days at 10 Hz,
/// needs more than the daemon can spare, and the kernel's out-of-memory killer ends the
/// largest process, which is the daemon: the recording would stop. The web page (inside
/// the daemon) therefore asks first and declines such work with this sentence; the
/// command-line tools do not (a computer has the memory, and it is the owner's command).
public enum AnalysisMemory {
    /// Work on a whole recording.
    public enum Work: Sendable {
        /// The summary (track, timeline, movement, health): 119 bytes per fix at the peak
        /// measured on 1–14 days at 1 Hz (BENCHMARKS.md, "Long GPS tracks"), with margin.
        case summary
        /// A GPX or GeoJSON document of the track, or the timeline export (which also holds
        /// the analysis' fixes): 190 bytes per fix measured for a GPX of 14 days, and the
        /// document's bytes once more while it is sent.
        case export

        var bytesPerFix: Int {
            switch self {
            case .summary: return 160
            case .export: return 400
            }
        }

        var what: String {
            switch self {
            case .summary: return "summarise"
            case .export: return "export"
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
            + "Copy the recording to a computer and run `motionlog \(work == .summary ? "summary" : "export")` there."
    }

    /// Whole megabytes, rounded up (without overflow at `Int.max`).
    static func megabytes(_ bytes: Int) -> Int { bytes >> 20 + (bytes & ((1 << 20) - 1) == 0 ? 0 : 1) }
}
