import MotionAnalysis
import Synchronization

/// Summaries given up on this logger for lack of memory (`AnalysisMemory.TooLong`), per
/// recording and version of its CSVs, with the limit that was passed: the page, the summary
/// API and the timeline download say why, and none of them nor the background summaries
/// read the recording again until its files change.
final class SummaryRefusals: Sendable {
    private let entries = Mutex<[String: (stamps: [FileStamp], why: AnalysisMemory.TooLong)]>([:])

    /// Why `recording`'s summary, as its files are now, was given up; nil if it was not.
    func why(_ recording: RecordingParts) -> AnalysisMemory.TooLong? {
        entries.withLock { e in e[recording.name].flatMap { $0.stamps == recording.stamps ? $0.why : nil } }
    }

    func note(_ recording: RecordingParts, _ why: AnalysisMemory.TooLong) {
        entries.withLock { $0[recording.name] = (recording.stamps, why) }
    }

    /// The summary of `recording` (its CSVs at `paths`), computed and cached, within `share`
    /// of the memory `available` now; nil when it was given up (noted) or failed.
    func summarise(_ recording: RecordingParts, paths: [String], available: Int?) -> AnalysisSummary? {
        guard why(recording) == nil else { return nil }
        do {
            return try SummaryCache.summary(for: paths, heldFixLimit: AnalysisMemory.heldFixLimit(availableBytes: available))
        } catch let tooLong as AnalysisMemory.TooLong {
            note(recording, tooLong)
            return nil
        } catch {
            return nil
        }
    }
}
