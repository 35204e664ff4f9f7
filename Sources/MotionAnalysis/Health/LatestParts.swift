import MotionCore

/// Each recording's latest part among metadata read (the highest `file.index` per
/// `recording.id`): its counters are the recording's running totals, and its clock is the
/// one the recording ended on.
enum LatestParts {
    static func of(_ metadata: [(String, RecordingMetadata)]) -> [RecordingMetadata] {
        var latest: [String: RecordingMetadata] = [:]
        for (_, m) in metadata where (latest[m.recording.id]?.file.index ?? .min) < m.file.index { latest[m.recording.id] = m }
        return Array(latest.values)
    }
}
