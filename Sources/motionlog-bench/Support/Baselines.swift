import Foundation

/// The C baselines, compiled at bench time with `cc -O2` from bench/baselines/*.c, and the
/// Python baseline script. A baseline that cannot be built is nil, with the reason.
struct Baselines {
    var tickLoop: String?
    var csvWriter: String?
    var pythonScript: String
    var problems: [String: String] = [:]

    static func build(repo: String, compiler: String, scratch: String) -> Baselines {
        let source = repo + "/bench/baselines"
        let bin = repo + "/.build/bench-bin"
        try? FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        var b = Baselines(pythonScript: source + "/csv_writer.py")
        for name in ["tick_loop", "csv_writer"] {
            let out = bin + "/" + name
            do {
                let r = try ChildProcess.run(compiler, ["-O2", "-Wall", "-o", out, source + "/\(name).c"], scratch: scratch)
                guard r.succeeded else { throw BenchError(r.failure) }
                if name == "tick_loop" { b.tickLoop = out } else { b.csvWriter = out }
            } catch {
                b.problems[name] = "cannot compile bench/baselines/\(name).c with `\(compiler) -O2`: \(error) — install gcc (apt-get install gcc) or pass --cc"
            }
        }
        return b
    }
}
