import Logging
import MotionCore

extension GPSTimeBase {
    /// The time base for a recording on the real clock with a GPS time source (the gpsd
    /// client): asks the kernel whether the system clock is synchronised and logs once if
    /// not (When and file names then wait for GPS time, docs/GPS.md). Nil otherwise — the
    /// simulated clock, or no GPS time source — and the recorder behaves as without GPS time.
    /// Used by `record` and by the daemon's recording sessions alike.
    public static func forRecording(location: LocationSource?, realClock: Bool, log: Logger) -> GPSTimeBase? {
        guard realClock, location is GPSTimeSource else { return nil }
        let status = SystemClockStatus.current()
        let prefix = BootID.provisionalPrefix
        if !status.synchronised {
            log.warning("system clock not synchronised (\(status.detail)): When is anchored to GPS time once known; files are named \(prefix)-<seconds since boot> until then")
        }
        return GPSTimeBase(systemClockSynchronised: status.synchronised, detail: status.detail, provisionalPrefix: prefix)
    }
}
