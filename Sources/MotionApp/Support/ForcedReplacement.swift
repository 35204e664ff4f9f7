import MotionCore
import MotionSystem

/// What `--force` may replace when a command writes a recording (`import`, `fuse`): the
/// output of an earlier run of the same command, which its metadata shows, and nothing else.
/// A logger's recording of the same name (the same ride, logged by both) was written over.
enum ForcedReplacement {
    /// Throws unless nothing is at `csv` (or its metadata) or it is an earlier output
    /// (`isEarlierOutput` of its metadata). `instead` says what to do.
    static func check(_ csv: String, by command: String, instead: String,
                      isEarlierOutput: (RecordingMetadata) -> Bool) throws(CommandFailure) {
        let metadata = RecordingFiles.metadataPath(for: csv)
        guard FileSystem.exists(csv) || FileSystem.exists(metadata) else { return }
        if let m = RecordingFiles.readMetadata(besides: csv), isEarlierOutput(m) { return }
        // Named for what it is: a file that is no recording at all was "a recording".
        let what = RecordingFiles.recordingPart(csv) ?? RecordingFiles.recordingPart(metadata).map { _ in "a recording" } ?? "another file"
        throw CommandFailure("\(csv) is \(what), not an earlier output of `\(command)`: not written over, even with --force — \(instead)", code: 2)
    }
}
