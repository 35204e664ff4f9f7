import Foundation
import MotionCore
import MotionSystem

/// Where an offload stands, written as JSON for the daemon (`status`, LED) while it runs.
public struct OffloadProgress: Codable, Sendable, Equatable {
    /// `copying` while it runs; at the end `done` (every finished recording is on the
    /// target), `incomplete` (nothing failed, but recordings were left behind on purpose:
    /// they did not fit, were too large for FAT32, or their name is taken on the target by
    /// other contents; the target may be removed, the copy is not whole) or `error`.
    public enum State: String, Codable, Sendable {
        case copying, done, incomplete, error
    }
    public var state: State
    /// What is copied to: the device (`/dev/sda1`) or the folder.
    public var target: String
    /// Recordings this run set out to copy and those wholly copied so far: the parts of a
    /// rotated recording are one recording. The totals (recordings, files, bytes) describe
    /// the same set: what was missing on the target when the run began, skipped parts
    /// included (they stay not done).
    public var recordingsDone: Int
    public var recordingsTotal: Int
    /// Files to copy (CSVs and the files beside them) and those copied so far (0 in a
    /// progress file written by a version that did not count them).
    public var filesDone = 0
    public var filesTotal = 0
    public var bytesDone: Int64
    public var bytesTotal: Int64
    /// The last problem, or the closing sentence when done.
    public var message: String?
    /// Process that writes it (the daemon ignores a file whose writer is gone while copying).
    public var pid: Int32
    /// Seconds since 1970 of this update.
    public var updated: Double

    public init(state: State, target: String, recordingsDone: Int = 0, recordingsTotal: Int = 0,
                filesDone: Int = 0, filesTotal: Int = 0,
                bytesDone: Int64 = 0, bytesTotal: Int64 = 0, message: String? = nil, pid: Int32, updated: Double) {
        self.state = state; self.target = target
        self.recordingsDone = recordingsDone; self.recordingsTotal = recordingsTotal
        self.filesDone = filesDone; self.filesTotal = filesTotal
        self.bytesDone = bytesDone; self.bytesTotal = bytesTotal
        self.message = message; self.pid = pid; self.updated = updated
    }

    enum CodingKeys: String, CodingKey {
        case state, target, recordingsDone, recordingsTotal, filesDone, filesTotal, bytesDone, bytesTotal, message, pid, updated
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        state = try c.decode(State.self, forKey: .state)
        target = try c.decode(String.self, forKey: .target)
        recordingsDone = try c.decode(Int.self, forKey: .recordingsDone)
        recordingsTotal = try c.decode(Int.self, forKey: .recordingsTotal)
        filesDone = try c.decodeIfPresent(Int.self, forKey: .filesDone) ?? 0
        filesTotal = try c.decodeIfPresent(Int.self, forKey: .filesTotal) ?? 0
        bytesDone = try c.decode(Int64.self, forKey: .bytesDone)
        bytesTotal = try c.decode(Int64.self, forKey: .bytesTotal)
        message = try c.decodeIfPresent(String.self, forKey: .message)
        pid = try c.decode(Int32.self, forKey: .pid)
        updated = try c.decode(Double.self, forKey: .updated)
    }

    /// `3 of 10 recordings (40 of 120 files), 45 %`: how far a copy is.
    public var countsText: String {
        "\(recordingsDone) of \(CountText.of(recordingsTotal, "recording"))"
            + (filesTotal > 0 ? " (\(filesDone) of \(CountText.of(filesTotal, "file")))" : "") + ", \(percent) %"
    }

    /// Whole percent of the bytes to copy, rounded down: 100 only when every file to copy
    /// was copied (also when there was nothing to copy).
    public var percent: Int {
        let filesLeft = filesDone < filesTotal
        guard bytesTotal > 0 else { return filesLeft ? 0 : 100 }
        let whole = Int(min(bytesDone, bytesTotal) * 100 / bytesTotal)
        return filesLeft || bytesDone < bytesTotal ? min(whole, 99) : whole
    }

    public func encoded() -> Data {
        let e = JSONEncoder()
        e.keyEncodingStrategy = .convertToSnakeCase
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? e.encode(self)) ?? Data()
    }

    public static func decode(_ data: Data) -> OffloadProgress? {
        let d = JSONDecoder()
        d.keyDecodingStrategy = .convertFromSnakeCase
        return try? d.decode(OffloadProgress.self, from: data)
    }

    /// Writes the progress to `path` atomically (temporary file and rename); a progress file
    /// that cannot be written never stops the offload.
    public func write(to path: String) {
        let tmp = path + ".\(pid).tmp"
        try? FileSystem.remove(tmp)
        // Created exclusively and never through a symlink someone planted in the folder.
        guard let fd = try? SystemCalls.open(tmp, .writeOnly, options: [.create, .exclusiveCreate],
                                             permissions: [.ownerReadWrite, .groupRead, .otherRead], operation: "write") else { return }
        let bytes = [UInt8](encoded())
        let ok = (try? SystemCalls.writeAll(fd, bytes, path: tmp)) != nil
        try? fd.close()
        if !ok || (try? FileSystem.rename(tmp, to: path)) == nil { try? FileSystem.remove(tmp) }
    }

    public static func read(from path: String) -> OffloadProgress? {
        FileManager.default.contents(atPath: path).flatMap(decode)
    }
}
