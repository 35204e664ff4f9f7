/// Metadata whose numbers no recorder writes: a time past the year 9999, a negative or
/// astronomically large count, an infinite interval. Such a file was damaged or made by hand;
/// `RecordingMetadata.decode` refuses it as it refuses invalid JSON, so no reader feeds
/// `firstWhen = 1e19` to a calendar or adds `rows.L = 2^63 − 1` to another part's rows (both
/// trapped and ended the web page's process, and the daemon's recording with it).
public struct ImplausibleMetadata: Error, CustomStringConvertible {
    /// The field and its value, e.g. `file.firstWhen 1e+19`.
    public let what: String
    public var description: String { "metadata holds \(what), which no recorder writes" }
}

extension RecordingMetadata {
    /// The largest count a metadata file may hold: 2^50 rows is 35 000 years at 1 kHz, and
    /// 8 000 parts of such counts still add up within Int64.
    public static let maxCount: Int64 = 1 << 50

    /// The first implausible value, named; nil when every number is one a recorder writes.
    public var implausibility: String? {
        var check = PlausibilityCheck()
        let r = recording
        check.time("recording.startEpoch", r.startEpoch)
        check.count("recording.rateHz", r.rateHz)
        check.count("recording.bufferRows", r.bufferRows)
        check.count("recording.rotateBytes", r.rotateBytes)
        check.seconds("recording.rotateSeconds", r.rotateSeconds)
        check.seconds("recording.fsyncIntervalSeconds", r.fsyncIntervalSeconds)
        check.finite("recording.finalGyroBiasRadPerS", r.finalGyroBiasRadPerS ?? [])
        if let c = r.calibration {
            check.finite("recording.calibration", c.gyroBiasRadPerS + c.magHardIronMicrotesla + c.magSoftIron.flatMap { $0 }
                                                 + c.accelOffsetG + c.accelScale)
        }
        let f = file
        check.count("file.index", f.index)
        check.time("file.firstWhen", f.firstWhen)
        check.time("file.lastWhen", f.lastWhen)
        for (source, n) in f.rows.sorted(by: { $0.key < $1.key }) { check.count("file.rows.\(source)", n) }
        check.count("file.bytes", f.bytes)
        check.count("file.ticksWithoutRows", f.ticksWithoutRows)
        let c = counters
        for (name, n) in [("overruns", c.overruns), ("missedTicks", c.missedTicks), ("droppedRows", c.droppedRows),
                          ("rejectedFixes", c.rejectedFixes), ("rowsLostToWriteErrors", c.rowsLostToWriteErrors),
                          ("writeErrors", c.writeErrors), ("peakBufferRows", Int64(c.peakBufferRows)), ("fsyncs", c.fsyncs)] {
            check.count("counters.\(name)", n)
        }
        check.seconds("counters.peakBufferFill", c.peakBufferFill)
        check.seconds("counters.worstWriteLatencyMs", c.worstWriteLatencyMs)
        let s = c.sensorHealth
        for (name, n) in [("busErrors", s.busErrors), ("gapTicks", s.gapTicks), ("reinitializations", s.reinitializations),
                          ("magNotReady", s.magNotReady), ("magOverflow", s.magOverflow), ("magGapTicks", s.magGapTicks),
                          ("fusionNotReady", s.fusionNotReady)] {
            check.count("counters.sensorHealth.\(name)", n)
        }
        if let l = c.locationHealth {
            for (name, n) in [("backwardsFixes", l.backwardsFixes), ("disconnects", l.disconnects), ("lastMode", l.lastMode),
                              ("modeChanges", l.modeChanges)] {
                check.count("counters.locationHealth.\(name)", n)
            }
            check.count("counters.locationHealth.sessions", l.sessions)
            check.count("counters.locationHealth.failedAttempts", l.failedAttempts)
            check.count("counters.locationHealth.receivers", l.receivers)
        }
        if let t = c.time {
            check.time("counters.time.gpsMinusSystemSeconds", t.gpsMinusSystemSeconds)
            check.time("counters.time.correctionSeconds", t.correctionSeconds)
            check.time("counters.time.slewRemainingSeconds", t.slewRemainingSeconds)
            check.time("counters.time.firstStepSeconds", t.firstStepSeconds)
            check.time("counters.time.gpsDelaySpreadSeconds", t.gpsDelaySpreadSeconds)
            check.count("counters.time.steps", t.steps)
            check.time("counters.time.firstCorrectedWhen", t.firstCorrectedWhen)
        }
        return check.first
    }
}

/// Collects the first implausible value of a metadata document.
private struct PlausibilityCheck {
    var first: String?

    private mutating func note(_ name: String, _ value: String) { if first == nil { first = "\(name) \(value)" } }

    /// A When, an epoch or a time difference: finite and within the format's
    /// ±`CSVFormat.maxWhen` (the year 9999).
    mutating func time(_ name: String, _ v: Double?) {
        guard let v else { return }
        if !(v.isFinite && abs(v) <= CSVFormat.maxWhen) { note(name, "\(v)") }
    }

    /// A duration or a fraction: finite, not negative, no longer than `CSVFormat.maxWhen`.
    mutating func seconds(_ name: String, _ v: Double?) {
        guard let v else { return }
        if !(v.isFinite && v >= 0 && v <= CSVFormat.maxWhen) { note(name, "\(v)") }
    }

    mutating func count<I: BinaryInteger>(_ name: String, _ v: I?) {
        guard let v else { return }
        if !(v >= 0 && Int64(clamping: v) <= RecordingMetadata.maxCount) { note(name, "\(v)") }
    }

    mutating func finite(_ name: String, _ values: [Double]) {
        if let bad = values.first(where: { !$0.isFinite || abs($0) > 1e12 }) { note(name, "\(bad)") }
    }
}
