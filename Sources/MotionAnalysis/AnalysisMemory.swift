/// How much of a recording the summary may hold in memory on the logger, and the sentence
/// when it would need more.
///
/// The analysis streams the rows and holds the GPS fixes of one stretch of the track
/// between stops and long losses at a time, of at most `AnalysisOptions.longestPieceFixes`
/// (`TrackTimeline`). As a guard for a logger short of memory, a summary is given a limit
/// of fixes to hold (`heldFixLimit`) and gives up past it (`TooLong`). The exports do not
/// grow with the track (GPX and GeoJSON read it again rather than hold it, the timeline
/// writes a day at a time from a second reading), so only the summary is weighed. On a Pi
/// Zero (512 MB) the kernel's out-of-memory killer ends the largest process, which is the
/// daemon: the recording would stop. The web page (inside the daemon) therefore gives up
/// with a sentence that says why and what to do instead; the command-line tools do not
/// (a computer has the memory, and it is the owner's command).
public enum AnalysisMemory {
    /// Bytes the summary holds per GPS fix at its peak: 125 measured with `/usr/bin/time` on
    /// 14 days at 1 Hz without a stop (BENCHMARKS.md, "Long GPS tracks"), with margin.
    public static let bytesPerFix = 160

    /// The share of the free memory the work may take: the rest is the recorder's, the web
    /// page's and the system's.
    public static let share = 0.5

    /// The most GPS fixes a summary may hold at once in `share` of `availableBytes` (nil when
    /// the free memory is unknown): the summary holds one stretch of the track between stops
    /// and long losses, which the row count cannot foresee, so the page tries and gives up
    /// past this (`TooLong`) rather than declining every long recording.
    public static func heldFixLimit(availableBytes: Int?) -> Int? {
        guard let available = availableBytes else { return nil }
        return max(1, Int(Double(available) * share) / bytesPerFix)
    }

    /// A summary given up: a stretch of more than `heldFixLimit` GPS fixes without a stop or
    /// a long loss of signal would not fit (`heldFixLimit(availableBytes:)`).
    public struct TooLong: Error, Sendable, CustomStringConvertible {
        public let heldFixLimit: Int

        public init(heldFixLimit: Int) { self.heldFixLimit = heldFixLimit }

        public var description: String { sentence(what: "summarise", command: "motionlog summary") }

        /// The sentence for work that needs the summary (`what`: "summarise", "export the
        /// timeline of"), and the command that does it on a computer.
        public func sentence(what: String, command: String) -> String {
            let (need, overflow) = heldFixLimit.multipliedReportingOverflow(by: bytesPerFix)
            return "Too long to \(what) on this logger: more than \(heldFixLimit) GPS fixes without a stop or a long "
                + "loss of signal need more than \(megabytes(overflow ? .max : need)) MB of memory, half of what is free (the recorder must "
                + "keep the rest). Copy the recording to a computer and run `\(command)` there."
        }
    }

    /// Whole megabytes, rounded up (without overflow at `Int.max`).
    static func megabytes(_ bytes: Int) -> Int { bytes >> 20 + (bytes & ((1 << 20) - 1) == 0 ? 0 : 1) }
}
