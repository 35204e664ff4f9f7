import MotionCore

/// How a file ended, as a sentence for its owner: the summary's health findings and the
/// web page's recording page say the same thing.
public enum FileEndingText {
    /// The sentence about `metadata`'s file, with `subject` naming it (the file's name in
    /// a list of findings, "This file" on its own page).
    public static func sentence(_ metadata: RecordingMetadata, subject: String) -> String {
        let reason = FileEnding.closingReason(metadata.endReason)
        switch metadata.ending {
        case .clean where reason == FileEnding.fileSizeLimitReason:
            return "\(subject) ended cleanly at the largest file its file system allows (4 GiB on FAT32); the recording went on in the next file."
        case .clean:
            return "\(subject) ended cleanly (\(reason))."
        case .unfinished:
            return "\(subject) did not end cleanly: it is still being written, or a power cut or crash cut it off (motionlog recovers it when it next starts)."
        case .recovered:
            return "\(subject) was cut off by a power cut or crash and recovered: the rows up to the last fsync are there."
        case .abandoned:
            return "\(subject) was given up after a write error (full or failing card?): a torn last line may remain until motionlog next starts and recovers it."
        case .closedAfterWriteErrors(let fsyncFailed):
            return "\(subject) ended (\(reason)) after write errors (full or failing card?): rows that could not be written are missing from it"
                + (fsyncFailed ? ", and its last fsync failed, so its last rows may not be on the card." : " (they are counted).")
        }
    }
}
