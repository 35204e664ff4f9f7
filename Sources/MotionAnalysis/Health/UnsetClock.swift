import MotionCore

/// Recordings whose times come from a clock nobody set: the system clock was not
/// synchronised when they began (`recording.clock: system-unsynchronised`) and, by their
/// last file, GPS time had not arrived either (it would say `gps`). A logger without
/// network or RTC starts from the last time it saved, so such times may be off by hours
/// or days; the summary must not present them as if they were known.
enum UnsetClock {
    static func sentence(_ metadata: [(String, RecordingMetadata)]) -> String? {
        let latest = LatestParts.of(metadata)
        let unset = latest.filter { $0.recording.clock == GPSTimeRecord.unsynchronisedClock }.count
        guard unset > 0 else { return nil }
        let which = latest.count == 1 ? "This recording's" : unset == latest.count ? "These recordings'" : "\(unset) of the \(latest.count) recordings'"
        return "\(which) times come from the logger's own clock, which no time service had set and GPS time never corrected: "
            + "they may be off by hours or days (a board without network or real-time clock starts from the last time it saved)."
    }
}
