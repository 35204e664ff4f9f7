import ArgumentParser
import Foundation
import MotionCore

/// `motionlog-bench stall-probe`: one real-clock 1 kHz recording of all sources into a sink
/// that stalls like a microSD card, either through motionlog's recorder (double buffer,
/// writer thread) or through the inline baseline (writes on the sampling thread).
struct StallProbeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stall-probe", abstract: "Internal: a real-clock recording into a stalling sink.",
        shouldDisplay: false)

    @Option(help: "recorder or inline.") var mode: String
    @Option(help: "Stall length, seconds.") var stall: Double
    @Option(help: "Seconds from the first write to the first stall.") var firstAfter: Double
    @Option(help: "Seconds from the end of one stall to the next.") var interval: Double
    @Option(help: "Number of stalls.") var count: Int
    @Option(help: "Seconds to record.") var seconds: Double
    @Option(help: "Tick rate, Hz.") var rate: Int = 1000
    @Option(help: "Rows per writer buffer (recorder mode).") var bufferRows: Int = RecorderConfiguration.defaultBufferRows

    func run() throws {
        let schedule = StallSchedule(length: stall, firstAfter: firstAfter, interval: interval, count: count)
        let sink = StallingDirectory(schedule: schedule)
        let rssBefore = ProcessMemory.residentKB()
        var result: StallProbeResult
        switch mode {
        case "recorder":
            let probe = LatenessProbe(wrapping: BenchParts.makeSensor(), capacity: 1)
            let recorder = Recorder(configuration: BenchParts.configuration(rateHz: rate, seconds: seconds, bufferRows: bufferRows),
                                    clock: SystemClock(), sensor: probe, location: BenchParts.makeLocation(),
                                    estimator: try BenchParts.makeEstimator(), directory: sink, log: BenchParts.logger())
            let summary: RecordingSummary
            do { summary = try recorder.run() } catch { throw BenchError("\(error)") }
            let c = summary.counters
            let produced = Source.allCases.reduce(Int64(0)) { $0 + recorder.counters.produced.value($1) }
            result = StallProbeResult(
                mode: mode, stallSeconds: stall, stallsInjected: sink.stalls,
                longestWriteMs: Double(sink.longestWriteNanos) / 1e6, bufferRows: bufferRows,
                ticks: summary.ticks, overruns: c.overruns, missedTicks: c.missedTicks, rowsProduced: produced,
                rowsWritten: summary.rowsWritten.values.reduce(0, +), droppedRows: c.droppedRows,
                rowsMissedWithTicks: Self.rowsMissed(produced: produced, ticks: summary.ticks, missed: c.missedTicks),
                peakBufferRows: c.peakBufferRows, rssBeforeKB: rssBefore, peakRSSKB: ProcessMemory.peakResidentKB(),
                samplingPolicy: probe.policyAtFirstTick)
        case "inline":
            let outcome = try InlineWriterLoop(rateHz: rate, seconds: seconds, directory: sink).run()
            let s = outcome.statistics
            result = StallProbeResult(
                mode: mode, stallSeconds: stall, stallsInjected: sink.stalls,
                longestWriteMs: Double(sink.longestWriteNanos) / 1e6, bufferRows: nil,
                ticks: s.ticks, overruns: s.overruns, missedTicks: s.missedTicks, rowsProduced: outcome.rowsProduced,
                rowsWritten: outcome.rowsWritten, droppedRows: 0,
                rowsMissedWithTicks: Self.rowsMissed(produced: outcome.rowsProduced, ticks: s.ticks, missed: s.missedTicks),
                peakBufferRows: nil, rssBeforeKB: rssBefore, peakRSSKB: ProcessMemory.peakResidentKB(),
                samplingPolicy: outcome.samplingPolicy)
        default:
            throw ValidationError("--mode must be recorder or inline")
        }
        try printJSON(result)
    }

    /// Rows the missed ticks would have had: missed ticks × IMU rows per tick taken
    /// (L rows are not lost: the GPS queue hands them over at the next tick).
    static func rowsMissed(produced: Int64, ticks: Int64, missed: Int64) -> Int64 {
        guard ticks > 0 else { return 0 }
        let perTick = (Double(produced) / Double(ticks)).rounded(.down)
        return Int64(perTick) * missed
    }
}
