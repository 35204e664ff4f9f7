/// Writes the metadata JSON beside the current CSV: at open, every `refreshNanos` while the
/// file grows (so a power cut keeps recent counters), and at close with how it ended.
struct FileMetadataWriter {
    let directory: OutputDirectory
    let description: RecordingDescription
    let softwareVersion: String
    let counters: RecorderCounters
    let timeBase: GPSTimeBase?
    var refreshNanos: Int64 = 5_000_000_000
    private var lastWrite: Int64 = 0

    init(directory: OutputDirectory, description: RecordingDescription, softwareVersion: String,
         counters: RecorderCounters, timeBase: GPSTimeBase?) {
        self.directory = directory; self.description = description; self.softwareVersion = softwareVersion
        self.counters = counters; self.timeBase = timeBase
    }

    /// A refresh is due at `now` (monotonic ns).
    func isDue(now: Int64) -> Bool { now - lastWrite >= refreshNanos }

    /// The next check finds a refresh due (a file opened without writing its metadata yet).
    mutating func makeDue() { lastWrite = .min / 2 }

    /// When the file was closed: the system clock's time; on the simulated clock (`--fast`,
    /// faster than real time) its last row's, on the rows' time scale ("ended" was before
    /// "started" when the real clock lagged the simulated one).
    func endedEpoch(_ section: RecordingMetadata.FileSection) -> Double {
        if description.clock == Recorder.simulatedClock, let last = section.lastWhen {
            return description.whenMode == .relative ? description.startEpoch + last : last
        }
        return Double(SystemClock.realtimeNanos()) / 1e9
    }

    /// Replaces the file's metadata; the error, if the replace failed.
    mutating func write(_ section: RecordingMetadata.FileSection, endedCleanly: Bool, reason: String,
                        now: Int64) -> OutputError? {
        var snapshot = counters.snapshot()
        snapshot.time = timeBase?.snapshot
        let doc = RecordingMetadata(
            software: .init(version: softwareVersion), recording: description, file: section,
            counters: snapshot, endedCleanly: endedCleanly, endReason: reason,
            ended: reason == FileEnding.recordingReason ? nil : TimeText.isoUTC(epochSeconds: endedEpoch(section)))
        lastWrite = now
        do { try directory.replace(name: RecordingFiles.metadataPath(for: section.name), contents: doc.encoded()) } catch {
            return error
        }
        return nil
    }
}
