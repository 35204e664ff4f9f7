import Foundation

/// The C baselines, compiled at bench time with `cc -O2` from bench/baselines/*.c, the
/// peak-memory launcher from bench/tools/peak_rss.c, and the Python baseline script.
/// A program that cannot be built is nil, with the reason in `problems`.
struct Baselines {
    var tickLoop: String?
    var csvWriter: String?
    var peakRSS: String?
    var pythonScript: String
    var problems: [String: String] = [:]

    static func build(repo: String, compiler: String, scratch: String) -> Baselines {
        let bin = repo + "/.build/bench-bin"
        try? FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        var b = Baselines(pythonScript: repo + "/bench/baselines/csv_writer.py")
        for (folder, name) in [("baselines", "tick_loop"), ("baselines", "csv_writer"), ("tools", "peak_rss")] {
            let out = bin + "/" + name
            let file = "bench/\(folder)/\(name).c"
            do {
                let r = try ChildProcess.run(compiler, ["-O2", "-Wall", "-o", out, repo + "/" + file], scratch: scratch)
                guard r.succeeded else { throw BenchError(r.failure) }
                switch name {
                case "tick_loop": b.tickLoop = out
                case "csv_writer": b.csvWriter = out
                default: b.peakRSS = out
                }
            } catch {
                b.problems[name] = "cannot compile \(file) with `\(compiler) -O2`: \(error) — install gcc (apt-get install gcc) or pass --cc"
            }
        }
        return b
    }
}
