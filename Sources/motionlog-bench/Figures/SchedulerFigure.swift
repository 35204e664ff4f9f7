import Foundation
import MotionSystem
import Synchronization

/// Figure 1: wake-up lateness and overruns of the real recorder (all sources, writer thread
/// writing files, real clock) next to the C floor (`bench/baselines/tick_loop.c`) at the
/// same priority. Each rate alternates the two in segments (C, motionlog, motionlog, C, ...)
/// so both see the same machine load. Then the same at 1 kHz with both pinned to one CPU,
/// as on a single-core board (Raspberry Pi Zero), where the writer thread competes with the
/// sampling thread for the only core.
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

    struct Rate: Codable, Sendable {
        var rateHz: Int
        /// The one CPU both sides were pinned to (`taskset`), as on a single-core board; nil: all CPUs.
        var pinnedCPU: Int?
        var motionlog: Side
        var cost: PipelineCost
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
        /// The same measurement with both sides pinned to one CPU (a single-core board).
        var oneCPU: [Rate]
        var oneCPUSecondsPerSide: Double
        var cFloorUnavailable: String?
        var oneCPUUnavailable: String?
    }

    static func run(_ ctx: BenchContext) throws(BenchError) -> Result {
        let plan = ctx.plan
        let fifo = RealtimeCheck.fifoAvailable()
        ctx.progress("scheduler: SCHED_FIFO \(fifo ? "granted" : "not granted") here; the C floor runs at the same priority")
        var rates: [Rate] = []
        for rate in plan.schedulerRates {
            rates.append(try measure(ctx, rate: rate, seconds: plan.schedulerSeconds, fifo: fifo, cpu: nil))
        }
        var oneCPU: [Rate] = []
        var oneCPUProblem: String?
        let cpus = SystemInfo.onlineProcessors
        if cpus < 2 {
            oneCPUProblem = "this machine has one CPU: the main figures are already single-core"
        } else {
            for rate in plan.oneCPURates {
                do {
                    oneCPU.append(try measure(ctx, rate: rate, seconds: plan.oneCPUSeconds, fifo: fifo, cpu: cpus - 1))
                } catch {
                    oneCPUProblem = "\(error) — pinning needs taskset (util-linux)"
                    break
                }
            }
        }
        return Result(secondsPerSide: plan.schedulerSeconds, segments: plan.schedulerSegments,
                      realtimeAvailable: fifo, rates: rates, oneCPU: oneCPU, oneCPUSecondsPerSide: plan.oneCPUSeconds,
                      cFloorUnavailable: ctx.baselines.problems["tick_loop"], oneCPUUnavailable: oneCPUProblem)
    }

    /// One rate: motionlog and the C floor alternating in segments (C first in even
    /// segments, motionlog first in odd ones), optionally both pinned to one CPU.
    static func measure(_ ctx: BenchContext, rate: Int, seconds: Double, fifo: Bool, cpu: Int?) throws(BenchError) -> Rate {
        let segments = ctx.plan.schedulerSegments
        let segmentSeconds = seconds / Double(segments)
        func launch(_ program: String, _ args: [String]) -> (String, [String]) {
            guard let cpu else { return (program, args) }
            return ("taskset", ["-c", "\(cpu)", program] + args)
        }
        var swiftSamples: [Int64] = [], cSamples: [Int64] = []
        var swift = Side(policy: "", seconds: 0, ticks: 0, overruns: 0, missedTicks: 0)
        var c = Side(policy: "", seconds: 0, ticks: 0, overruns: 0, missedTicks: 0)
        var cost = PipelineCost()
        var threads: [ThreadCensus.Entry] = []
        let label = "\(rate) Hz" + (cpu.map { " on CPU \($0) only" } ?? "")
        for segment in 0..<segments {
            for isC in segment % 2 == 0 ? [true, false] : [false, true] {
                ctx.progress("scheduler: \(label), segment \(segment + 1)/\(segments), \(isC ? "C floor" : "motionlog") for \(segmentSeconds) s")
                if isC {
                    guard let loop = ctx.baselines.tickLoop else { continue }
                    let file = ctx.work + "/c-lateness.bin"
                    let (program, args) = launch(loop, ["\(rate)", "\(segmentSeconds)", file] + (fifo ? ["fifo"] : []))
                    let (r, _) = try ChildProcess.runJSON(TickLoopOutput.self, program, args, scratch: ctx.work)
                    cSamples += try readSamples(file)
                    c.policy = r.policy
                    c.seconds += segmentSeconds
                    c.ticks += r.ticks; c.overruns += r.overruns; c.missedTicks += r.missedTicks
                    c.cpuSeconds = (c.cpuSeconds ?? 0) + r.cpuSeconds
                } else {
                    let file = ctx.work + "/swift-lateness.bin"
                    let out = try ctx.folder("scheduler-recording")
                    let (program, args) = launch(ctx.selfPath, ["scheduler-probe", "--rate", "\(rate)", "--seconds",
                                                                "\(segmentSeconds)", "--samples", file, "--out", out])
                    let (r, _) = try ChildProcess.runJSON(SchedulerProbeResult.self, program, args, scratch: ctx.work)
                    ctx.remove(out)
                    swiftSamples += try readSamples(file)
                    swift.policy = r.samplingPolicy
                    swift.seconds += segmentSeconds
                    swift.ticks += r.ticks; swift.overruns += r.overruns; swift.missedTicks += r.missedTicks
                    cost.add(r.cost)
                    if threads.isEmpty { threads = r.threads }
                }
            }
        }
        swift.lateness = LatencyStats(nanos: swiftSamples)
        c.lateness = LatencyStats(nanos: cSamples)
        var ratio: Double?
        if let ours = swift.lateness?.p99Micros, let floor = c.lateness?.p99Micros, floor > 0 { ratio = ours / floor }
        return Rate(rateHz: rate, pinnedCPU: cpu, motionlog: swift, cost: cost,
                    cFloor: ctx.baselines.tickLoop == nil ? nil : c, p99Ratio: ratio, threads: threads)
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
            result.value.store((try? ThreadScheduling.setFIFO(priority: 50)) != nil, ordering: .relaxed)
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
