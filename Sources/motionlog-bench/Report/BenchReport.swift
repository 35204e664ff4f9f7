/// Everything one `make bench` run measured: the JSON written to `bench/results.json`.
struct BenchReport: Codable, Sendable {
    var tool = "motionlog-bench"
    var mode: String
    var started: String
    var finished: String?
    var machine: MachineInfo
    var plan: BenchPlan
    /// What computes the `D` rows in these runs.
    var deviceMotionEstimator: String
    var scheduler: SchedulerFigure.Result?
    var format: FormatFigure.Result?
    var tickCost: TickCostFigure.Result?
    var memory: MemoryFigure.Result?
    var stalls: StallFigure.Result?
    var summary: SummaryFigure.Result?
    var web: WebFigure.Result?
    var targets: [TargetCheck] = []
    /// Figures that could not be measured, with the reason.
    var unavailable: [String: String] = [:]
}

/// One of issue 7's targets, the measured value, and whether it was met.
struct TargetCheck: Codable, Sendable {
    var figure: String
    var target: String
    var measured: String
    var met: Bool
}

extension BenchReport {
    /// Checks the targets against whatever figures ran.
    mutating func evaluateTargets() {
        var t: [TargetCheck] = []
        if let s = scheduler {
            for r in s.rates {
                if r.rateHz == 1000, let floor = r.cFloor {
                    // Zero is not honest on a shared machine: the C floor, which only sleeps,
                    // overruns too. The target is the floor's count in the same run, scaled
                    // to the same number of ticks.
                    let allowed = Double(floor.overruns) * Double(r.motionlog.ticks) / Double(max(1, floor.ticks))
                    t.append(TargetCheck(figure: "scheduler", target: "overruns at 1 kHz no more than the C floor's in the same run",
                                         measured: "\(r.motionlog.overruns) in \(r.motionlog.ticks) ticks vs the floor's \(floor.overruns) in \(floor.ticks)",
                                         met: Double(r.motionlog.overruns) <= allowed.rounded(.up)))
                }
                if let ratio = r.p99Ratio, let ours = r.motionlog.lateness, let floor = r.cFloor?.lateness {
                    t.append(TargetCheck(figure: "scheduler",
                                         target: "p99 lateness at \(r.rateHz) Hz at most 1.5× the C floor",
                                         measured: "\(Fmt.f(ours.p99Micros, 1)) µs vs \(Fmt.f(floor.p99Micros, 1)) µs = \(Fmt.f(ratio, 2))×",
                                         met: ratio <= 1.5))
                }
            }
        }
        if let f = format {
            for (name, d) in [("/dev/null", f.devNull), ("a file", f.file)] {
                if let ratio = d.ratioToC, let c = d.c {
                    t.append(TargetCheck(figure: "format", target: "rows/s into \(name) at least 5× the C snprintf writer",
                                         measured: "\(Fmt.rate(d.motionlog.rowsPerSecond)) vs \(Fmt.rate(c.rowsPerSecond)) = \(Fmt.f(ratio, 2))×",
                                         met: ratio >= 5))
                }
            }
        }
        if let c = tickCost?.callgrind {
            t.append(TargetCheck(figure: "cost", target: "at most 15 000 instructions per tick, simulator board, all sources, fusion included",
                                 measured: "\(Int(c.instructionsPerTick.rounded())) (with Double.description: \(c.descriptionInstructionsPerTick.map { String(Int($0.rounded())) } ?? "not measured"))",
                                 met: c.instructionsPerTick <= 15_000))
        }
        if let m = memory, let growth = m.growthKB, let last = m.runs.last, let first = m.runs.first {
            t.append(TargetCheck(figure: "memory", target: "flat: peak RSS grows less than 1 MB from \(Int(first.recordingSeconds)) s to \(Int(last.recordingSeconds)) s",
                                 measured: "\(growth) KiB", met: growth < 1024))
            let peak = m.runs.map(\.peakRSSKB).max() ?? 0
            t.append(TargetCheck(figure: "memory", target: "peak RSS under 50 MB",
                                 measured: "\(Fmt.f(Double(peak) / 1024, 1)) MiB", met: peak < 50 * 1024))
        }
        if let s = summary, let ours = s.sides.first(where: { $0.who == "motionlog summary" }) {
            if let share = s.shareOfWC {
                t.append(TargetCheck(figure: "summary", target: "at least a quarter of wc -l's throughput",
                                     measured: "\(Fmt.f(share * 100, 0)) % (\(Fmt.f(ours.megabytesPerSecond, 0)) MB/s)", met: share >= 0.25))
            }
            if let peak = ours.peakRSSKB {
                t.append(TargetCheck(figure: "summary", target: "peak RSS under 50 MB",
                                     measured: "\(Fmt.f(Double(peak) / 1024, 1)) MiB", met: peak < 50 * 1024))
            }
        }
        if let s = stalls, let worst = s.motionlog.max(by: { $0.stallSeconds < $1.stallSeconds }) {
            // Dropped rows are the buffers' doing; missed ticks (scheduler overruns) are
            // reported beside them but belong to figure 1.
            t.append(TargetCheck(figure: "stalls", target: "no rows dropped with default buffers at a \(Fmt.f(worst.stallSeconds, 1)) s stall",
                                 measured: "\(worst.droppedRows) dropped (\(worst.stallsInjected) stalls; \(worst.missedTicks) ticks missed to scheduler overruns)",
                                 met: worst.droppedRows == 0 && worst.stallsInjected > 0))
        }
        if let w = web {
            if let ratio = w.serveToNginx, let ours = w.downloads.first(where: { $0.who == "motionlog serve" }),
               let nginx = w.downloads.first(where: { $0.who.hasPrefix("nginx") }) {
                t.append(TargetCheck(figure: "web", target: "download of a \(Fmt.f(Double(w.bytes) / 1e6, 0)) MB recording at least 0.8× nginx's throughput, same run",
                                     measured: "\(Fmt.f(ours.megabytesPerSecond, 0)) vs \(Fmt.f(nginx.megabytesPerSecond, 0)) MB/s = \(Fmt.f(ratio, 2))×",
                                     met: ratio >= 0.8))
            }
            for l in w.lists {
                t.append(TargetCheck(figure: "web", target: "GET \(l.path) of \(w.listRecordings) recordings under 200 ms (median of warm requests)",
                                     measured: "\(Fmt.f(l.warmMedianSeconds * 1000, 1)) ms warm, first request \(Fmt.f(l.firstSeconds * 1000, 0)) ms",
                                     met: l.warmMedianSeconds < 0.2))
            }
            if let alone = w.sampler.first(where: { !$0.withDownload }),
               let with = w.sampler.first(where: { $0.server == "motionlog serve" }) {
                // Scaled to the same number of ticks, as the scheduler figure compares with its floor.
                let allowed = Double(alone.overruns) * Double(with.ticks) / Double(max(1, alone.ticks))
                let downloads = with.downloads ?? 0
                t.append(TargetCheck(figure: "web", target: "overruns at 1 kHz with a download from serve running no more than without, same run",
                                     measured: "\(with.overruns) in \(with.ticks) ticks during \(downloads) downloads vs \(alone.overruns) in \(alone.ticks) alone"
                                         + (w.sampler.first(where: { $0.server == "nginx" }).map { " (during nginx downloads: \($0.overruns) in \($0.ticks))" } ?? ""),
                                     met: downloads > 0 && Double(with.overruns) <= allowed.rounded(.up)))
            }
        }
        targets = t
    }
}
