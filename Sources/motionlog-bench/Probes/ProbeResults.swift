/// What `scheduler-probe` prints: one real-clock recording of all sources through the real
/// recorder, with the lateness of every tick taken written to a samples file.
struct SchedulerProbeResult: Codable, Sendable {
    var rateHz: Int
    var ticks: Int64
    var overruns: Int64
    var missedTicks: Int64
    var samples: Int
    /// Scheduling policy of the sampling thread at its first tick.
    var samplingPolicy: String
    /// All threads of the probe half a second into the run.
    var threads: [ThreadCensus.Entry]
    /// CPU time from the first tick to the end of `run()`, and the rows it moved.
    var cost: PipelineCost
}

/// What the recorder spent and moved in a run: CPU time of the sampling thread and of the
/// whole process from the first tick on, wall time, rows. Segments add up.
struct PipelineCost: Codable, Sendable {
    var samplingThreadCPUSeconds: Double = 0
    var processCPUSeconds: Double = 0
    var wallSeconds: Double = 0
    var rowsProduced: Int64 = 0
    var rowsWritten: Int64 = 0
    var droppedRows: Int64 = 0

    mutating func add(_ other: PipelineCost) {
        samplingThreadCPUSeconds += other.samplingThreadCPUSeconds
        processCPUSeconds += other.processCPUSeconds
        wallSeconds += other.wallSeconds
        rowsProduced += other.rowsProduced
        rowsWritten += other.rowsWritten
        droppedRows += other.droppedRows
    }
}

/// What `tick-loop` prints: N ticks of the full pipeline on the simulated clock into /dev/null.
struct TickLoopResult: Codable, Sendable {
    var ticks: Int64
    var rowsWritten: Int64
    var droppedRows: Int64
    var processCPUSeconds: Double
    var wallSeconds: Double
}

/// What `stall-probe` prints: one real-clock run against a stalling sink.
struct StallProbeResult: Codable, Sendable {
    /// `recorder` (motionlog's pipeline) or `inline` (writes on the sampling thread).
    var mode: String
    var stallSeconds: Double
    var stallsInjected: Int
    var longestWriteMs: Double
    var bufferRows: Int?
    var ticks: Int64
    var overruns: Int64
    var missedTicks: Int64
    var rowsProduced: Int64
    var rowsWritten: Int64
    var droppedRows: Int64
    /// Rows that never existed because their ticks were missed (inline mode), estimated as
    /// missed ticks × rows per tick taken.
    var rowsMissedWithTicks: Int64
    var peakBufferRows: Int?
    var rssBeforeKB: Int?
    var peakRSSKB: Int?
    var samplingPolicy: String
}
