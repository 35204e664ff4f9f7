import MotionCore

/// The safety nets `record` shares with the daemon: power-loss recovery before the first
/// row, and the free-space guard while recording.
enum RecordGuards {
    /// Starts the free-space monitor for a recording (config `min_free_space`, default
    /// 100M; 0 disables). Refuses to start when the space is already below the reserve.
    static func startFreeSpaceMonitor(_ setup: RecordingSetup, stop: StopSignal) throws(CommandFailure) -> FreeSpaceMonitor? {
        let limit = setup.settings.minFreeSpace ?? FreeSpaceGuard.defaultMinimumFreeBytes
        guard limit > 0 else { return nil }
        let freeSpace = FreeSpaceGuard(path: setup.outputPath, minimumFreeBytes: limit)
        let verdict = freeSpace.check()
        if verdict.isLow { throw CommandFailure("not starting: \(verdict)", code: 1) }
        let monitor = FreeSpaceMonitor(guard: freeSpace) { _ in stop.request(reason: FreeSpaceGuard.endReason) }
        monitor.start()
        return monitor
    }

    /// After `run()`: a recording the guard stopped is reported as a failure (exit 1) with
    /// the reason; its files are complete and valid.
    static func finish(_ monitor: FreeSpaceMonitor?, summary: RecordingSummary) throws(CommandFailure) {
        monitor?.stop()
        if summary.endReason == FreeSpaceGuard.endReason {
            throw CommandFailure(monitor?.lastVerdict?.description ?? "stopped: the card is nearly full", code: 1)
        }
    }
}
