import Foundation

/// Figure 3: what a tick costs at 1 kHz with the simulator's sensors.
/// - real clock: CPU time per tick and share of one core, from the scheduler figure's
///   1 kHz motionlog runs (whole process, and the sampling thread alone);
/// - simulated clock: CPU per tick with no sleeping (`tick-loop`, into /dev/null);
/// - callgrind: instructions per tick, (total(N2) − total(N1)) / (N2 − N1), which removes
///   start-up and is the same on any x86-64 machine whatever its load.
enum TickCostFigure {
    struct RealClock: Codable, Sendable {
        var rateHz: Int
        var ticks: Int64
        var cpuMicrosPerTick: Double
        var samplingThreadMicrosPerTick: Double
        /// Process CPU ÷ wall time: 0.05 is 5 % of one core.
        var shareOfOneCore: Double
        /// The C floor's CPU per tick at the same rate: what sleeping and waking alone cost.
        var floorCPUMicrosPerTick: Double?
    }

    struct Simulated: Codable, Sendable {
        var ticks: Int64
        var cpuMicrosPerTick: Double
        var ticksPerSecond: Double
    }

    struct Callgrind: Codable, Sendable {
        var ticks: [Int]
        /// Totals with the simulated IMU, with replayed readings, and with the MPU-9250 driver.
        var instructions: [Int64]
        var replayInstructions: [Int64]
        var mpu9250Instructions: [Int64]
        /// Everything per tick with the simulator board's IMU, its physics included.
        var instructionsPerTick: Double
        /// The pipeline alone (rows, estimator, queue, encoding, writing, GPS poll).
        var pipelineInstructionsPerTick: Double
        /// The MPU-9250 driver reading a register-level fake over a fake I2C bus (the fake's
        /// physics and register encoding included).
        var mpu9250InstructionsPerTick: Double
        /// The same as `instructionsPerTick` with the number text made by `Double.description`
        /// (what the recorder did before its own formatter): before and after in one run.
        var descriptionInstructionsPerTick: Double?
        /// Simulator board without D rows (no fusion filter), and the pipeline alone without them.
        var noFusionInstructionsPerTick: Double?
        var pipelineNoFusionInstructionsPerTick: Double?
    }

    struct Result: Codable, Sendable {
        var realClock: RealClock?
        var simulatedClock: Simulated?
        var callgrind: Callgrind?
        var unavailable: [String: String]
    }

    static func run(_ ctx: BenchContext, scheduler: SchedulerFigure.Result?) -> Result {
        var result = Result(unavailable: [:])
        if let r = scheduler?.rates.first(where: { $0.rateHz == 1000 }), r.motionlog.ticks > 0 {
            let t = Double(r.motionlog.ticks)
            result.realClock = RealClock(rateHz: 1000, ticks: r.motionlog.ticks,
                                         cpuMicrosPerTick: r.cost.processCPUSeconds / t * 1e6,
                                         samplingThreadMicrosPerTick: r.cost.samplingThreadCPUSeconds / t * 1e6,
                                         shareOfOneCore: r.cost.processCPUSeconds / max(r.cost.wallSeconds, 1e-9),
                                         floorCPUMicrosPerTick: r.cFloor.flatMap { c in
                                             c.cpuSeconds.map { $0 / Double(max(1, c.ticks)) * 1e6 } })
        } else {
            result.unavailable["realClock"] = "taken from the scheduler figure's 1 kHz runs, which did not run"
        }
        do {
            ctx.progress("cost: \(ctx.plan.simulatedTicks) ticks on the simulated clock")
            let (out, _) = try ChildProcess.runJSON(TickLoopResult.self, ctx.selfPath,
                                                    ["tick-loop", "--ticks", "\(ctx.plan.simulatedTicks)"], scratch: ctx.work)
            let t = Double(max(1, out.ticks))
            result.simulatedClock = Simulated(ticks: out.ticks, cpuMicrosPerTick: out.processCPUSeconds / t * 1e6,
                                              ticksPerSecond: t / max(out.wallSeconds, 1e-9))
        } catch {
            result.unavailable["simulatedClock"] = "\(error)"
        }
        do {
            result.callgrind = try callgrind(ctx)
        } catch {
            result.unavailable["callgrind"] = "\(error)"
        }
        return result
    }

