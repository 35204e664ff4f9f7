/// Names the recording's files by the local time of their first sample, or provisionally
/// (`<prefix>-<seconds since boot>`) while GPS time is not known yet (docs/GPS.md): never a
/// date from an unsynchronised clock.
struct RecordingFileNamer {
    /// GPS time (nil: the system clock names the files).
    let timeBase: GPSTimeBase?
    let whenOffset: Double
    let whenMode: WhenMode
    let nowNanos: @Sendable () -> Int64

    /// Names given now are provisional.
    var isProvisional: Bool { timeBase?.isProvisional == true }

    /// The true time of a sample at `when`; rows sampled before GPS time was applied lack
    /// the correction, and the time base knows which did.
    func epoch(when: Double) -> Double {
        timeBase?.namingEpoch(when: when, whenOffset: whenOffset, whenMode: whenMode) ?? when + whenOffset
    }

    /// The base name (no extension) for a file starting at `when`.
    func base(startingAt when: Double) -> String {
        isProvisional ? provisionalBase() : TimeText.fileBase(epochSeconds: epoch(when: when))
    }

    private func provisionalBase() -> String {
        let uptime = String(max(0, nowNanos()) / 1_000_000_000)
        return (timeBase?.provisionalPrefix ?? RecordingFiles.provisionalStem) + "-" + String(repeating: "0", count: max(0, 7 - uptime.count)) + uptime
    }
}
