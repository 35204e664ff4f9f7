import MotionCore

/// What an offload did, file by file (a part of a rotated recording is copied, skipped or
/// deleted on its own), and in sentences that count recordings as recordings: the parts of
/// one recording are one recording (`parts`), e.g. "Copied 1 recording (10 files, 12.3 MB)".
public struct FolderOffloadReport: Sendable {
    /// Parts (CSV names without `.csv`) of which files were copied in this run.
    public var copied: [String] = []
    /// A manifest write failed: files verified on the target are not all listed in it.
    public var manifestIncomplete = false
    /// Parts that were on the target with every file before this run.
    public var alreadyThere: [String] = []
    /// Parts that did not fit in the space left, with their sizes.
    public var didNotFit: [(name: String, bytes: Int64)] = []
    /// Free space on the target when the first part did not fit, and the spare kept.
    public var freeWhenFull: (free: Int64, kept: Int64)?
    /// Files the target's file system cannot hold (FAT32's 4 GiB limit).
    public var tooLarge: [(name: String, bytes: Int64)] = []
    /// A file of the same name on the target with other contents: left alone.
    public var conflicts: [String] = []
    /// Parts removed from the card after verification.
    public var deleted: [String] = []
    /// CSVs being written (never touched), and CSVs a power cut left for recovery.
    public var inProgress: [String] = []
    public var awaitingRecovery: [String] = []
    /// Of `awaitingRecovery`, those whose metadata exists but cannot be read.
    public var unreadableMetadata: [String] = []
    /// CSVs without an ending that recovery cannot repair (`RecordingInventory.unrecoverable`).
    public var unrecoverable: [String] = []
    public var failures: [OffloadError] = []
    /// Stopped on request (`OffloadStop`): why, and the parts not copied for it.
    public var stopped: (reason: String, notCopied: [String])?
    /// Bytes and files (CSVs and the files beside them) copied in this run.
    public var bytesCopied: Int64 = 0
    public var filesCopied = 0
    /// The finished parts in the recordings folder: which recording each belongs to.
    public var parts = PartIndex()

    public init() {}

    /// True when everything finished is on the target (or deliberately skipped as there).
    public var complete: Bool {
        didNotFit.isEmpty && tooLarge.isEmpty && conflicts.isEmpty && failures.isEmpty && stopped == nil && unrecoverable.isEmpty
    }

    /// The report in sentences, one per line.
    public func lines() -> [String] {
        var out: [String] = []
        out.append(parts.summary("Copied", done: copied, fileCount: filesCopied, bytes: bytesCopied,
                                 before: alreadyThere, beforeText: "already there"))
        if !didNotFit.isEmpty {
            let total = didNotFit.reduce(Int64(0)) { $0 + $1.bytes }
            let space = freeWhenFull.map {
                "the target had \(ByteText.describe($0.free)) free and \(ByteText.describe($0.kept)) is kept spare; "
            } ?? ""
            out.append("Did not fit (\(parts.filesOfRecordings(didNotFit.map(\.name))), \(ByteText.describe(total)) in all; "
                       + "\(space)use a larger or emptier stick): "
                       + didNotFit.map { "\($0.name) (\(ByteText.describe($0.bytes)))" }.joined(separator: ", "))
        }
        for f in tooLarge {
            out.append("Not copied: \(f.name) is \(ByteText.describe(f.bytes)), larger than FAT32's 4 GiB file limit; use an exFAT or ext4 stick, or record with a smaller rotate_size.")
        }
        for c in conflicts {
            out.append("Not copied: \(c) exists on the target with other contents; it was left alone (rename or remove it there).")
        }
        if !deleted.isEmpty {
            out.append("Deleted from the card after verification: \(parts.filesOfRecordings(deleted)): \(deleted.joined(separator: ", ")).")
        }
        if !inProgress.isEmpty { out.append("Being recorded, copied next time: \(inProgress.joined(separator: ", ")).") }
        let unfinished = awaitingRecovery.filter { !unreadableMetadata.contains($0) }
        if !unfinished.isEmpty {
            out.append("Not finished (a power cut?), copied after the next start recovers them: \(unfinished.joined(separator: ", ")).")
        }
        if !unreadableMetadata.isEmpty {
            out.append("Metadata that cannot be read (`motionlog check` says why), copied after the next start rebuilds it from the rows and keeps it beside: \(unreadableMetadata.joined(separator: ", ")).")
        }
        if let line = RecordingInventory.unrecoverableSentence(unrecoverable, verb: "copied") { out.append(line) }
        for f in failures { out.append("Error: \(f)") }
        if manifestIncomplete {
            out.append("manifest.csv could not be written: the files copied last are on the target and verified but not listed in it; the next run finds them.")
        }
        if let stopped { out.append(parts.stoppedSentence(stopped, verb: "copy", past: "copied")) }
        return out
    }
}
