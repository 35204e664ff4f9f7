/// The human report of `motionlog summary`: aligned, with units and local times.
public enum SummaryReport {
    /// Movement intervals listed at most: a day at the default 10 min (a night of 8–10 h
    /// fits whole; it was cut at 8 h).
    static let movementLines = 144

    public static func text(_ s: AnalysisSummary, title: String) -> String {
        var out: [String] = [title]
        func row(_ name: String, _ value: String) { out.append("  " + name.padding(toLength: 11, withPad: " ", startingAt: 0) + value) }
        guard let start = s.start, let end = s.end else {
            out.append("  no data rows")
            return out.joined(separator: "\n")
        }
        let sameDay = LocalDay.date(start) == LocalDay.date(end)
        row("Time", "\(LocalDay.date(start)) \(LocalDay.clock(start)) – \(sameDay ? "" : LocalDay.date(end) + " ")\(LocalDay.clock(end))  (\(Text.duration(s.durationS)))")
        row("Rows", s.rows.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: "  "))
        if s.fixesUsed > 0 {
            var line = "\(Text.distance(s.distanceM))   moving \(Text.duration(s.movingS))"
            if let avg = s.averageSpeedMps { line += "   avg \(Text.number(avg * 3.6, 1)) km/h" }
            if let max = s.maxSpeedMps { line += "   max \(Text.number(max * 3.6, 1)) km/h" }
            row("Distance", line)
            row("Elevation", "+\(Text.number(s.elevationGainM, 0)) m  −\(Text.number(s.elevationLossM, 0)) m")
            if let b = s.bbox {
                row("Area", "\(Text.number(b.minLat, 5)), \(Text.number(b.minLon, 5)) – \(Text.number(b.maxLat, 5)), \(Text.number(b.maxLon, 5))")
            }
        } else {
            row("Distance", s.rows["L"] == nil ? "no GPS (L) rows" : "no usable GPS fix")
        }
        if !s.timeline.isEmpty {
            out.append("")
            out.append("Timeline")
            var day = sameDay ? LocalDay.date(start) : ""
            for e in s.timeline {
                // Over several days, each day's entries under its date.
                if LocalDay.date(e.start) != day { day = LocalDay.date(e.start); out.append("  \(day)") }
                // An entry that ends on a later day says which ("08:14:59–08:00:00" under the
                // 21st read as running backwards).
                let endDay = LocalDay.date(e.end)
                let span = "\(LocalDay.clock(e.start))–\(endDay == day ? "" : endDay + " ")\(LocalDay.clock(e.end))"
                var line = "  \(span)  "
                switch e.type {
                case .stop:
                    line += "stop".padding(toLength: 9, withPad: " ", startingAt: 0) + Text.duration(e.duration).padding(toLength: 14, withPad: " ", startingAt: 0)
                    if let lat = e.lat, let lon = e.lon {
                        line += "at \(Text.number(lat, 5)), \(Text.number(lon, 5)) (within \(Text.number(e.radiusM ?? 0, 0)) m)"
                    } else {
                        line += "still (accelerometer; no position)"
                    }
                case .move:
                    line += (e.activity ?? .unknown).rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)
                        + Text.duration(e.duration).padding(toLength: 14, withPad: " ", startingAt: 0)
                    if let d = e.distanceM { line += Text.distance(d).padding(toLength: 9, withPad: " ", startingAt: 0) }
                    if let v = e.meanSpeedMps { line += "  \(Text.number(v * 3.6, 1)) km/h" }
                case .gap:
                    line += "no data".padding(toLength: 9, withPad: " ", startingAt: 0) + Text.duration(e.duration)
                }
                while line.hasSuffix(" ") { line.removeLast() }   // an IMU-only move has no distance
                out.append(line)
            }
            let order = ["walking", "cycling", "vehicle", "unknown", "stop"]
            let parts = order.compactMap { k in s.activitySeconds[k].map { "\(k) \(Text.duration($0))" } }
            if !parts.isEmpty { row("In all", parts.joined(separator: ", ")) }
        }
        if !s.movement.sums.isEmpty {
            out.append("")
            let source = s.movement.source == "D" ? "from D rows" : "from A rows, gravity removed"
            out.append("Movement per \(Text.duration(s.movement.intervalS)) (|user acceleration|, g·s, \(source))")
            let peak = max(s.movement.sums.max() ?? 0, 1e-9)
            // Intervals that are not whole minutes are labelled to the second (`--interval
            // 0.5` labelled two lines 10:13), and small sums get three decimals (all 0.0).
            let wholeMinutes = s.movement.intervalS.truncatingRemainder(dividingBy: 60) == 0
            let decimals = peak >= 1 ? 1 : 3
            var day = sameDay ? LocalDay.date(start) : ""
            for (t, v) in zip(s.movement.starts, s.movement.sums).prefix(Self.movementLines) {
                if LocalDay.date(t) != day { day = LocalDay.date(t); out.append("  \(day)") }
                let bar = String(repeating: "█", count: v.isFinite && peak.isFinite && v > 0 ? Int((v / peak * 30).rounded()) : 0)
                let label = wholeMinutes ? LocalDay.hourMinute(t) : LocalDay.clock(t)
                out.append("  \(label)  \(Text.number(v, decimals).padding(toLength: 9, withPad: " ", startingAt: 0)) \(bar)")
            }
            let more = s.movement.sums.count - Self.movementLines
            if more > 0 { out.append("  … \(more) more interval\(more == 1 ? "" : "s") (see --json)") }
        }
        out.append("")
        out.append("Health")
        for h in s.health.sources {
            var line = "  \(h.source)  \(String(h.rows).padding(toLength: 9, withPad: " ", startingAt: 0))rows"
            // A sparse GPS logger (a fix a minute or rarer) was "0.00 Hz".
            if let got = h.achievedHz { line += got > 0 && got < 0.1 ? "  one every \(Text.duration(1 / got))" : "  \(Text.number(got, 2)) Hz" }
            // Recordings at different rates give a weighted, fractional configured rate.
            if let want = h.configuredHz { line += " of \(Text.number(want, want == want.rounded() ? 0 : 1)) Hz" }
            // Below a second in milliseconds: at 100 Hz every gap read "0.0 s".
            if let g = h.longestGaps.first {
                line += "  longest gap " + (g.durationS < 0.95 ? "\(Text.number(g.durationS * 1000, 0)) ms" : Text.duration(g.durationS))
            }
            out.append(line)
        }
        if let g = s.health.gps {
            var line = "  GPS \(Text.number(g.share3d * 100, 0)) % 3-D fixes"
            if let m = g.medianEphM { line += ", eph median \(Text.number(m, 1)) m" }
            if let p = g.p95EphM { line += ", 95 % \(Text.number(p, 1)) m" }
            out.append(line)
        }
        if let clean = s.health.endedCleanly { out.append(clean ? "  ended cleanly" : "  did NOT end cleanly") }
        if s.messages.isEmpty {
            out.append("  nothing needs your attention")
        } else {
            for m in s.messages { out.append("  ! " + m) }
        }
        return out.joined(separator: "\n")
    }
}