    /// Valgrind 3.19 cannot read the DWARF 5 debug info Swift emits, so callgrind runs a
    /// copy of this program without debug info (`strip -g`); the instructions are the same.
    static func callgrind(_ ctx: BenchContext) throws(BenchError) -> Callgrind {
        let stripped = ctx.work + "/motionlog-bench-nodebug"
        let strip = try ChildProcess.run("strip", ["-g", "-o", stripped, ctx.selfPath], scratch: ctx.work)
        guard strip.succeeded else { throw BenchError("cannot make a copy without debug info: \(strip.failure) — install binutils") }
        var totals: [String: [Int64]] = [:]
        let variants: [(key: String, sensor: String, extra: [String])] = [
            ("simulated", "simulated", []), ("replay", "replay", []), ("mpu9250", "mpu9250", []),
            ("description", "simulated", ["--number-text", "description"]),
            ("noFusion", "simulated", ["--no-fusion"]), ("replayNoFusion", "replay", ["--no-fusion"]),
        ]
        for v in variants {
            for n in ctx.plan.callgrindTicks {
                totals[v.key, default: []].append(try instructions(ctx, program: stripped, sensor: v.sensor, ticks: n, extra: v.extra))
            }
        }
        ctx.remove(stripped)
        let n = ctx.plan.callgrindTicks
        guard n.count == 2, n[1] > n[0], let sim = totals["simulated"], let replay = totals["replay"],
              let chip = totals["mpu9250"], sim.count == 2, replay.count == 2, chip.count == 2 else {
            throw BenchError("callgrind needs two increasing tick counts")
        }
        func perTick(_ t: [Int64]) -> Double { Double(t[1] - t[0]) / Double(n[1] - n[0]) }
        func perTick(_ key: String) -> Double? { totals[key].flatMap { $0.count == 2 ? perTick($0) : nil } }
        return Callgrind(ticks: n, instructions: sim, replayInstructions: replay, mpu9250Instructions: chip,
                         instructionsPerTick: perTick(sim), pipelineInstructionsPerTick: perTick(replay),
                         mpu9250InstructionsPerTick: perTick(chip),
                         descriptionInstructionsPerTick: perTick("description"),
                         noFusionInstructionsPerTick: perTick("noFusion"),
                         pipelineNoFusionInstructionsPerTick: perTick("replayNoFusion"))
    }

    /// Total instructions callgrind counts for one `tick-loop` run.
    static func instructions(_ ctx: BenchContext, program: String, sensor: String, ticks: Int,
                             extra: [String] = []) throws(BenchError) -> Int64 {
        ctx.progress("cost: callgrind, \(ticks) ticks, \(sensor) sensor \(extra.joined(separator: " "))")
        let out = ctx.work + "/callgrind-\(ticks).out"
        defer { ctx.remove(out) }
        let r = try ChildProcess.run(ctx.valgrind, ["--tool=callgrind", "--callgrind-out-file=\(out)",
                                                    program, "tick-loop", "--ticks", "\(ticks)", "--sensor", sensor] + extra,
                                     scratch: ctx.work)
        guard r.succeeded else {
            throw BenchError("\(r.failure) — install valgrind (apt-get install valgrind) or pass --valgrind")
        }
        guard let text = try? String(contentsOfFile: out, encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("totals:") || $0.hasPrefix("summary:") }),
              let total = line.split(separator: " ").last.flatMap({ Int64($0) }) else {
            throw BenchError("callgrind wrote no instruction total to \(out)")
        }
        return total
    }
}
