import MotionAnalysis
import Synchronization

/// Summaries given up on this logger for lack of memory (`AnalysisMemory.TooLong`), per
/// recording and version of its CSVs, with the limit that was passed: the page, the summary
/// API and the timeline download say why, and none of them nor the background summaries
/// read the recording again until its files change, or until the memory free lets a
/// summary hold half as many fixes again as the limit it passed (`retries`).
final class SummaryRefusals: Sendable {
    private let entries = Mutex<[String: (stamps: [FileStamp], why: AnalysisMemory.TooLong)]>([:])

    /// Why `recording`'s summary, as its files are now, was given up; nil if it was not.
    func why(_ recording: RecordingParts) -> AnalysisMemory.TooLong? {
        entries.withLock { e in e[recording.name].flatMap { $0.stamps == recording.stamps ? $0.why : nil } }
    }

    /// Whether a summary given up under `old` is worth trying again now that `limit` fixes
    /// fit: half as many again (not every page view after a little memory was freed).
    static func retries(_ old: AnalysisMemory.TooLong, limit: Int?) -> Bool {
        guard let limit else { return true }   // the free memory is no longer known: no limit
        return limit / 3 * 2 > old.heldFixLimit
    }

    /// Why `recording`'s summary is not computed now with `available` bytes free: the
    /// refusal of these files, unless `retries`; nil to compute it.
    func declines(_ recording: RecordingParts, available: Int?) -> AnalysisMemory.TooLong? {
        guard let old = why(recording) else { return nil }
        return Self.retries(old, limit: AnalysisMemory.heldFixLimit(availableBytes: available)) ? nil : old
    }

    func note(_ recording: RecordingParts, _ why: AnalysisMemory.TooLong) {
        entries.withLock { $0[recording.name] = (recording.stamps, why) }
    }

    /// The summary of `recording` (its CSVs at `paths`), computed and cached, within `share`
    /// of the memory `available` now; nil when it was given up (noted) or failed.
    func summarise(_ recording: RecordingParts, paths: [String], available: Int?) -> AnalysisSummary? {
        guard declines(recording, available: available) == nil else { return nil }
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
