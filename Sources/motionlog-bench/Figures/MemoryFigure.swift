import Foundation

/// Figure 4: peak resident memory of the real `motionlog record --board simulator --fast
/// --rate 1000` for a short and a long recording, measured by bench/tools/peak_rss.c
/// (fork + exec + wait4, so the figure is motionlog's alone). Flat means the long recording
/// peaks no higher than the short one (growth under 1 MB).
enum MemoryFigure {
    struct Run: Codable, Sendable {
        var recordingSeconds: Double
        /// The larger of the kernel's ru_maxrss and the highest VmRSS sampled every 20 ms.
        var peakRSSKB: Int
        /// Highest anonymous (heap, buffers) and file-backed (mapped libraries) RSS sampled.
        var peakAnonKB: Int
        var peakFileKB: Int
        var wallSeconds: Double
        var cpuSeconds: Double
        var bytesWritten: Int64
        /// motionlog's own summary (rows per source, dropped rows, ...).
        var summary: [String]
    }

    struct Result: Codable, Sendable {
        var command: String
        var runs: [Run]
        /// Peak of the longest run minus peak of the shortest, KiB (total and anonymous).
        var growthKB: Int?
        var anonGrowthKB: Int?
    }

    struct PeakRSSOutput: Codable {
        var maxRSSKB: Int
        var sampledMaxRSSKB: Int
        var sampledMaxAnonKB: Int
        var sampledMaxFileKB: Int
        var samples: Int
    }

    static func run(_ ctx: BenchContext) throws(BenchError) -> Result {
        guard let motionlog = ctx.motionlogPath else {
            throw BenchError("the motionlog executable was not found next to motionlog-bench: build it (swift build -c release) or pass --motionlog PATH")
        }
        guard let launcher = ctx.baselines.peakRSS else {
            throw BenchError(ctx.baselines.problems["peak_rss"] ?? "bench/tools/peak_rss.c was not built")
        }
        var runs: [Run] = []
        var shown = ""
        for seconds in ctx.plan.memoryDurations {
            let out = try ctx.folder("memory-\(Int(seconds))")
            let resultFile = ctx.work + "/peak-rss.json"
            let args = ["record", "--board", "simulator", "--boards-dir", ctx.repo + "/boards", "--fast",
                        "--duration", "\(Int(seconds))", "--rate", "1000", "--out", out, "--quiet"]
            shown = "motionlog " + args.map { $0.hasPrefix("/") ? "<\(URL(fileURLWithPath: $0).lastPathComponent)>" : $0 }
                .joined(separator: " ")
            ctx.progress("memory: motionlog record --fast, \(Int(seconds)) s at 1 kHz")
            let r = try ChildProcess.run(launcher, [resultFile, motionlog] + args, scratch: ctx.work)
            guard r.succeeded else { throw BenchError(r.failure) }
            guard let data = FileManager.default.contents(atPath: resultFile),
                  let peak = try? JSONDecoder().decode(PeakRSSOutput.self, from: data) else {
                throw BenchError("peak_rss wrote no readable result to \(resultFile)")
            }
            let bytes = FormatFigure.fileBytes(out)
            ctx.remove(out)
            runs.append(Run(recordingSeconds: seconds, peakRSSKB: max(peak.maxRSSKB, peak.sampledMaxRSSKB),
                            peakAnonKB: peak.sampledMaxAnonKB, peakFileKB: peak.sampledMaxFileKB,
                            wallSeconds: r.wallSeconds, cpuSeconds: r.userSeconds + r.systemSeconds,
                            bytesWritten: Int64(bytes),
                            summary: r.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                                .filter { !$0.hasPrefix(out) }.map { $0.replacingOccurrences(of: out, with: "<out>") }))
        }
        let growth = runs.count >= 2 ? runs[runs.count - 1].peakRSSKB - runs[0].peakRSSKB : nil
        let anon = runs.count >= 2 ? runs[runs.count - 1].peakAnonKB - runs[0].peakAnonKB : nil
        return Result(command: shown, runs: runs, growthKB: growth, anonGrowthKB: anon)
    }
}
