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
        discussion: "Ctrl-C, Ctrl-\\, SIGTERM or SIGHUP stops cleanly: every row sampled before the stop is written, fsynced and closed, and the command exits 0.")

    @OptionGroup var options: RecordingOptions
    @OptionGroup var runOptions: RecordRunOptions

    func run() throws {
        // From here Ctrl-C, SIGTERM and SIGHUP stop cleanly (before the first sample: nothing is recorded).
        let stop = StopSignal()
        SignalWatcher.onStop { _ in stop.request() }
        let log = Logging.motionlogLogger()
        let setup = try RecordingSetup.resolve(options, run: .init(duration: runOptions.duration, fast: runOptions.fast))
        let (recorder, _) = try SensorFactory.makeRecorder(setup, log: log, stop: stop)
        StartupRecovery.run(folder: setup.outputPath, log: log)
        let freeSpace = try RecordGuards.startFreeSpaceMonitor(setup, recorder: recorder)
        let status = runOptions.quiet || !Console.stderrIsTerminal ? nil
            : StatusLine(counters: recorder.counters, rateHz: setup.configuration.rateHz, duration: setup.configuration.duration,
                         recordsGPS: setup.configuration.sources.contains(.location))
        status?.start()
        let summary: RecordingSummary
        do { summary = try recorder.run() } catch {
            status?.stop()
            freeSpace?.stop()
            throw CommandFailure("not recording: \(error)", code: 1)
        }
        status?.stop()
        if summary.files.isEmpty && summary.ticks == 0 && !summary.hadWriteFailures {
            freeSpace?.stop()
            Console.out("Stopped before the first sample (\(summary.endReason)): nothing was recorded.")
            return
        }
        Console.out(Self.describe(summary, configuration: recorder.configuration))
        if let warning = RecordGuards.missedTicksWarning(summary, rateHz: setup.configuration.rateHz) {
            Console.error(warning)
        }
        try RecordGuards.finish(freeSpace, summary: summary)
    }

    static func describe(_ s: RecordingSummary, configuration cfg: RecorderConfiguration) -> String {
        let seconds = Double(s.ticks + s.counters.missedTicks) / Double(cfg.rateHz)
        let written = s.rowsWritten.values.reduce(0, +)
        let head: String
        if !s.hadWriteFailures {
            head = "Recorded \(fixed(seconds, 2)) s"
        } else if written > 0 {
            head = "Recorded \(fixed(seconds, 2)) s WITH WRITE ERRORS"
        } else if !s.removedFiles.isEmpty {
            head = "NOTHING WAS KEPT: the recording's files were deleted while recording (\(fixed(seconds, 2)) s)"
        } else {
            head = "NOTHING WAS RECORDED: every write failed during \(fixed(seconds, 2)) s"
        }
        var lines = ["\(head) at \(cfg.rateHz) Hz on board \(cfg.boardName) (\(s.endReason)) into \(s.directory):"]
        for f in s.files { lines.append("  \(s.directory)/\(f)") }
        for f in s.removedFiles { lines.append("  \(s.directory)/\(f) (deleted while recording: its rows are gone)") }
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
