/// How a recording file ended, read once from its metadata's `endedCleanly` and
/// `endReason` (docs/FORMAT.md, the `endReason` field), so that readers (summary, web page,
/// recovery, offload) decide on a type rather than comparing the text again.
public enum FileEnding: Sendable, Equatable {
    /// Closed by the writer after its last row (rotated, stopped, duration, low disk
    /// space, fused).
    case clean
    /// Still being written, or cut off by a power cut or crash and not recovered yet.
    case unfinished
    /// Cut off by a power cut or crash, and recovered: the rows up to the last fsync.
    case recovered
    /// Given up after a write error that could not be cut back to a row boundary
    /// (a torn row may remain until recovery).
    case abandoned
    /// Closed by the writer after write errors: rows that could not be written are
    /// missing (and counted); with `fsyncFailed` the last rows are not known to be on
    /// the card.
    case closedAfterWriteErrors(fsyncFailed: Bool)

    // The end reasons the writer and recovery write.
    public static let recordingReason = "recording"
    /// Closed by rotation; the recording went on in the next file.
    public static let rotatedReason = "rotated"
    public static let recoveredReason = "recovered"
    public static let abandonedReason = "write-error"
    /// Closed because it reached the largest file its file system allows (FAT32: 4 GiB);
    /// the recording went on in the next file.
    public static let fileSizeLimitReason = "file-size-limit"
    /// Appended to the reason (`duration, write-errors`) when the file lost rows.
    public static let writeErrorsSuffix = ", write-errors"
    /// Appended when the file's last fsync failed.
    public static let fsyncFailedSuffix = ", fsync-failed"

    public init(endedCleanly: Bool, endReason: String) {
        if endReason == Self.recoveredReason {
            self = .recovered
        } else if endedCleanly {
            self = .clean
        } else if endReason == Self.recordingReason {
            self = .unfinished
        } else if endReason.hasPrefix(Self.abandonedReason) {
            self = .abandoned
        } else {
            // A closing reason with the writer's suffixes; anything else not clean is
            // treated as unfinished (recovery checks it).
            let fsyncFailed = endReason.hasSuffix(Self.fsyncFailedSuffix)
            self = endReason.hasSuffix(Self.writeErrorsSuffix) || fsyncFailed
                ? .closedAfterWriteErrors(fsyncFailed: fsyncFailed) : .unfinished
        }
    }

    /// The reason the writer closed the file, without the write-error suffixes
    /// (`duration, write-errors` → `duration`).
    public static func closingReason(_ endReason: String) -> String {
        var reason = endReason
        for suffix in [fsyncFailedSuffix, writeErrorsSuffix] where reason.hasSuffix(suffix) { reason.removeLast(suffix.count) }
        return reason
    }

    /// Whether the writer closed the file for the recording to go on in a next one
    /// (rotation, or the file system's size limit), with or without write errors.
    public static func wasFollowedByNextFile(_ endReason: String) -> Bool {
        let reason = closingReason(endReason)
        return reason == rotatedReason || reason == fileSizeLimitReason
    }

    /// The writer did not finish the file: recovery must cut it back to its last complete
    /// row and recount it. A file closed after write errors it handled is complete.
    public var needsRecovery: Bool {
        switch self {
        case .unfinished, .abandoned, .closedAfterWriteErrors(fsyncFailed: true): true
        case .clean, .recovered, .closedAfterWriteErrors(fsyncFailed: false): false
        }
    }

    /// Ended as the writer meant it to, with every row on the card.
    public var isClean: Bool { self == .clean }
}

extension RecordingMetadata {
    /// How this file ended.
    public var ending: FileEnding { FileEnding(endedCleanly: endedCleanly, endReason: endReason) }
}
