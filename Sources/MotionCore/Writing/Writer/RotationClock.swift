/// When the writer starts its next file: on time boundaries first + n·interval (counted
/// from the recording's first sample, so files are equally long even across gaps) and
/// before a tick would take the file past the size limit.
///
/// Time here is the samples' true time (`RecordingFileNamer.epoch`), not their When: a
/// logger that booted without network steps When forward once GPS time is known (by hours,
/// or years), and counted on When that step ended the file at once — a `--rotate-time 10m`
/// file cut after the 40 s it took to the first fix. Rows from before the step get the
/// correction, so the interval is counted across it as the time that passed.
struct RotationClock {
    let policy: RotationPolicy
    /// The When of the recording's first tick; its true time is asked for again at each
    /// check, because the correction for it may become known only later.
    private var recordingFirstWhen: Double?
    /// The next boundary, as intervals after the first tick.
    private var nextBoundary = 1.0

    init(policy: RotationPolicy) { self.policy = policy }

    /// Notes the recording's first tick (later calls do nothing).
    mutating func start(at when: Double) {
        guard recordingFirstWhen == nil else { return }
        recordingFirstWhen = when
    }

    /// Intervals from the first tick to the tick at `when`, in true time (`epoch`).
    private func intervals(to when: Double, _ epoch: (Double) -> Double) -> Double? {
        guard let s = policy.maxSeconds, s > 0, let first = recordingFirstWhen else { return nil }
        return (epoch(when) - epoch(first) + 1e-6) / s
    }

    /// The tick at `when` belongs in a new file by time.
    func isTimeBoundary(_ when: Double, _ epoch: (Double) -> Double) -> Bool {
        guard let n = intervals(to: when, epoch) else { return false }
        return n >= nextBoundary
    }

    /// Adding `bytes` to a file of `fileBytes` would pass the size limit.
    func wouldOverflow(fileBytes: Int64, adding bytes: Int) -> Bool {
        guard let limit = policy.maxBytes else { return false }
        return fileBytes + Int64(bytes) > limit
    }

    /// Moves the next boundary past `when`. Arithmetic, not a loop: a gap may span many
    /// intervals.
    mutating func advance(past when: Double, _ epoch: (Double) -> Double) {
        guard let n = intervals(to: when, epoch), n >= nextBoundary else { return }
        nextBoundary = n.rounded(.down) + 1
    }
}
