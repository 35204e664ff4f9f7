import Foundation

/// Figure 4: peak resident memory of the real `motionlog record --board simulator --fast
/// --rate 1000` as a child process (ru_maxrss from wait4), for a short and a long recording.
/// Flat means the long one peaks no higher than the short one (growth under 1 MB).
enum MemoryFigure {
    struct Run: Codable, Sendable {
        var recordingSeconds: Double
        var peakRSSKB: Int
        var wallSeconds: Double
        var cpuSeconds: Double
        var bytesWritten: Int64
        /// motionlog's own summary (rows per source, dropped rows, ...).
        var summary: [String]
    }

    struct Result: Codable, Sendable {
        var command: String
        var runs: [Run]
        /// Peak of the longest run minus peak of the shortest, KiB.
        var growthKB: Int?
    }

    static func run(_ ctx: BenchContext) throws(BenchError) -> Result {
        guard let motionlog = ctx.motionlogPath else {
            throw BenchError("the motionlog executable was not found next to motionlog-bench: build it (swift build -c release) or pass --motionlog PATH")
        }
        var runs: [Run] = []
        var shown = ""
        for seconds in ctx.plan.memoryDurations {
            let out = try ctx.folder("memory-\(Int(seconds))")
            let args = ["record", "--board", "simulator", "--boards-dir", ctx.repo + "/boards", "--fast",
                        "--duration", "\(Int(seconds))", "--rate", "1000", "--out", out, "--quiet"]
            shown = "motionlog " + args.map { $0.hasPrefix("/") ? "<\(URL(fileURLWithPath: $0).lastPathComponent)>" : $0 }
                .joined(separator: " ")
            ctx.progress("memory: motionlog record --fast, \(Int(seconds)) s at 1 kHz")
            let r = try ChildProcess.run(motionlog, args, scratch: ctx.work)
            guard r.succeeded else { throw BenchError(r.failure) }
            let bytes = FormatFigure.fileBytes(out)
            ctx.remove(out)
            runs.append(Run(recordingSeconds: seconds, peakRSSKB: r.maxRSSKB, wallSeconds: r.wallSeconds,
                            cpuSeconds: r.userSeconds + r.systemSeconds, bytesWritten: Int64(bytes),
                            summary: r.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                                .filter { !$0.hasPrefix(out) && !$0.hasPrefix("/") }))
        }
        let growth = runs.count >= 2 ? runs[runs.count - 1].peakRSSKB - runs[0].peakRSSKB : nil
        return Result(command: shown, runs: runs, growthKB: growth)
    }
}
