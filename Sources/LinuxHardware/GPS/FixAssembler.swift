import MotionCore

/// Turns gpsd's stream of TPV reports into one `LocationFix` per fix time.
///
/// gpsd often sends several TPVs for one fix time, one per sentence of the receiver's
/// cycle, each adding fields (RMC brings speed and track, GGA altitude, GSA the error
/// estimates). The assembler holds the fix of the newest time, merging every report for
/// that time (a field takes the latest finite value reported for it; the mode is the latest
/// report's), and releases it when
/// - a report with a newer fix time arrives,
/// - no report for it came for `holdOffNanos` (`expire`), or
/// - the recording stops (`flush`).
///
/// A report whose fix time is older than the held or last released one is dropped and
/// counted (`backwardsDropped`); one for a time already released after its hold-off is
/// dropped and counted separately (`lateDropped`), because When must strictly increase.
/// Reports without a fix (mode 0/1), without time or without a position give no fix.
///
/// Pure and single-threaded: the gpsd client calls it under its lock.
public struct FixAssembler: Sendable {
    /// What happened to one report (for logging and tests).
    public enum Outcome: Sendable, Equatable {
        /// Not a fix (no fix mode, no time or no position).
        case noFix
        /// The first report of a new fix time; the previous one (if any) was released.
        case newTime
        /// Another report for the held fix time, merged into it.
        case merged
        /// Older than the held or last released fix time: dropped.
        case droppedBackwards
        /// For a fix time released already (its hold-off had expired): dropped.
        case droppedLate
    }

    /// How long a fix waits for more reports of its time before it is released, ns.
    public let holdOffNanos: Int64
    public private(set) var backwardsDropped = 0
    public private(set) var lateDropped = 0
    /// Mode of the latest report (0 before any), and how often it changed.
    public private(set) var lastMode = 0
    public private(set) var modeChanges = 0

    private var held: Held?
    private var lastReleased: GPSFixTime?

    private struct Held: Sendable {
        var time: GPSFixTime
        var fix: LocationFix
        var lastUpdateNanos: Int64
    }

    /// Default hold-off: 1.2 s. A receiver's cycle of sentences for one fix time arrives
    /// within well under a second; at 1 Hz the next fix time normally releases the fix first.
    public static let defaultHoldOffNanos: Int64 = 1_200_000_000

    public init(holdOffNanos: Int64 = FixAssembler.defaultHoldOffNanos) {
        self.holdOffNanos = max(0, holdOffNanos)
    }

    /// The fix time currently held, if any.
    public var heldTime: GPSFixTime? { held?.time }

    /// Adds one report that arrived at monotonic `arrivalNanos`. Returns what happened to it
    /// and the fix it completed (the previously held one), if any.
    public mutating func add(_ report: TPVReport, arrivalNanos: Int64) -> (outcome: Outcome, released: LocationFix?) {
        if report.mode != lastMode {
            if lastMode != 0 { modeChanges += 1 }
            lastMode = report.mode
        }
        guard report.isFix, let time = report.time else { return (.noFix, nil) }
        var released: LocationFix?
        if var h = held {
            if time == h.time {
                Self.merge(report, into: &h.fix)
                h.lastUpdateNanos = arrivalNanos
                held = h
                return (.merged, nil)
            }
            if time < h.time {
                backwardsDropped += 1
                return (.droppedBackwards, nil)
            }
            released = release()
        } else if let last = lastReleased, time <= last {
            if time == last {
                lateDropped += 1
                return (.droppedLate, nil)
            }
            backwardsDropped += 1
            return (.droppedBackwards, nil)
        }
        var fix = LocationFix(when: time.epochSeconds, latitude: .nan, longitude: .nan, mode: report.mode)
        Self.merge(report, into: &fix)
        held = Held(time: time, fix: fix, lastUpdateNanos: arrivalNanos)
        return (.newTime, released)
    }

    /// Releases the held fix if no report for its time arrived within the hold-off.
    public mutating func expire(nowNanos: Int64) -> LocationFix? {
        guard let h = held, nowNanos - h.lastUpdateNanos >= holdOffNanos else { return nil }
        return release()
    }

    /// Releases the held fix now (at stop).
    public mutating func flush() -> LocationFix? {
        release()
    }

    private mutating func release() -> LocationFix? {
        guard let h = held else { return nil }
        held = nil
        lastReleased = h.time
        return h.fix
    }

    /// Copies every finite value of `report` that the format allows in its field
    /// (`CSVFormat.rangeProblem`: a negative speed or error estimate is none) into `fix`;
    /// the mode always follows the report. A gpsd sending speed −3 and eph −1 had the
    /// recorder write rows its own `check` called invalid.
    private static func merge(_ report: TPVReport, into fix: inout LocationFix) {
        func take(_ value: Double, _ field: inout Double, _ index: Int) {
            if value.isFinite && CSVFormat.rangeProblem(.location, index, value) == nil { field = value }
        }
        take(report.latitude, &fix.latitude, 3)
        take(report.longitude, &fix.longitude, 4)
        take(report.altitudeMSL, &fix.altitudeMSL, 5)
        take(report.speed, &fix.speed, 6)
        take(report.track, &fix.course, 7)
        take(report.climb, &fix.climb, 8)
        take(report.eph, &fix.eph, 9)
        take(report.epv, &fix.epv, 10)
        fix.mode = report.mode
    }
}
