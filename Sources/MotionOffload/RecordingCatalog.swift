import Foundation
import MotionCore
import MotionSystem

/// One finished CSV in the recordings folder and the files beside it that share its name
/// (metadata `NAME.json`, a cached summary, ...): a whole recording, or one part of a
/// recording that rotation split into several files (the parts share `recordingID`).
/// Copies and deletions go part by part; reports count recordings (`PartIndex`).
public struct FinishedPart: Sendable, Equatable {
    /// The CSV's name without `.csv`, e.g. `20261123173600` or `20261123173600-1`.
    public var base: String
    /// File names with their sizes in bytes: the sidecars first, the CSV last.
    public var files: [(name: String, bytes: Int64)]
    /// Start of the recording (seconds since 1970), for ordering; the same for every part.
    public var startEpoch: Double
    /// 1 for a recording's first file, 2 for the next part, ... (orders the parts).
    public var part: Int = 1
    /// The metadata's recording id, shared by the parts of one recording (nil when empty).
    public var recordingID: String?
    /// The cached summary beside it, if any: not copied (it is rebuilt from the rows, and
    /// rewritten when the analysis changes: a copy that differed stopped every later
    /// offload as a conflict), but deleted with the part.
    public var cache: String? = nil

    public var totalBytes: Int64 { files.reduce(0) { $0 + $1.bytes } }
    public var csvName: String { base + ".csv" }

    public static func == (a: FinishedPart, b: FinishedPart) -> Bool {
        a.base == b.base && a.startEpoch == b.startEpoch && a.recordingID == b.recordingID && a.part == b.part
            && a.files.map(\.name) == b.files.map(\.name) && a.files.map(\.bytes) == b.files.map(\.bytes)
    }
}

/// What a look at the recordings folder found.
public struct RecordingInventory: Sendable {
    /// Files (parts) that ended (cleanly, rotated, on an error, or recovered after a power
    /// cut), oldest first.
    public var finished: [FinishedPart] = []
    /// CSVs a running recording is writing: never copied or deleted.
    public var inProgress: [String] = []
    /// The recording ids in the metadata of the CSVs being written (a rotated recording's
    /// earlier parts may be finished and copied already).
    public var inProgressRecordingIDs: [String] = []
    /// CSVs without an end in their metadata and not being written: a power cut that the
    /// next start of `record` or the daemon recovers; copied after that.
    public var awaitingRecovery: [String] = []
    /// CSVs without an end in their metadata, not being written, that recovery cannot
    /// repair (`RecordingRecovery.canRecover`: another program's file, or not the format):
    /// never copied, and said so.
    public var unrecoverable: [String] = []
    /// Of those awaiting recovery, the CSVs whose metadata exists but cannot be read (damaged, or holding a
    /// number no recorder writes): the next start rebuilds it from the rows, keeping it beside.
    public var unreadableMetadata: [String] = []
}

extension RecordingInventory {
    /// The sentence about `names` (`unrecoverable`), nil when there are none.
    static func unrecoverableSentence(_ names: [String], verb: String) -> String? {
        guard !names.isEmpty else { return nil }
        return "Not \(verb): \(names.joined(separator: ", ")): no metadata says how \(names.count == 1 ? "it" : "they") ended, and recovery cannot repair \(names.count == 1 ? "it" : "them") "
            + "(not named as the recorder names files, yyyyMMddHHmmss.csv or unsynced-…csv, or not starting with the format's header): another program's file? Copy \(names.count == 1 ? "it" : "them") by hand, or move \(names.count == 1 ? "it" : "them") out of the recordings folder."
    }
}

/// Finds the finished recordings in a folder. A recording is finished when its metadata
/// says how it ended; one without that is being written when the writer holds its lock on
/// the CSV, else it awaits recovery.
public enum RecordingCatalog {
    public static func inventory(folder: String) throws(OffloadError) -> RecordingInventory {
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: folder) } catch {
            throw OffloadError("list the recordings folder", path: folder,
                               reason: "it does not exist or cannot be read (check `out` in the config, or --out)")
        }
        var inventory = RecordingInventory()
        let all = Set(names)
        for csv in names where csv.hasSuffix(".csv") && !csv.hasPrefix(".") && !RecordingFiles.isOffloadManifest(csv, in: folder) {
            let base = String(csv.dropLast(4))
            let path = folder + "/" + csv
            guard isRegularFile(path) else { continue }
            // Metadata that says how the recording ended is final: the writer wrote it after
            // the last row. Without it, the writer's lock tells a recording being written
            // from one a power cut left for recovery. (A lock on an ended file is someone
            // else's brief one — recovery, or a child process that has not yet exec'd.)
            let loaded = RecordingFiles.loadMetadata(besides: path)
            var metadata: RecordingMetadata?
            if case .read(let m)? = loaded { metadata = m }
            guard let metadata, metadata.ending != .unfinished else {
                if SystemCalls.isLockedByWriter(path) {
                    inventory.inProgress.append(csv)
                    if let id = metadata?.recording.id, !id.isEmpty { inventory.inProgressRecordingIDs.append(id) }
                } else if RecordingRecovery.canRecover(folder: folder, name: csv) {
                    inventory.awaitingRecovery.append(csv)
                    if case .unreadable? = loaded { inventory.unreadableMetadata.append(csv) }
                } else {
                    inventory.unrecoverable.append(csv)
                }
                continue
            }
            var files: [(name: String, bytes: Int64)] = []
            var cache: String?
            for name in all.sorted() where name != csv && isSidecar(name, of: base) {
                if name == base + RecordingFiles.summaryCacheSuffix { cache = name; continue }
                if let size = fileSize(folder + "/" + name) { files.append((name, size)) }
            }
            guard let size = fileSize(path) else { continue }
            files.append((csv, size))
            let id = metadata.recording.id
            inventory.finished.append(FinishedPart(base: base, files: files, startEpoch: metadata.recording.startEpoch,
                                                   part: metadata.file.index, recordingID: id.isEmpty ? nil : id, cache: cache))
        }
        inventory.finished.sort { ($0.startEpoch, $0.part, $0.base) < ($1.startEpoch, $1.part, $1.base) }
        inventory.inProgress.sort()
        inventory.awaitingRecovery.sort()
        return inventory
    }

    /// `BASE.json`, `BASE.summary.json`, ...: same base, a dot, and not a temporary file.
    static func isSidecar(_ name: String, of base: String) -> Bool {
        guard name.hasPrefix(base + "."), !name.hasSuffix(".csv") else { return false }
        return !(name.hasSuffix(".tmp") || name.hasSuffix(".part"))
    }

    static func isRegularFile(_ path: String) -> Bool {
        (try? FileSystem.status(path, followLinks: false))?.kind == .regular
    }

    static func fileSize(_ path: String) -> Int64? {
        guard let st = try? FileSystem.status(path, followLinks: false), st.kind == .regular else { return nil }
        return st.size
    }
}
