import ArgumentParser
import Foundation
import Logging
import MotionConfig
import LinuxHardware
import MotionCore

/// `motionlog record`: records a board's sensors until the duration or Ctrl-C.
struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record sensors to MotionCollector CSV files.",
        discussion: "Ctrl-C or SIGTERM stops cleanly: every row sampled before the stop is written, fsynced and closed, and the command exits 0.")

    @OptionGroup var options: RecordingOptions
    @OptionGroup var runOptions: RecordRunOptions

    func run() throws {
        let log = Logging.motionlogLogger()
        let setup = try RecordingSetup.resolve(options, run: .init(duration: runOptions.duration, fast: runOptions.fast))
        let (recorder, _) = try SensorFactory.makeRecorder(setup, log: log, folderErrorCode: 2)
        StartupRecovery.run(folder: setup.outputPath, log: log)
        let stop = recorder.stop
        SignalWatcher.install { _ in stop.request() }
        let freeSpace = try RecordGuards.startFreeSpaceMonitor(setup, stop: stop)
        let status = runOptions.quiet || !Console.stderrIsTerminal ? nil
            : StatusLine(counters: recorder.counters, rateHz: setup.configuration.rateHz, duration: setup.configuration.duration,
                         recordsGPS: setup.configuration.sources.contains(.location))
        status?.start()
        let summary: RecordingSummary
        do { summary = try recorder.run() } catch {
            status?.stop()
            throw CommandFailure("\(error)", code: 1)
        }
        status?.stop()
        Console.out(Self.describe(summary, configuration: recorder.configuration))
        try RecordGuards.finish(freeSpace, summary: summary)
    }

    static func describe(_ s: RecordingSummary, configuration cfg: RecorderConfiguration) -> String {
        let seconds = Double(s.ticks + s.counters.missedTicks) / Double(cfg.rateHz)
        var lines = ["Recorded \(fixed(seconds, 2)) s at \(cfg.rateHz) Hz on board \(cfg.boardName) (\(s.endReason)) into \(s.directory):"]
        for f in s.files { lines.append("  \(s.directory)/\(f)") }
        let rows = Source.canonicalOrder.compactMap { src -> String? in
            guard cfg.sources.contains(src) else { return nil }
            return "\(src) \(s.rowsWritten[src] ?? 0)"
        }
        lines.append("  rows: " + rows.joined(separator: ", "))
        let c = s.counters
        lines.append("  dropped rows \(c.droppedRows), lost to write errors \(c.rowsLostToWriteErrors), overruns \(c.overruns) (missed ticks \(c.missedTicks)), write errors \(c.writeErrors)")
        lines.append("  peak buffer \(fixed(c.peakBufferFill * 100, 1)) % of \(cfg.bufferRows) rows, worst write \(fixed(c.worstWriteLatencyMs, 1)) ms, fsyncs \(c.fsyncs)")
        return lines.joined(separator: "\n")
    }
}
