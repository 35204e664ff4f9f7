import ArgumentParser
import Foundation
import MotionCore
import Synchronization

/// `motionlog-bench scheduler-probe`: records all sources at one rate on the real clock with
/// the real recorder and writer (files into `--out`), noting every tick's wake-up lateness.
/// Run by `run` as a child process so each measurement starts from a clean process.
struct SchedulerProbeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scheduler-probe", abstract: "Internal: one real-clock recorder run with lateness per tick.",
        shouldDisplay: false)

    @Option(help: "Tick rate, Hz.") var rate: Int
    @Option(help: "Seconds to record.") var seconds: Double
    @Option(help: "File for the lateness samples (int64 ns, little-endian).") var samples: String
    @Option(help: "Folder for the recording's files.") var out: String

    func run() throws {
        let probe = LatenessProbe(wrapping: BenchParts.makeSensor(), capacity: Int(Double(rate) * seconds) + 16)
        let directory: DiskDirectory
        do { directory = try DiskDirectory(path: out) } catch { throw BenchError("\(error)") }
        let recorder = Recorder(configuration: BenchParts.configuration(rateHz: rate, seconds: seconds),
                                clock: SystemClock(), sensor: probe, location: BenchParts.makeLocation(),
                                estimator: try BenchParts.makeEstimator(), directory: directory,
                                log: BenchParts.logger())
        let census = CensusThread(after: 0.5)
        census.start()
        let summary: RecordingSummary
        do { summary = try recorder.run() } catch { throw BenchError("\(error)") }
        let endThread = CPUTime.threadNanos(), endProcess = CPUTime.processNanos()
        let endMono = SystemClock.monotonicNanos()
        guard let first = probe.atFirstTick else { throw BenchError("the recorder took no tick") }
        try Self.writeSamples(probe.samples, to: samples)
        let produced = Source.allCases.reduce(Int64(0)) { $0 + recorder.counters.produced.value($1) }
        let result = SchedulerProbeResult(
            rateHz: rate, ticks: summary.ticks, overruns: summary.counters.overruns,
            missedTicks: summary.counters.missedTicks, samples: probe.count,
            samplingPolicy: probe.policyAtFirstTick, threads: census.result(),
            cost: PipelineCost(samplingThreadCPUSeconds: Double(endThread - first.thread) / 1e9,
                               processCPUSeconds: Double(endProcess - first.process) / 1e9,
                               wallSeconds: Double(endMono - first.monotonic) / 1e9,
                               rowsProduced: produced, rowsWritten: summary.rowsWritten.values.reduce(0, +),
                               droppedRows: summary.counters.droppedRows))
        try printJSON(result)
    }

    static func writeSamples(_ samples: UnsafeBufferPointer<Int64>, to path: String) throws(BenchError) {
        var data = Data(capacity: samples.count * 8)
        for s in samples { withUnsafeBytes(of: s.littleEndian) { data.append(contentsOf: $0) } }
        do { try data.write(to: URL(fileURLWithPath: path)) } catch {
            throw BenchError("cannot write lateness samples to \(path): \(error)")
        }
    }
}

/// A normal-priority thread that takes one `ThreadCensus` snapshot a moment into the run.
final class CensusThread: Sendable {
    private let delay: Double
    private let done = DispatchSemaphore(value: 0)
    private let box = CensusBox()

    init(after delay: Double) { self.delay = delay }

    func start() {
        let thread = Thread { [self] in
            Thread.sleep(forTimeInterval: delay)
            box.store(ThreadCensus.snapshot())
            done.signal()
        }
        thread.name = "bench-census"
        thread.start()
    }

    /// The snapshot (waits for it if the run was shorter than the delay).
    func result() -> [ThreadCensus.Entry] {
        done.wait()
        return box.load()
    }
}

private final class CensusBox: Sendable {
    private let value = Mutex<[ThreadCensus.Entry]>([])
    func store(_ v: [ThreadCensus.Entry]) { value.withLock { $0 = v } }
    func load() -> [ThreadCensus.Entry] { value.withLock { $0 } }
}

/// Prints one compact JSON object on stdout (a probe's result).
func printJSON<T: Encodable>(_ value: T) throws(BenchError) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    do {
        let data = try encoder.encode(value)
        print(String(decoding: data, as: UTF8.self))
    } catch {
        throw BenchError("cannot encode a result as JSON: \(error)")
    }
}
