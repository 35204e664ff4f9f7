import Foundation
import MotionSystem

/// Where an offload stands, written as JSON for the daemon (`status`, LED) while it runs.
public struct OffloadProgress: Codable, Sendable, Equatable {
    public enum State: String, Codable, Sendable {
        case copying, done, error
    }
    public var state: State
    /// What is copied to: the device (`/dev/sda1`) or the folder.
    public var target: String
    public var recordingsDone: Int
    public var recordingsTotal: Int
    public var bytesDone: Int64
    public var bytesTotal: Int64
    /// The last problem, or the closing sentence when done.
    public var message: String?
    /// Process that writes it (the daemon ignores a file whose writer is gone while copying).
    public var pid: Int32
    /// Seconds since 1970 of this update.
    public var updated: Double

    public init(state: State, target: String, recordingsDone: Int = 0, recordingsTotal: Int = 0,
                bytesDone: Int64 = 0, bytesTotal: Int64 = 0, message: String? = nil, pid: Int32, updated: Double) {
        self.state = state; self.target = target
        self.recordingsDone = recordingsDone; self.recordingsTotal = recordingsTotal
        self.bytesDone = bytesDone; self.bytesTotal = bytesTotal
        self.message = message; self.pid = pid; self.updated = updated
    }

    /// Whole percent of the bytes to copy (100 when there is nothing to copy).
    public var percent: Int { bytesTotal > 0 ? Int(bytesDone * 100 / bytesTotal) : 100 }

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
