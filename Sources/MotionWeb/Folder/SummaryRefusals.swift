import MotionAnalysis
import Synchronization

/// Summaries given up on this logger for lack of memory (`AnalysisMemory.TooLong`), per
/// recording and version of its CSVs, with the sentence that says why: the page and the
/// summary API show it, and neither they nor the background summaries read the recording
/// again until its files change.
final class SummaryRefusals: Sendable {
    private let entries = Mutex<[String: (stamps: [FileStamp], why: String)]>([:])

    /// Why `recording`'s summary, as its files are now, was given up; nil if it was not.
    func why(_ recording: RecordingParts) -> String? {
        entries.withLock { e in e[recording.name].flatMap { $0.stamps == recording.stamps ? $0.why : nil } }
    }

    func note(_ recording: RecordingParts, _ why: String) {
        entries.withLock { $0[recording.name] = (recording.stamps, why) }
    }

    /// The summary of `recording` (its CSVs at `paths`), computed and cached, within `share`
    /// of the memory `available` now; nil when it was given up (noted) or failed.
    func summarise(_ recording: RecordingParts, paths: [String], available: Int?) -> AnalysisSummary? {
        guard why(recording) == nil else { return nil }
        do {
            return try SummaryCache.summary(for: paths, heldFixLimit: AnalysisMemory.heldFixLimit(availableBytes: available))
        } catch let tooLong as AnalysisMemory.TooLong {
            note(recording, tooLong.description)
            return nil
        } catch {
            return nil
        }
    }
}
