/// Something worth one log line: the start and end of a gap, a magnetometer stall.
/// The driver reports each episode once (at its start and at its end), never per sample.
public enum IMUEvent: Sendable, Equatable, CustomStringConvertible {
    /// Accelerometer/gyroscope samples stopped at `elapsed` seconds.
    case gapStarted(elapsed: Double, reason: String)
    /// Samples flow again; `gapTicks` ticks had none. `reinitialized` when the chip was set up anew.
    case gapEnded(elapsed: Double, gapTicks: Int, reinitialized: Bool)
    /// The magnetometer stopped delivering; it will be restarted with backoff.
    case magnetometerStalled(elapsed: Double, reason: String)
    /// The magnetometer delivers again after `seconds` without a sample.
    case magnetometerResumed(elapsed: Double, seconds: Double)

    public var description: String {
        func t(_ s: Double) -> String { String((s * 1000).rounded() / 1000) }
        func clause(_ r: String) -> String { r.hasSuffix(".") ? String(r.dropLast()) : r }
        switch self {
        case .gapStarted(let e, let reason):
            return "IMU samples stopped at t=\(t(e)) s: \(clause(reason)); retrying, re-initialising with backoff if it persists"
        case .gapEnded(let e, let n, let re):
            return "IMU samples resumed at t=\(t(e)) s after a gap of \(n) tick\(n == 1 ? "" : "s")" + (re ? " (chip re-initialised)" : "")
        case .magnetometerStalled(let e, let reason):
            return "magnetometer stalled at t=\(t(e)) s: \(clause(reason)); restarting it with backoff (accelerometer and gyroscope go on)"
        case .magnetometerResumed(let e, let s):
            return "magnetometer resumed at t=\(t(e)) s after \(t(s)) s without data"
        }
    }
}
