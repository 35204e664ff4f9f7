import ArgumentParser

/// `motionlog-bench`: the benchmarks of issue 7 (`make bench`). `run` (the default) measures
/// every figure next to its baseline and writes a table and JSON; the other subcommands are
/// the probes `run` starts as child processes.
struct MotionLogBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "motionlog-bench",
        abstract: "Benchmarks of motionlog's scheduler, writer, per-tick cost, memory, storage stalls, summary and web page.",
        subcommands: [RunCommand.self, SchedulerProbeCommand.self, TickLoopCommand.self, StallProbeCommand.self],
        defaultSubcommand: RunCommand.self)
}
