import MotionConfig
import MotionCore

/// The safety nets `record` shares with the daemon: the free-space guard while recording,
/// and the verdict on a finished recording (failures, missed ticks). Power-loss recovery
/// before the first row is `StartupRecovery`'s.
enum RecordGuards {
    /// Starts the free-space monitor for a recording (config `min_free_space`, default
    /// 100M; 0 disables), checking by time and by the recorder's bytes written. Refuses to
    /// start when the space is already low.
    static func startFreeSpaceMonitor(_ setup: RecordingSetup, recorder: Recorder) throws(CommandFailure) -> FreeSpaceMonitor? {
        guard let freeSpace = freeSpaceGuard(setup, minimumFreeBytes: setup.settings.minFreeSpace,
                                             howToLower: recordHowToLower(setup.settings)) else { return nil }
        let verdict = freeSpace.check()
        if verdict.isLow { throw CommandFailure("not starting: \(verdict)", code: 1) }
        let stop = recorder.stop
        let monitor = FreeSpaceMonitor(guard: freeSpace) { _ in stop.request(reason: FreeSpaceGuard.endReason) }
        recorder.onBytesWritten = { monitor.noteWritten($0) }
        monitor.start()
        return monitor
    }

    /// How `record` (no option for it) lowers the reserve: in the config file it read, when
    /// it read one (it said "pass a config file" to someone who had), else in one to pass.
    static func recordHowToLower(_ settings: RecorderSettings) -> String {
        guard let file = settings.file else {
            return "lower the reserve: set min_free_space in a config file and pass it with --config FILE"
        }
        return "lower the reserve: \(settings.minFreeSpace == nil ? "set" : "lower") min_free_space in \(file)"
    }
    /// How the daemon (`--min-free-space`) lowers the reserve.
    static let daemonHowToLower = "lower the reserve with --min-free-space (or min_free_space in the config file)"

    /// The free-space rule for a setup (nil: disabled with 0), with room for what is still
    /// buffered when it stops a recording; `howToLower` ends the low-space message.
    static func freeSpaceGuard(_ setup: RecordingSetup, minimumFreeBytes: Int64?, howToLower: String) -> FreeSpaceGuard? {
        let limit = minimumFreeBytes ?? FreeSpaceGuard.defaultMinimumFreeBytes
        guard limit > 0 else { return nil }
        let bytes = FreeSpaceGuard.headroom(bufferRows: setup.configuration.bufferRows, minimumFreeBytes: limit)
        return FreeSpaceGuard(path: setup.outputPath, minimumFreeBytes: limit, headroomBytes: bytes,
                              headroomInodes: FreeSpaceGuard.headroomInodes(headroomBytes: bytes, rotateBytes: setup.configuration.rotation.maxBytes),
                              howToLower: howToLower)
    }

    /// After `run()`: a recording that lost rows to write errors, halted on a failure, or
    /// was stopped by the guard is reported as a failure (exit 1) with the reason.
    static func finish(_ monitor: FreeSpaceMonitor?, summary: RecordingSummary) throws(CommandFailure) {
        monitor?.stop()
        if let failure = failureMessage(summary, lowSpace: monitor?.lastVerdict) {
            throw CommandFailure(failure, code: 1)
        }
    }

    /// What went wrong with a finished recording, in words (nil: nothing).
    static func failureMessage(_ summary: RecordingSummary, lowSpace: FreeSpaceVerdict?) -> String? {
        let c = summary.counters
        var parts: [String] = []
        if !summary.removedFiles.isEmpty {
            parts.append("\(summary.removedFiles.joined(separator: ", ")) deleted while recording")
        }
        if summary.hadWriteFailures {
            let written = summary.rowsWritten.values.reduce(0, +)
            var text = written == 0 && summary.removedFiles.isEmpty
                ? "nothing was recorded: \(CountText.were(c.rowsLostToWriteErrors, "row")) lost to write errors"
                : "\(CountText.were(c.rowsLostToWriteErrors, "row")) lost to write errors (\(CountText.of(c.writeErrors, "failed write")))"
            if let first = summary.writeFailure { text += "; the first: \(first)" }
            parts.append(text)
        }
        if summary.endReason == FreeSpaceGuard.endReason {
            // Only true when the card never filled up: no row was lost on the way.
            if c.rowsLostToWriteErrors == 0, let verdict = lowSpace, verdict.isLow {
                parts.append(verdict.description)
            } else if c.rowsLostToWriteErrors == 0 {
                parts.append("stopped: the card is nearly full")
            } else {
                parts.append("stopped: the card filled up")
            }
        }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }

    /// A warning when the machine missed more than 1 % of the ticks, nil otherwise. Many
    /// short misses say the rate is too high for the machine; misses of half a second or more
    /// per late wake-up on average say the recorder was paused (stopped with SIGSTOP or
    /// Ctrl-Z, the system suspended, or starved for seconds), which a lower rate does not
    /// help: a 20-second SIGSTOP was answered with "choose a lower --rate".
    static func missedTicksWarning(_ summary: RecordingSummary, rateHz: Int) -> String? {
        guard summary.missedFraction > 0.01 else { return nil }
        let percent = (summary.missedFraction * 1000).rounded() / 10
        let missed = "\(percent) % of the ticks were missed (\(summary.counters.missedTicks) of \(summary.ticks + summary.counters.missedTicks))"
        let c = summary.counters
        if c.overruns > 0, c.missedTicks / c.overruns >= max(1, Int64(rateHz) / 2) {
            let times = c.overruns == 1 ? "once" : "\(c.overruns) times"
            return "warning: \(missed): the recorder was paused \(times) for seconds (stopped with Ctrl-Z or SIGSTOP, the system suspended, or starved of CPU); those samples do not exist"
        }
        return "warning: \(missed): this machine cannot keep up with \(rateHz) Hz; those samples do not exist — choose a lower --rate"
    }
}
