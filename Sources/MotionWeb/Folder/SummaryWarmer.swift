import Foundation
import MotionAnalysis
import MotionSystem
import Synchronization

/// Computes, in the background, the summary (MotionAnalysis) of every finished recording
/// (all the parts of a rotated one together) that has no fresh cached one, so the list can show distance and activity without the
/// page rereading CSVs. One recording at a time, newest first, on a thread of its own at
/// the lowest CPU priority (nice 19: the sampler runs SCHED_FIFO and never waits for it).
///
/// It runs when poked: when the server starts and when a listing finds a recording that
/// needs a summary. Each version of a recording's CSVs (inode, size, modification time) is
/// tried once, so a recording that cannot be analysed, or a folder where the cache cannot be written, is
/// not reread on every listing. The summary is computed by `summarise`, which on the logger
/// gives up a recording whose analysis would not fit in the memory free
/// (`SummaryRefusals`, `AnalysisMemory`: weeks of GPS without a stop on a Pi Zero): the
/// daemon would be the process the kernel ends for it.
final class SummaryWarmer: Sendable {
    private struct State {
        var running = false
        var again = false
        var tried: Set<[FileStamp]> = []
    }

    private let folder: RecordingFolder
    private let isWriting: @Sendable (RecordingEntry) -> Bool
    /// Computes and caches a recording's summary; false when it did not.
    private let summarise: @Sendable (RecordingParts) -> Bool
    private let state = Mutex(State())
    /// Called after a round with the number of summaries it computed (tests wait on it).
    private let onRound: (@Sendable (Int) -> Void)?

    init(folder: RecordingFolder, isWriting: @escaping @Sendable (RecordingEntry) -> Bool,
         summarise: (@Sendable (RecordingParts) -> Bool)? = nil, onRound: (@Sendable (Int) -> Void)? = nil) {
        self.folder = folder
        self.isWriting = isWriting
        self.summarise = summarise ?? { r in (try? SummaryCache.summary(for: r.csvPaths(in: folder.path))) != nil }
        self.onRound = onRound
    }

    /// Whether `r` lacks a fresh summary that has not been tried for this version.
    private func needsWork(_ r: RecordingParts, tried: Set<[FileStamp]>) -> Bool {
        !tried.contains(r.stamps) && !r.hasWholeSummary
    }

    /// Starts a round when `entries` (a listing) holds a recording that needs a summary.
    func noteListing(_ entries: [RecordingParts]) {
        let tried = state.withLock { $0.tried }
        if entries.contains(where: { needsWork($0, tried: tried) }) { poke() }
    }

    /// Starts a round (or asks the running one to look again when it ends).
    func poke() {
        let start = state.withLock { s -> Bool in
            if s.running { s.again = true; return false }
            s.running = true
            return true
        }
        guard start else { return }
        let t = Thread { [self] in self.rounds() }
        t.name = "motionlog-web-summaries"
        t.start()
    }

    private func rounds() {
        // Lowest priority, for this thread only.
        try? ThreadScheduling.setNice(19)
        while true {
            state.withLock { $0.again = false }
            var computed = 0
            let recordings = (try? folder.recordings()) ?? []
            for r in recordings {
                let tried = state.withLock { $0.tried }
                guard needsWork(r, tried: tried), !r.parts.contains(where: isWriting) else { continue }
                state.withLock { _ = $0.tried.insert(r.stamps) }
                if summarise(r) { computed += 1 }
            }
            onRound?(computed)
            let more = state.withLock { s -> Bool in
                if s.again { return true }
                s.running = false
                return false
            }
            if !more { return }
        }
    }
}
