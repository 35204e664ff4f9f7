/// The human-readable table `make bench` prints at the end.
enum ReportTable {
    static func render(_ r: BenchReport) -> String {
        var out: [String] = []
        let m = r.machine
        out.append("motionlog benchmarks (\(r.mode)) — \(m.processors) × \(m.cpuModel), \(m.kernel)")
        out.append("load average at start \(m.loadAverageAtStart.map { Fmt.f($0, 2) }.joined(separator: " "))"
                   + (m.loadAverageAtEnd.map { ", at end " + $0.map { Fmt.f($0, 2) }.joined(separator: " ") } ?? ""))
        out.append("D rows: \(r.deviceMotionEstimator)")
        if let s = r.scheduler {
            out.append("")
            out.append("1. Scheduler: wake-up lateness, µs (\(Fmt.f(s.secondsPerSide, 0)) s per side per rate, \(s.segments) alternating segments)")
            out.append(row(["rate", "who", "policy", "p50", "p99", "p99.9", "max", "overruns", "p99 ratio"]))
            for rate in s.rates {
                out.append(side("\(rate.rateHz) Hz", "motionlog", rate.motionlog, Fmt.opt(rate.p99Ratio, 2) + "×"))
                if let c = rate.cFloor { out.append(side("", "C floor", c, "")) }
            }
            for rate in s.oneCPU {
                out.append(side("\(rate.rateHz) Hz 1 CPU", "motionlog", rate.motionlog, Fmt.opt(rate.p99Ratio, 2) + "×"))
                if let c = rate.cFloor { out.append(side("", "C floor", c, "")) }
            }
            if !s.oneCPU.isEmpty {
                out.append("  (1 CPU: both pinned with taskset to one CPU for \(Fmt.f(s.oneCPUSecondsPerSide, 0)) s per side, as on a single-core board)")
            }
            if let why = s.cFloorUnavailable { out.append("  C floor unavailable: \(why)") }
            if let why = s.oneCPUUnavailable { out.append("  1 CPU variant unavailable: \(why)") }
        }
        if let f = r.format {
            out.append("")
            out.append("2. Format and write: rows/s, \(f.rows) rows (\(f.rowsBySource.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))), median of rounds")
            out.append(row(["into", "motionlog", "C %.17g", "Python csv", "÷ C", "÷ Python"]))
            for (name, d) in [("/dev/null", f.devNull), ("file", f.file)] {
                out.append(row([name, Fmt.rate(d.motionlog.rowsPerSecond), d.c.map { Fmt.rate($0.rowsPerSecond) } ?? "—",
                                d.python.map { Fmt.rate($0.rowsPerSecond) } ?? "—",
                                Fmt.opt(d.ratioToC, 2) + "×", Fmt.opt(d.ratioToPython, 1) + "×"]))
            }
            out.append("  encoding alone: \(Fmt.rate(f.encodeOnly.rowsPerSecond)) (with Double.description: \(f.encodeDescription.map { Fmt.rate($0.rowsPerSecond) } ?? "—")); \(Fmt.f(f.bytesPerRow, 1)) bytes per row")
            if let c = f.formatterCheck {
                out.append("  formatter check: \(c.values) random bit patterns (seed \(c.seed)) against Double.description: \(c.mismatches) differ\(c.firstMismatch.map { " — first: \($0)" } ?? "")")
            }
            for (k, v) in f.unavailable.sorted(by: { $0.key < $1.key }) { out.append("  \(k) unavailable: \(v)") }
        }
        if let c = r.tickCost {
            out.append("")
            out.append("3. Cost per tick at 1 kHz (all sources, simulator sensors)")
            if let rc = c.realClock {
                out.append("  real clock: \(Fmt.f(rc.cpuMicrosPerTick, 2)) µs CPU per tick (sampling thread \(Fmt.f(rc.samplingThreadMicrosPerTick, 2)) µs), \(Fmt.f(rc.shareOfOneCore * 100, 2)) % of one core")
                if let floor = rc.floorCPUMicrosPerTick {
                    out.append("    of which sleeping and waking (the C floor's CPU per tick): \(Fmt.f(floor, 2)) µs")
                }
            }
            if let sc = c.simulatedClock {
                out.append("  simulated clock: \(Fmt.f(sc.cpuMicrosPerTick, 2)) µs CPU per tick (\(Fmt.f(sc.ticksPerSecond / 1000, 0)) k ticks/s)")
            }
            if let cg = c.callgrind {
                out.append("  callgrind: \(Fmt.f(cg.instructionsPerTick, 0)) instructions per tick with the simulated IMU, \(Fmt.f(cg.pipelineInstructionsPerTick, 0)) for the pipeline alone (replayed readings), \(Fmt.f(cg.mpu9250InstructionsPerTick, 0)) with the MPU-9250 driver on a fake chip; ticks \(cg.ticks.map(String.init).joined(separator: " vs "))")
                if let before = cg.descriptionInstructionsPerTick {
                    out.append("  before/after: \(Fmt.f(before, 0)) instructions per tick with Double.description, \(Fmt.f(cg.instructionsPerTick, 0)) with motionlog's formatter (same rows)")
                }
                if let a = cg.noFusionInstructionsPerTick, let b = cg.pipelineNoFusionInstructionsPerTick {
                    out.append("  without D rows (no fusion): \(Fmt.f(a, 0)) with the simulated IMU, \(Fmt.f(b, 0)) for the pipeline alone")
                }
            }
            for (k, v) in c.unavailable.sorted(by: { $0.key < $1.key }) { out.append("  \(k) unavailable: \(v)") }
        }
        if let mem = r.memory {
            out.append("")
            out.append("4. Memory: peak RSS of `motionlog record --fast --rate 1000`")
            for run in mem.runs {
                out.append("  \(Int(run.recordingSeconds)) s recording: \(mib(run.peakRSSKB)) peak (anonymous \(mib(run.peakAnonKB)), mapped files \(mib(run.peakFileKB))); \(Fmt.f(run.wallSeconds, 1)) s wall, \(Fmt.f(Double(run.bytesWritten) / 1e6, 0)) MB written")
            }
            if let g = mem.growthKB { out.append("  growth: \(g) KiB (anonymous \(mem.anonGrowthKB.map(String.init) ?? "—") KiB)") }
        }
        if let s = r.stalls {
            out.append("")
            out.append("5. Storage stalls at 1 kHz, all sources (\(s.schedule)); default buffers \(s.defaultBufferRows) rows × 2 = \(Fmt.f(Double(s.bufferBytes) / 1_048_576, 1)) MiB")
            out.append(row(["stall", "who", "buffer rows", "dropped", "missed ticks", "rows lost", "peak buffer", "RSS before→peak"]))
            for x in s.motionlog + s.smallerBuffers + s.inline {
                out.append(row(["\(Fmt.f(x.stallSeconds, 1)) s", x.mode == "inline" ? "inline (OpenLog-style)" : "motionlog",
                                x.bufferRows.map(String.init) ?? "—", "\(x.droppedRows)", "\(x.missedTicks)",
                                "\(x.droppedRows + x.rowsMissedWithTicks)", x.peakBufferRows.map(String.init) ?? "—",
                                "\(x.rssBeforeKB.map(mib) ?? "—")→\(x.peakRSSKB.map(mib) ?? "—")"]))
            }
        }
        if let s = r.summary {
            out.append("")
            out.append("6. Summary of a \(Int(s.recordingSeconds)) s recording at 1 kHz (\(Fmt.f(Double(s.bytes) / 1e6, 0)) MB\(s.lines.map { ", \($0) lines" } ?? ""))")
            out.append(row(["who", "wall", "CPU", "MB/s", "peak RSS"]))
            for x in s.sides {
                out.append(row([x.who, "\(Fmt.f(x.wallSeconds, 2)) s", "\(Fmt.f(x.cpuSeconds, 2)) s",
                                Fmt.f(x.megabytesPerSecond, 0), x.peakRSSKB.map(mib) ?? "—"]))
            }
            if let share = s.shareOfWC { out.append("  summary reads at \(Fmt.f(share * 100, 0)) % of wc -l's throughput") }
            for (k, v) in s.unavailable.sorted(by: { $0.key < $1.key }) { out.append("  \(k) unavailable: \(v)") }
        }
        if let w = r.web {
            out.append("")
            out.append("7. Web page (motionlog serve): download of a \(Int(w.recordingSeconds)) s recording at 1 kHz (\(Fmt.f(Double(w.bytes) / 1e6, 0)) MB), best of rounds, warm page cache")
            out.append(row(["who", "rounds (s)", "best", "MB/s", "CPU client", "CPU server"]))
            for d in w.downloads {
                out.append(row([d.who, d.roundsSeconds.map { Fmt.f($0, 3) }.joined(separator: " "),
                                "\(Fmt.f(d.bestSeconds, 3)) s", Fmt.f(d.megabytesPerSecond, 0),
                                "\(Fmt.f(d.clientCPUSeconds, 2)) s", d.serverCPUSeconds.map { "\(Fmt.f($0, 2)) s" } ?? "—"]))
            }
            if let n = w.serveToNginx { out.append("  serve ÷ nginx: \(Fmt.f(n, 2))×") }
            if let c = w.serveToCat { out.append("  serve ÷ cat: \(Fmt.f(c, 2))×") }
            out.append("  serve was idle \(w.serveSettleSeconds.map { Fmt.f($0, 0) + " s" } ?? "— (not within the limit)") after its start (background summary of the recording)")
            if let first = w.listInitialSeconds {
                out.append("  first listing of \(w.listRecordings) recordings (nothing read, no summaries): \(Fmt.f(first * 1000, 0)) ms; background summaries done after \(w.listSettleSeconds.map { Fmt.f($0, 0) + " s" } ?? "— (not within the limit)") (\(w.listSummaryFiles ?? 0) cached)")
            }
            for l in w.lists {
                out.append("  GET \(l.path), \(w.listRecordings) recordings (\(Fmt.f(Double(l.responseBytes) / 1e3, 0)) kB): first \(Fmt.f(l.firstSeconds * 1000, 1)) ms, warm median \(Fmt.f(l.warmMedianSeconds * 1000, 1)) ms (\(Fmt.f(l.warmMinSeconds * 1000, 1))–\(Fmt.f(l.warmMaxSeconds * 1000, 1)), \(l.warmRequests) requests)"
                         + (l.warmServerCPUSeconds.map { "; server CPU \(Fmt.f($0 * 1000, 0)) ms per warm request" } ?? ""))
            }
            for s in w.sampler {
                var line = "  record --rate 1000, \(Fmt.f(s.seconds, 0)) s \(s.server.map { "downloading from " + $0 } ?? "alone") (\(s.segments) segments): \(s.overruns) overruns (\(s.missedTicks) missed ticks) in \(s.ticks) ticks, \(s.droppedRows) rows dropped"
                if let n = s.downloads {
                    line += "; \(n) downloads\(s.downloadMegabytesPerSecond.map { " at \(Fmt.f($0, 0)) MB/s" } ?? "")"
                    if let f = s.downloadFailures, f > 0 { line += ", \(f) failed (\(s.downloadFailure ?? "?"))" }
                }
                out.append(line)
            }
            for (k, v) in w.unavailable.sorted(by: { $0.key < $1.key }) { out.append("  \(k) unavailable: \(v)") }
        }
        if !r.targets.isEmpty {
            out.append("")
            out.append("Targets")
            for t in r.targets { out.append("  [\(t.met ? "met" : "NOT met")] \(t.figure): \(t.target) — \(t.measured)") }
        }
        for (k, v) in r.unavailable.sorted(by: { $0.key < $1.key }) { out.append("\(k): not measured — \(v)") }
        return out.joined(separator: "\n")
    }

    private static func mib(_ kb: Int) -> String { "\(Fmt.f(Double(kb) / 1024, 1)) MiB" }

    private static func side(_ rate: String, _ who: String, _ s: SchedulerFigure.Side, _ ratio: String) -> String {
        let l = s.lateness
        return row([rate, who, s.policy, Fmt.opt(l?.p50Micros, 1), Fmt.opt(l?.p99Micros, 1), Fmt.opt(l?.p999Micros, 1),
                    Fmt.opt(l?.maxMicros, 1), "\(s.overruns)", ratio])
    }

    private static func row(_ cells: [String]) -> String {
        "  " + cells.enumerated().map { i, c in
            let width = i == 0 ? 15 : i == 1 ? 24 : 12
            return c.count >= width ? c + " " : c + String(repeating: " ", count: width - c.count)
        }.joined()
    }
}
