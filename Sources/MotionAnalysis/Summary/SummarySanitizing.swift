extension AnalysisSummary {
    /// The summary with every non-finite number replaced (nil where optional, 0 otherwise),
    /// so JSON never needs strings for numbers.
    func sanitized() -> AnalysisSummary {
        func f(_ v: Double) -> Double { v.isFinite ? v : 0 }
        func o(_ v: Double?) -> Double? { v.flatMap { $0.isFinite ? $0 : nil } }
        var s = self
        s.start = o(start); s.end = o(end); s.durationS = f(durationS)
        s.distanceM = f(distanceM); s.movingS = f(movingS); s.averageSpeedMps = o(averageSpeedMps)
        s.maxSpeedMps = o(maxSpeedMps); s.elevationGainM = f(elevationGainM); s.elevationLossM = f(elevationLossM)
        if let b = bbox, ![b.minLat, b.minLon, b.maxLat, b.maxLon].allSatisfy(\.isFinite) { s.bbox = nil }
        s.timeline = timeline.map { e in
            var e = e
            e.start = f(e.start); e.end = f(e.end); e.lat = o(e.lat); e.lon = o(e.lon); e.radiusM = o(e.radiusM)
            e.distanceM = o(e.distanceM); e.meanSpeedMps = o(e.meanSpeedMps); e.maxSpeedMps = o(e.maxSpeedMps)
            return e
        }
        s.activitySeconds = activitySeconds.mapValues(f)
        s.movement.sums = movement.sums.map(f); s.movement.counts = movement.counts.map(f)
        s.movement.starts = movement.starts.map(f); s.movement.epochStarts = movement.epochStarts.map(f)
        s.health.sources = health.sources.map { h in
            var h = h
            h.achievedHz = o(h.achievedHz); h.configuredHz = o(h.configuredHz)
            h.longestGaps = h.longestGaps.map { .init(start: f($0.start), durationS: f($0.durationS)) }
            return h
        }
        if var g = health.gps { g.share3D = f(g.share3D); g.medianEphM = o(g.medianEphM); g.p95EphM = o(g.p95EphM); s.health.gps = g }
        if let m = health.magnetometer { s.health.magnetometer = .init(meanUT: f(m.meanUT), stdUT: f(m.stdUT)) }
        return s
    }
}
