import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Figure 1: wake-up lateness and overruns of the real recorder (all sources, writer thread
/// writing files, real clock) next to the C floor (`bench/baselines/tick_loop.c`) at the
/// same priority. Each rate alternates the two in segments (C, motionlog, motionlog, C, ...)
/// so both see the same machine load.
enum SchedulerFigure {
    struct Side: Codable, Sendable {
        var policy: String
        var seconds: Double
        var ticks: Int64
        var overruns: Int64
        var missedTicks: Int64
        var lateness: LatencyStats?
        /// CPU time of the C floor from its first tick to its last (sleeping and waking alone).
        var cpuSeconds: Double?
    }

    struct MotionlogCost: Codable, Sendable {
        var samplingThreadCPUSeconds: Double
        var processCPUSeconds: Double
        var wallSeconds: Double
        var rowsProduced: Int64
        var rowsWritten: Int64
        var droppedRows: Int64
    }

    struct Rate: Codable, Sendable {
        var rateHz: Int
        var motionlog: Side
        var cost: MotionlogCost
        var cFloor: Side?
        /// motionlog p99 / C floor p99.
        var p99Ratio: Double?
        /// The probe's threads and their policies (is the writer thread real-time too?).
        var threads: [ThreadCensus.Entry]
    }

    struct Result: Codable, Sendable {
        var secondsPerSide: Double
        var segments: Int
        /// Whether SCHED_FIFO was granted here; the C loop asks for it only if so.
        var realtimeAvailable: Bool
        var rates: [Rate]
        var cFloorUnavailable: String?
    }

    static func run(_ ctx: BenchContext) throws(BenchError) -> Result {
        let plan = ctx.plan
        let fifo = RealtimeCheck.fifoAvailable()
        ctx.progress("scheduler: SCHED_FIFO \(fifo ? "granted" : "not granted") here; the C floor runs at the same priority")
        let segmentSeconds = plan.schedulerSeconds / Double(plan.schedulerSegments)
        var rates: [Rate] = []
        for rate in plan.schedulerRates {
            var swiftSamples: [Int64] = [], cSamples: [Int64] = []
            var swift = Side(policy: "", seconds: 0, ticks: 0, overruns: 0, missedTicks: 0)
            var c = Side(policy: "", seconds: 0, ticks: 0, overruns: 0, missedTicks: 0)
            var cost = MotionlogCost(samplingThreadCPUSeconds: 0, processCPUSeconds: 0, wallSeconds: 0,
                                     rowsProduced: 0, rowsWritten: 0, droppedRows: 0)
            var threads: [ThreadCensus.Entry] = []
            for segment in 0..<plan.schedulerSegments {
                // ABBA order: C first in even segments, motionlog first in odd ones.
                let order = segment % 2 == 0 ? [true, false] : [false, true]
                for isC in order {
                    ctx.progress("scheduler: \(rate) Hz, segment \(segment + 1)/\(plan.schedulerSegments), \(isC ? "C floor" : "motionlog") for \(segmentSeconds) s")
                    if isC {
                        guard let loop = ctx.baselines.tickLoop else { continue }
                        let file = ctx.work + "/c-lateness.bin"
                        var args = ["\(rate)", "\(segmentSeconds)", file]
                        if fifo { args.append("fifo") }
                        let (r, _) = try ChildProcess.runJSON(TickLoopOutput.self, loop, args, scratch: ctx.work)
                        cSamples += try readSamples(file)
                        c.policy = r.policy
                        c.seconds += segmentSeconds
                        c.ticks += r.ticks; c.overruns += r.overruns; c.missedTicks += r.missedTicks
                        c.cpuSeconds = (c.cpuSeconds ?? 0) + r.cpuSeconds
                    } else {
                        let file = ctx.work + "/swift-lateness.bin"
                        let out = try ctx.folder("scheduler-recording")
                        let (r, _) = try ChildProcess.runJSON(
                            SchedulerProbeResult.self, ctx.selfPath,
                            ["scheduler-probe", "--rate", "\(rate)", "--seconds", "\(segmentSeconds)",
                             "--samples", file, "--out", out], scratch: ctx.work)
                        ctx.remove(out)
                        swiftSamples += try readSamples(file)
                        swift.policy = r.samplingPolicy
                        swift.seconds += segmentSeconds
                        swift.ticks += r.ticks; swift.overruns += r.overruns; swift.missedTicks += r.missedTicks
                        cost.samplingThreadCPUSeconds += r.samplingThreadCPUSeconds
                        cost.processCPUSeconds += r.processCPUSeconds
                        cost.wallSeconds += r.wallSeconds
                        cost.rowsProduced += r.rowsProduced
                        cost.rowsWritten += r.rowsWritten
                        cost.droppedRows += r.droppedRows
                        if threads.isEmpty { threads = r.threads }
                    }
                }
            }
            swift.lateness = LatencyStats(nanos: swiftSamples)
            c.lateness = LatencyStats(nanos: cSamples)
            let ratio: Double? = {
                guard let s = swift.lateness?.p99Micros, let f = c.lateness?.p99Micros, f > 0 else { return nil }
                return s / f
            }()
            rates.append(Rate(rateHz: rate, motionlog: swift, cost: cost,
                              cFloor: ctx.baselines.tickLoop == nil ? nil : c, p99Ratio: ratio, threads: threads))
        }
        return Result(secondsPerSide: plan.schedulerSeconds, segments: plan.schedulerSegments,
                      realtimeAvailable: fifo, rates: rates, cFloorUnavailable: ctx.baselines.problems["tick_loop"])
    }

    /// What tick_loop.c prints.
    struct TickLoopOutput: Codable {
        var ticks: Int64
        var overruns: Int64
        var missedTicks: Int64
        var maxLatenessNanos: Int64
        var policy: String
        var timerSlack1ns: Bool
        var cpuSeconds: Double
        var wallSeconds: Double
    }

    static func readSamples(_ path: String) throws(BenchError) -> [Int64] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw BenchError("cannot read lateness samples from \(path)")
        }
        let count = data.count / 8
        var out = [Int64](repeating: 0, count: count)
        out.withUnsafeMutableBytes { dst in
            data.withUnsafeBytes { src in dst.copyMemory(from: UnsafeRawBufferPointer(rebasing: src[0..<(count * 8)])) }
        }
        return out.map { Int64(littleEndian: $0) }
    }
}

/// Whether this process may run a thread with SCHED_FIFO (tried on a throwaway thread).
enum RealtimeCheck {
    static func fifoAvailable() -> Bool {
        let result = Flag()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            var param = sched_param()
            param.sched_priority = 50
            result.value.store(pthread_setschedparam(pthread_self(), Int32(SCHED_FIFO), &param) == 0, ordering: .relaxed)
            done.signal()
        }
        thread.start()
        done.wait()
        return result.value.load(ordering: .relaxed)
    }

    private final class Flag: Sendable {
        let value = Atomic<Bool>(false)
    }
}
