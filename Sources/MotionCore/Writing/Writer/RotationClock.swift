/// When the writer starts its next file: on time boundaries first + n·interval (counted
/// from the recording's first sample, so files are equally long even across gaps) and
/// before a tick would take the file past the size limit.
struct RotationClock {
    let policy: RotationPolicy
    private var recordingFirstWhen: Double?
    private var nextBoundary: Double?

    init(policy: RotationPolicy) { self.policy = policy }

    /// Notes the recording's first tick (later calls do nothing).
    mutating func start(at when: Double) {
        guard recordingFirstWhen == nil else { return }
        recordingFirstWhen = when
        if let s = policy.maxSeconds { nextBoundary = when + s }
    }

    /// The tick at `when` belongs in a new file by time.
    func isTimeBoundary(_ when: Double) -> Bool {
        guard let b = nextBoundary else { return false }
        return when >= b - 1e-6
    }

    /// Adding `bytes` to a file of `fileBytes` would pass the size limit.
    func wouldOverflow(fileBytes: Int64, adding bytes: Int) -> Bool {
        guard let limit = policy.maxBytes else { return false }
        return fileBytes + Int64(bytes) > limit
    }

    /// Moves the next boundary past `when`. Arithmetic, not a loop: When may have stepped
    /// forward by years (GPS time).
    mutating func advance(past when: Double) {
        guard let s = policy.maxSeconds, let first = recordingFirstWhen, var b = nextBoundary,
              when >= b - 1e-6 else { return }
        let n = ((when - first + 1e-6) / s).rounded(.down) + 1
        b = first + n * s
        if when >= b - 1e-6 { b += s }
        nextBoundary = b
    }
}
