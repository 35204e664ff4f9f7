import MotionCore

/// Turns the counters of a scan and the metadata into `AnalysisSummary.Health`, with a
/// plain sentence for everything that needs the owner's attention.
enum HealthReport {
    static let names: [Source: String] = [.accelerometer: "Accelerometer", .gyroscope: "Gyroscope",
                                          .magnetometer: "Magnetometer", .deviceMotion: "Device-motion",
                                          .location: "GPS"]

    /// "Accelerometer", "Accelerometer and gyroscope", "Accelerometer, gyroscope and GPS".
    /// A receiver switched on cold takes up to about a minute to its first fix; longer at
    /// the start of a recording is worth a sentence (a poor view of the sky, an antenna).
    static let gpsFirstFixSeconds = 120.0
    /// IMU rows may start or stop a little apart from the other sources' (the first fix,
    /// the last tick): only more than this is worth a sentence.
    static let imuEdgeSeconds = 2.0

    static func list(_ names: [String]) -> String {
        let words = names.enumerated().map { k, n in k == 0 || n == "GPS" ? n : n.lowercased() }
        guard words.count > 1 else { return words.first ?? "" }
        return words.dropLast().joined(separator: ", ") + " and " + (words.last ?? "")
    }

    /// `fileFindings`: sentences about single files, from reading them (shorter than their
    /// metadata says, `CutShortFile`; read although they break the format).
    static func make(_ a: RecordingAnalyzer, counts: ScanCounts, metadata: [(String, RecordingMetadata)],
                     fixes: Int, fileFindings: [String] = []) -> AnalysisSummary.Health {
        var h = AnalysisSummary.Health()
        var findings: [String] = []
        // Counters: running totals per recording, so the largest per recording id, summed.
        var perRecording: [String: CounterSnapshot] = [:]
        // The configured rate over the recordings, weighted by each file's span: recordings
        // at 100 and 25 Hz read "came at 62.6 Hz of the configured 100 Hz".
        var rateTimesSeconds = 0.0, rateSeconds = 0.0, fastest = 0
        var endings: [String] = []
        for (_, m) in metadata {
            let c = m.counters
            var best = (perRecording[m.recording.id] ?? CounterSnapshot()).latest(c)
            if let t = c.time { if (best.time?.steps ?? -1) < t.steps { best.time = t } }
            perRecording[m.recording.id] = best
            if m.recording.rateHz > 0 {
                fastest = max(fastest, m.recording.rateHz)
                // The file's span within the rows read (`--day`), in epoch seconds.
                let offset = m.recording.whenMode == .relative ? m.recording.startEpoch : 0
                if var f = m.file.firstWhen.map({ $0 + offset }), var l = m.file.lastWhen.map({ $0 + offset }) {
                    if let from = a.options.from { f = max(f, from) }
                    if let to = a.options.to { l = min(l, to) }
                    if l > f { rateTimesSeconds += Double(m.recording.rateHz) * (l - f); rateSeconds += l - f }
                }
            }
            let ending = m.ending
            if ending == .recovered || ending.needsRecovery { h.recoveredFiles.append(m.file.name) }
            if !ending.isClean { endings.append(FileEndingText.sentence(m, subject: m.file.name)) }
            // Stopped by the free-space guard: ended cleanly, but before its owner stopped it
            // (it read "ended cleanly, nothing needs your attention").
            if FileEnding.closingReason(m.endReason) == FreeSpaceGuard.endReason {
                endings.append("\(m.file.name): the recording was stopped because the card was nearly full (the free space reached the min_free_space reserve): it ends at \(m.file.lastWhen.map { t -> String in let e = t + (m.recording.whenMode == .relative ? m.recording.startEpoch : 0); return "\(LocalDay.date(e)) \(LocalDay.clock(e))" } ?? "the end of this file"). Free some space before recording again.")
            }
        }
        // A recording whose last file read was closed for a next one (rotation) that is not
        // among the files: a later part is missing (deleted, not copied). Not with --day,
        // which reads the day's files only.
        if a.options.from == nil && a.options.to == nil {
            var lastOf: [String: RecordingMetadata] = [:]
            for (_, m) in metadata { lastOf[m.recording.id] = m }
            // (A fused part keeps its input's ending under an id of its own: not counted.)
            for (_, m) in metadata where lastOf[m.recording.id]?.file.name == m.file.name && FileEnding.wasFollowedByNextFile(m.endReason)
                && m.recording.recomputedFrom == nil {
                endings.append("\(m.file.name) was closed for the recording to go on in a next file, which is not among the files read (deleted, not copied, or not named?): the recording went on after it.")
            }
        }
        let total = perRecording.values.reduce(CounterSnapshot()) { $0.adding($1) }
        h.droppedRows = total.droppedRows; h.overruns = total.overruns; h.missedTicks = total.missedTicks
        h.rowsLostToWriteErrors = total.rowsLostToWriteErrors; h.writeErrors = total.writeErrors
        h.clockSteps = perRecording.values.reduce(0) { $0 + min($1.time?.steps ?? 0, 1_000_000) }
        if !metadata.isEmpty { h.endedCleanly = metadata.allSatisfy { $0.1.ending.isClean } }
        // A rate of 0 (damaged metadata) is no rate: "100.00 Hz of 0 Hz" said nothing.
        let configured = rateSeconds > 0 ? Text.round(rateTimesSeconds / rateSeconds, 2) : fastest > 0 ? Double(fastest) : nil
        // Times in sentences: the clock, and the date too when the files cover several days.
        let firsts = a.stats.compactMap(\.first), lasts = a.stats.compactMap(\.last)
        let severalDays = (firsts.min().map(LocalDay.date) ?? "") != (lasts.max().map(LocalDay.date) ?? "")
        func at(_ t: Double) -> String { severalDays ? "\(LocalDay.date(t)) \(LocalDay.clock(t))" : LocalDay.clock(t) }
        // Per source. Sources that share a finding (the IMU's come from one tick, so they
        // miss the same samples) share its sentence: "Accelerometer, gyroscope and
        // magnetometer rows came at 958.9 Hz …", not three sentences.
        var shared: [(predicate: String, names: [String])] = []
        func say(_ name: String, _ predicate: String) {
            if let i = shared.firstIndex(where: { $0.predicate == predicate }) { shared[i].names.append(name) }
            else { shared.append((predicate, [name])) }
        }
        var gpsGaps: [String] = []
        for src in Source.canonicalOrder where a.stats[src.order].count > 0 {
            let st = a.stats[src.order]
            h.sources.append(st.report(String(src.letter), configuredHz: src == .location ? nil : configured))
            h.timeJumps += st.backwards
            let name = names[src] ?? src.description
            if src != .location, let want = configured, let got = st.achievedHz, got < want * 0.98 {
                say(name, "rows came at \(Text.number(got, 1)) Hz of the configured \(Text.number(want, want == want.rounded() ? 0 : 1)) Hz.")
            }
            let period = src == .location ? 1.0 : 1 / (configured ?? st.achievedHz ?? 1)
            let threshold = src == .location ? 30.0 : max(0.1, 10 * period)
            let big = st.longest.filter { $0.durationS > threshold }
            for g in big.prefix(3) {
                let gap = "for \(Text.duration(g.durationS)) from \(at(g.start))."
                if src == .location { gpsGaps.append("GPS had no fix " + gap) } else { say(name, "rows were missing " + gap) }
            }
            // Silent at the start or the end while other sources recorded: the gaps between
            // rows cannot show it (an accelerometer that stopped answering after 10
            // minutes of 3 days read "nothing needs your attention"). Within one recording:
            // across several, a source may simply not have been recorded in some.
            if !a.severalRecordings, let first = st.first, let last = st.last, let start = firsts.min(), let end = lasts.max() {
                let (late, early) = (first - start, end - last)
                if src == .location {
                    if late > Self.gpsFirstFixSeconds {
                        gpsGaps.append("GPS had no fix for \(Text.duration(late)) from \(at(start)), the start of the recording.")
                    }
                    if early > threshold {
                        gpsGaps.append("GPS had no fix for \(Text.duration(early)) from \(at(last)) to the end of the recording.")
                    }
                } else {
                    let slack = max(threshold, Self.imuEdgeSeconds)
                    if late > slack { say(name, "rows began at \(at(first)), \(Text.duration(late)) after the recording began.") }
                    if early > slack {
                        say(name, "rows stopped at \(at(last)), \(Text.duration(early)) before the recording ended "
                            + "(the sensor stopped answering, or was disconnected).")
                    }
                }
            }
            if st.backwards > 0 {
                say(name, "time went backwards or repeated \(st.backwards) time\(st.backwards == 1 ? "" : "s") (clock step or files out of order).")
            }
        }
        findings += shared.map { "\(Self.list($0.names)) \($0.predicate)" } + gpsGaps
        if let lost = GPSAbsence.lostConnections(metadata) { findings.append(lost) }
        // Only where there are rows: a day or file without any is no news about GPS.
        let anyRows = a.stats.contains { $0.count > 0 }
        if anyRows && a.stats[Source.location.order].count == 0 {
            let imu = a.stats[Source.accelerometer.order].count > 0
            findings.append("No GPS (L) rows: no track or places" + (imu ? "; the timeline comes from the accelerometer alone." : ".")
                            + (GPSAbsence.reason(metadata).map { " " + $0 } ?? ""))
        } else if anyRows && fixes == 0 {
            findings.append("No usable GPS fix (positions missing or inaccurate): no track or places.")
        }
        if h.droppedRows > 0 { findings.append("\(CountText.were(h.droppedRows, "row")) dropped: the card could not keep up (both buffers full).") }
        if h.missedTicks > 0 && h.recoveredFiles.isEmpty {
            findings.append("\(CountText.were(h.missedTicks, "tick")) missed in \(CountText.of(h.overruns, "late wake-up")) of the sampler (no sample exists for them).")
        } else if h.missedTicks > 0 {
            // Recovery raises missedTicks to the ticks its rows lack but cannot know the late
            // wake-ups: "118 ticks were missed in 3 late wake-ups" where the file had 55 gaps.
            findings.append("\(CountText.of(h.missedTicks, "tick")) \(h.missedTicks == 1 ? "has" : "have") no sample: missed by the sampler, "
                            + "or dropped or lost before the unclean end (recovery counts them from the gaps between rows).")
        }
        if h.rowsLostToWriteErrors > 0 || h.writeErrors > 0 {
            findings.append("\(CountText.were(h.rowsLostToWriteErrors, "row")) lost to \(CountText.of(h.writeErrors, "write error")) (full or failing card?).")
        }
        for (step, rows) in a.placedSteps {
            findings.append("The logger's clock was \(Text.duration(step.seconds)) behind until GPS time set it at "
                            + "\(at(step.firstCorrectedWhen)); the \(rows) IMU rows recorded before that are placed by GPS time.")
        }
        if h.clockSteps > a.placedSteps.count {
            findings.append("The clock was stepped \(h.clockSteps) time\(h.clockSteps == 1 ? "" : "s") to GPS time during the recording"
                            + (a.placedSteps.isEmpty ? "" : "; only the first step is known in size, so the rows before later steps keep their times") + ".")
        }
        if let unset = UnsetClock.sentence(metadata) { findings.append(unset) }
        // GPS quality.
        let located = a.stats[Source.location.order].count - a.noPosition
        if a.stats[Source.location.order].count > 0 {
            let q = AnalysisSummary.GPSQuality(fixes: a.stats[Source.location.order].count,
                                                share3d: located > 0 ? Text.round(Double(a.threeD) / Double(located), 3) : 0,
                                                medianEphM: a.ephs.percentile(0.5).map { Text.round($0, 1) },
                                                p95EphM: a.ephs.percentile(0.95).map { Text.round($0, 1) },
                                                noPosition: a.noPosition)
            h.gps = q
            if located > 0 && q.share3d < 0.8 {
                let share = "\(Int((q.share3d * 100).rounded())) %"
                // An imported GPX without <fix> says nothing of the fix: the mode is 3 where a
                // point has an elevation (docs/FORMAT.md), so the share is of those.
                let imported = !metadata.isEmpty && metadata.allSatisfy { $0.1.recording.board == ImportedRecording.board }
                findings.append(imported
                    ? "Only \(share) of the imported GPS points were 3-D fixes, or, where the GPX has no <fix>, had an elevation: the altitude is missing from the others."
                    : "Only \(share) of GPS fixes were 3-D: altitude and accuracy suffer.")
            }
            if let p95 = q.p95EphM, p95 > 25 { findings.append("GPS accuracy was poor: 95 % of fixes within \(Text.number(p95, 0)) m.") }
            if a.noPosition > 0 {
                let rows = a.noPosition == 1 ? "1 GPS row" : "\(a.noPosition) GPS rows"
                findings.append("\(rows) had no usable position (nan, out of range, or 0, 0).")
            }
            if a.impossibleSpeeds > 0 {
                let n = a.impossibleSpeeds
                findings.append("\(CountText.of(n, "GPS fix", plural: "GPS fixes")) reported a speed above \(Text.number(a.options.maxSpeedMps * 3.6, 0)) km/h, which no vehicle reaches: the speed there comes from the positions.")
            }
            if a.filter.rejected > 0 { findings.append("\(CountText.were(a.filter.rejected, "GPS fix", plural: "GPS fixes")) not used (inaccurate or impossible jumps).") }
            if a.filter.outOfOrder > 0 {
                let n = a.filter.outOfOrder
                findings.append("\(CountText.were(n, "GPS fix", plural: "GPS fixes")) not used: \(n == 1 ? "its time was" : "their time was") not after the fix before (files out of order, or a clock set back).")
            }
            if a.filter.aheadOfTime > 0 {
                let n = a.filter.aheadOfTime
                findings.append("\(CountText.were(n, "GPS fix", plural: "GPS fixes")) not used: \(n == 1 ? "its time was" : "their time was") ahead of the fixes after \(n == 1 ? "it" : "them"), which went on from the fix before (a damaged row, or a receiver's glitch).")
            }
        }
        h.accelClipped = a.accelClipped; h.gyroClipped = a.gyroClipped
        h.impossibleRows = a.impossibleRows
        if a.impossibleRows > 0 {
            let rows = a.impossibleRows == 1 ? "1 IMU row had a value" : "\(a.impossibleRows) IMU rows had values"
            findings.append("\(rows) no sensor gives (infinite, or a million or more) and \(a.impossibleRows == 1 ? "was" : "were") left out of movement, activity and the magnetometer statistics.")
        }
        for file in a.outsideWritten where file.rows > 0 {
            let rows = file.rows == 1 ? "1 row" : "\(file.rows) rows"
            findings.append("\(rows) of \(file.file) \(file.rows == 1 ? "is" : "are") stamped outside the times the recorder wrote into it (\(at(file.first)) to \(at(file.last)), its metadata says): changed after recording, \(file.rows == 1 ? "it was" : "they were") left out.")
        }
        if a.accelClipped > 0 { findings.append("\(a.accelClipped) accelerometer samples hit the range limit (clipped): choose a larger range.") }
        if a.gyroClipped > 0 { findings.append("\(a.gyroClipped) gyroscope samples hit the range limit (clipped): choose a larger range.") }
        if let field = a.magnetic.field() {
            h.magnetometer = .init(meanUT: Text.round(field.mean, 2), stdUT: Text.round(field.std, 2))
            if field.mean > 0 && field.std / field.mean > 0.25 {
                findings.append("Magnetometer field strength varied by ±\(Text.number(field.std, 1)) µT around \(Text.number(field.mean, 1)) µT: a magnetic disturbance or an uncalibrated magnetometer (heading is unreliable; see `motionlog calibrate`).")
            }
        }
        // How the files ended, then what reading single files found.
        findings += endings + fileFindings
        h.badLines = counts.badLines; h.tornLines = counts.tornLines
        if counts.badLines > 0 { findings.append("\(counts.badLines) defective line\(counts.badLines == 1 ? " was" : "s were") skipped (see `motionlog check`).") }
        if counts.tornLines > 0 { findings.append("\(counts.tornLines) file\(counts.tornLines == 1 ? "" : "s") ended in a torn line (power cut mid-write); it was ignored.") }
        h.findings = findings
        return h
    }
}

