import MotionCore

/// Why a recording made with a GPS source has no `L` rows, from the source's counters in
/// the metadata (`counters.locationHealth`): gpsd never answered, it answered but had no
/// receiver, or its receiver never had a fix. The summary's "No GPS (L) rows" finding says which, and what to do.
enum GPSAbsence {
    /// The connection to gpsd lost during the recordings (`locationHealth.disconnects`, the
    /// latest file's of each): "GPS had no fix for 45 s … to the end of the recording" did
    /// not say that gpsd had gone away.
    static func lostConnections(_ metadata: [(String, RecordingMetadata)]) -> String? {
        let latest = LatestParts.of(metadata).filter { $0.recording.gps != nil }
        let lost = latest.reduce(0) { $0 + min($1.counters.locationHealth?.disconnects ?? 0, 1 << 40) }
        guard lost > 0 else { return nil }
        let times = lost == 1 ? "once" : "\(lost) times"
        // Each answer after a loss is a session of its own: as many sessions as losses is a
        // gpsd that did not answer again (it said "until it answered again" of one killed).
        let gone = latest.filter { m in
            guard let h = m.counters.locationHealth, h.disconnects > 0, let sessions = h.sessions else { return false }
            return sessions <= h.disconnects
        }.count
        let recordings = latest.filter { ($0.counters.locationHealth?.disconnects ?? 0) > 0 }.count
        let after = gone == 0 ? "no fixes were recorded until it answered again"
            : gone == recordings ? "it did not answer again before the recording ended: no fixes after that"
            : "no fixes were recorded while it was gone (in \(gone) of the recordings it did not answer again)"
        return "The connection to gpsd was lost \(times) (gpsd stopped or restarted): \(after)."
    }

    /// Sentences for files without `L` rows, or nil where the metadata cannot tell (no GPS
    /// source configured, the simulator, metadata from before the counters were kept).
    static func reason(_ metadata: [(String, RecordingMetadata)]) -> String? {
        let recordings = LatestParts.of(metadata).compactMap { m -> (address: String, health: LocationHealth)? in
            guard m.recording.sources.contains("L"), let address = m.recording.gps,
                  let health = m.counters.locationHealth, health.sessions != nil else { return nil }
            return (address, health)
        }
        guard !recordings.isEmpty else { return nil }
        let addresses = Set(recordings.map(\.address)).sorted().joined(separator: ", ")
        if recordings.allSatisfy({ ($0.health.sessions ?? 0) == 0 }) {
            let attempts = recordings.reduce(0) { $0 + min($1.health.failedAttempts ?? 0, 1 << 40) }
            let tried = attempts > 0 ? " (\(CountText.of(attempts, "connection attempt")) failed)" : ""
            return "The GPS source (\(addresses)) never answered during the recording\(tried). "
                + "Is gpsd running and the receiver plugged in? `systemctl status gpsd` and `cgps` tell."
        }
        if recordings.allSatisfy({ $0.health.lastMode < 2 && $0.health.receivers == 0 }) {
            return "The GPS source (\(addresses)) answered, but had no receiver: its device list was empty. "
                + "Is the GPS plugged in, and does gpsd know it (DEVICES or USBAUTO in /etc/default/gpsd)? `gpsctl` lists what gpsd sees."
        }
        if recordings.allSatisfy({ $0.health.lastMode < 2 }) {
            return "The GPS source (\(addresses)) answered, but the receiver never had a fix. "
                + "It needs a view of the open sky (a cold start can take minutes); `cgps` shows the satellites it sees."
        }
        return nil
    }
}
