import ArgumentParser
import Foundation
import MotionCore

/// `motionlog-bench run` (the default): measures the figures, prints the table, writes JSON.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Measure every figure next to its baseline; print a table and write JSON.",
        discussion: "The default durations are issue 7's (about 15 minutes). --quick shortens everything for development; its numbers are not the reference.")

    @Option(help: "Where to write the JSON results.") var json = "bench/results.json"
    @Flag(help: "Short durations for development.") var quick = false
    @Option(help: "Only these figures, comma-separated: scheduler,format,cost,memory,stalls,summary,web.") var only: String?
    @Option(help: "Repository root (default: the current folder, else the checkout this was built from).") var repo: String?
    @Option(help: "The motionlog executable (default: next to motionlog-bench).") var motionlog: String?
    @Option(help: "C compiler for the baselines.") var cc = "cc"
    @Option(help: "Python interpreter for the csv.writer baseline.") var python = "python3"
    @Option(help: "Valgrind, for instructions per tick.") var valgrind = "valgrind"

    static let figures = ["scheduler", "format", "cost", "memory", "stalls", "summary", "web"]

    func validate() throws {
        for f in selected where !Self.figures.contains(f) {
            throw ValidationError("--only: unknown figure \"\(f)\"; use \(Self.figures.joined(separator: ","))")
        }
    }

    var selected: [String] {
        only.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } } ?? Self.figures
    }

    func run() throws {
        let started = Date()
        let root = try BenchContext.locateRepo(explicit: repo)
        let work = root + "/.build/bench-work"
        try? FileManager.default.removeItem(atPath: work)
        do { try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true) } catch {
            throw BenchError("cannot create the scratch folder \(work): \(error)")
        }
        defer { try? FileManager.default.removeItem(atPath: work) }
        let selfPath = ChildProcess.selfExecutable
        let sibling = URL(fileURLWithPath: selfPath).deletingLastPathComponent().appendingPathComponent("motionlog").path
        let motionlogPath = motionlog ?? (FileManager.default.isExecutableFile(atPath: sibling) ? sibling : nil)
        let plan = quick ? BenchPlan.quickPlan : BenchPlan.full
        var ctx = BenchContext(plan: plan, repo: root, work: work, selfPath: selfPath, motionlogPath: motionlogPath,
                               python: python, valgrind: valgrind,
                               baselines: Baselines(pythonScript: root + "/bench/baselines/csv_writer.py"))
        var report = BenchReport(mode: quick ? "quick" : "full", started: TimeFormat.iso(started),
                                 machine: MachineInfo.current(), plan: plan,
                                 deviceMotionEstimator: BenchParts.estimatorName)
        ctx.progress("compiling the C baselines with \(cc) -O2")
        ctx.baselines = Baselines.build(repo: root, compiler: cc, scratch: work)
        for (name, problem) in ctx.baselines.problems.sorted(by: { $0.key < $1.key }) { ctx.progress("\(name): \(problem)") }

        let want = Set(selected)
        func attempt<T>(_ name: String, _ body: () throws(BenchError) -> T) -> T? {
            do { return try body() } catch {
                report.unavailable[name] = error.description
                ctx.progress("\(name): not measured — \(error)")
                return nil
            }
        }
        if want.contains("scheduler") { report.scheduler = attempt("scheduler") { () throws(BenchError) in try SchedulerFigure.run(ctx) } }
        if want.contains("stalls") { report.stalls = attempt("stalls") { () throws(BenchError) in try StallFigure.run(ctx) } }
        if want.contains("format") { report.format = attempt("format") { () throws(BenchError) in try FormatFigure.run(ctx) } }
        if want.contains("cost") { report.tickCost = TickCostFigure.run(ctx, scheduler: report.scheduler) }
        if want.contains("memory") { report.memory = attempt("memory") { () throws(BenchError) in try MemoryFigure.run(ctx) } }
        if want.contains("summary") { report.summary = attempt("summary") { () throws(BenchError) in try SummaryFigure.run(ctx) } }
        if want.contains("web") { report.web = attempt("web") { () throws(BenchError) in try WebFigure.run(ctx) } }

        report.machine.loadAverageAtEnd = MachineInfo.loadAverage()
        report.finished = TimeFormat.iso(Date())
        report.evaluateTargets()
        print(ReportTable.render(report))
        try write(report, to: json)
        print("\nJSON written to \(json) (\(Fmt.f(Date().timeIntervalSince(started) / 60, 1)) minutes)")
    }

    private func write(_ report: BenchReport, to path: String) throws(BenchError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        do {
            let data = try encoder.encode(report)
            let url = URL(fileURLWithPath: path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try (data + Data("\n".utf8)).write(to: url)
        } catch {
            throw BenchError("cannot write the results to \(path): \(error) — choose another path with --json")
        }
    }
}