/// Numbers and durations as people read them.
public enum Text {
    public static func round(_ v: Double, _ digits: Int) -> Double {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = v * scale   // infinite for v near the largest Double: then v itself
        return scaled.isFinite ? scaled.rounded() / scale : v
    }

    public static func number(_ v: Double, _ digits: Int) -> String {
        guard v.isFinite else { return "–" }
        guard abs(v) < 1e15 else { return "\(v)" }   // 1e+308: what was read, not a dash
        if digits == 0 { return String(Int(v.rounded())) }
        let r = round(v, digits)
        var s = String(r)
        if let dot = s.firstIndex(of: ".") {
            let decimals = s.distance(from: dot, to: s.endIndex) - 1
            if decimals < digits { s += String(repeating: "0", count: digits - decimals) }
        }
        return s
    }

    /// `468 m` below a kilometre, `9.68 km` from there on.
    public static func distance(_ metres: Double) -> String {
        guard metres.isFinite else { return "–" }
        return metres.rounded() < 1000 ? "\(Int(max(metres.rounded(), -1e15))) m" : "\(number(metres / 1000, 2)) km"
    }

    /// `4 min 10 s`, `2 h 05 min`, `12.5 s`; `–` for none a recording has (not finite, or
    /// beyond ±1e15 s: a damaged file's, which `Int(_:)` would trap on).
    public static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite, abs(seconds) < 1e15 else { return "–" }
        if seconds < 10 { return "\(number(seconds, 1)) s" }
        let s = Int(seconds.rounded())
        if s < 60 { return "\(s) s" }
        if s < 3600 { return s % 60 == 0 ? "\(s / 60) min" : "\(s / 60) min \(s % 60) s" }
        if s >= 2 * 86400 { return "\(s / 86400) d \((s % 86400) / 3600) h" }
        let m = (s % 3600) / 60
        return "\(s / 3600) h \(m < 10 ? "0" : "")\(m) min"
    }
}
