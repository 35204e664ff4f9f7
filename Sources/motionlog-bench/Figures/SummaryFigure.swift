import Foundation

/// Figure 6: `motionlog summary` of a 1-hour recording at 1 kHz (all sources, about
/// 870 MB), side by side in one run with `wc -l` on the same file (the floor: reading and
/// counting lines) and pandas `read_csv` (what an owner would otherwise do). Wall time
/// and throughput are the best of three warm-cache runs (pandas: one run); peak RSS is
/// measured by bench/tools/peak_rss.c.
enum SummaryFigure {
    struct Side: Codable, Sendable {
        var who: String
        var command: String
        var wallSeconds: Double
        var cpuSeconds: Double
        var megabytesPerSecond: Double
        var peakRSSKB: Int?
    }

    struct Result: Codable, Sendable {
        var recordingSeconds: Double
        var bytes: Int64
        var lines: Int?
        var sides: [Side]
        /// summary's throughput as a share of wc -l's.
        var shareOfWC: Double?
        var unavailable: [String: String] = [:]
    }

    static func run(_ ctx: BenchContext) throws(BenchError) -> Result {
        guard let motionlog = ctx.motionlogPath else {
            throw BenchError("the motionlog executable was not found next to motionlog-bench: build it (swift build -c release) or pass --motionlog PATH")
        }
        let seconds = ctx.plan.quick ? 120.0 : 3600.0
        let out = try ctx.folder("summary")
        defer { ctx.remove(out) }
        ctx.progress("summary: recording \(Int(seconds)) s at 1 kHz on the simulator")
        let rec = try ChildProcess.run(motionlog, ["record", "--board", "simulator", "--boards-dir", ctx.repo + "/boards", "--fast",
                                                   "--duration", "\(Int(seconds))", "--rate", "1000", "--out", out, "--quiet"],
                                       scratch: ctx.work)
        guard rec.succeeded else { throw BenchError(rec.failure) }
        let csvs = ((try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []).filter { $0.hasSuffix(".csv") }.sorted()
            .map { out + "/" + $0 }
        guard !csvs.isEmpty else { throw BenchError("the recording wrote no CSV into \(out)") }
        let bytes = Int64(FormatFigure.fileBytes(out))
        var result = Result(recordingSeconds: seconds, bytes: bytes, lines: nil, sides: [])
        func mbps(_ wall: Double) -> Double { wall > 0 ? Double(bytes) / 1e6 / wall : 0 }

        // wc -l: warm the page cache once, then the best of three.
        _ = try? ChildProcess.run("wc", ["-l"] + csvs, scratch: ctx.work)
        var best: ChildResult?
        for _ in 0..<3 {
            let r = try ChildProcess.run("wc", ["-l"] + csvs, scratch: ctx.work)
            guard r.succeeded else { throw BenchError(r.failure) }
            if best == nil || r.wallSeconds < best!.wallSeconds { best = r }
        }
        if let wc = best {
            result.lines = wc.stdout.split(separator: "\n").last.flatMap { Int($0.split(separator: " ").first ?? "") }
            result.sides.append(Side(who: "wc -l", command: "wc -l <csv>", wallSeconds: wc.wallSeconds,
                                     cpuSeconds: wc.userSeconds + wc.systemSeconds, megabytesPerSecond: mbps(wc.wallSeconds)))
        }

        // motionlog summary: best of three, peak RSS through peak_rss.
        ctx.progress("summary: motionlog summary, 3 runs")
        let summaryArgs = ["summary", out, "--json"]
        var bestSummary: Side?
        for _ in 0..<3 {
            let side = try measured(ctx, who: "motionlog summary", program: motionlog, args: summaryArgs,
                                    shown: "motionlog summary <dir> --json", bytes: bytes)
            if bestSummary == nil || side.wallSeconds < bestSummary!.wallSeconds { bestSummary = side }
        }
        if let s = bestSummary { result.sides.append(s) }
        if let s = bestSummary, let wc = result.sides.first, wc.megabytesPerSecond > 0 {
            result.shareOfWC = s.megabytesPerSecond / wc.megabytesPerSecond
        }

        // pandas read_csv: one run (it is slow and needs gigabytes).
        ctx.progress("summary: pandas read_csv")
        let script = "import sys, pandas as pd\nn = 0\nfor p in sys.argv[1:]:\n    n += len(pd.read_csv(p, skipinitialspace=True, low_memory=False))\nprint(n)\n"
        do {
            // Debian's python3-pandas (make bench installs it) belongs to /usr/bin/python3.
            let python = FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") ? "/usr/bin/python3" : ctx.python
            let side = try measured(ctx, who: "pandas read_csv", program: python, args: ["-c", script] + csvs,
                                    shown: "python3 -c 'pd.read_csv(<csv>)'", bytes: bytes)
            result.sides.append(side)
        } catch {
            result.unavailable["pandas read_csv"] = "\(error) (install python3-pandas)"
        }
        return result
    }

    private static func measured(_ ctx: BenchContext, who: String, program: String, args: [String], shown: String,
                                 bytes: Int64) throws(BenchError) -> Side {
        let wall: Double, cpu: Double
        var peak: Int?
        if let launcher = ctx.baselines.peakRSS {
            let resultFile = ctx.work + "/summary-peak-rss.json"
            let r = try ChildProcess.run(launcher, [resultFile, program] + args, scratch: ctx.work)
            guard r.succeeded else { throw BenchError(r.failure) }
            if let data = FileManager.default.contents(atPath: resultFile),
               let p = try? JSONDecoder().decode(MemoryFigure.PeakRSSOutput.self, from: data) {
                peak = max(p.maxRSSKB, p.sampledMaxRSSKB)
            }
            wall = r.wallSeconds; cpu = r.userSeconds + r.systemSeconds
        } else {
            let r = try ChildProcess.run(program, args, scratch: ctx.work)
            guard r.succeeded else { throw BenchError(r.failure) }
            wall = r.wallSeconds; cpu = r.userSeconds + r.systemSeconds
        }
        return Side(who: who, command: shown, wallSeconds: wall, cpuSeconds: cpu,
                    megabytesPerSecond: wall > 0 ? Double(bytes) / 1e6 / wall : 0, peakRSSKB: peak)
    }
}
