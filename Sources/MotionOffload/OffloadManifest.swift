import Foundation
import MotionCore
import MotionSystem
import SystemPackage

/// The manifest of a target folder, `manifest.csv`: one line per file copied there and
/// verified, `file,size_bytes,sha256,copied_at` (ISO 8601 UTC). Lines are appended and
/// flushed after each recording, so a stick pulled at any moment keeps a true manifest
/// (at worst a torn last line, which is ignored and written again).
public struct OffloadManifest: Sendable {
    public static let fileName = RecordingFiles.offloadManifestName
    public static let header = RecordingFiles.offloadManifestHeader

    /// A verified copy listed in the manifest.
    public struct Entry: Sendable, Equatable {
        public var file: String
        public var bytes: Int64
        public var sha256: String
        public var copiedAt: String
    }

    public private(set) var entries: [String: Entry] = [:]
    let folder: String

    /// Reads the manifest in `folder` (none yet: empty).
    public init(folder: String) {
        self.folder = folder
        guard let data = FileManager.default.contents(atPath: folder + "/" + Self.fileName) else { return }
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let f = line.split(separator: ",", omittingEmptySubsequences: false)
            guard f.count == 4, let bytes = Int64(f[1]), f[2].count == 64 else { continue }
            entries[String(f[0])] = Entry(file: String(f[0]), bytes: bytes, sha256: String(f[2]), copiedAt: String(f[3]))
        }
    }

    /// An existing manifest that cannot be appended to (owned by another user, read-only)
    /// refuses the target before anything is copied: the copies would not be listed.
    func checkWritable() throws(OffloadError) {
        let path = folder + "/" + Self.fileName
        guard FileManager.default.fileExists(atPath: path) else { return }
        let fd = try SystemCalls.open(path, .writeOnly, options: [.append], operation: "write the manifest")
        try? fd.close()
    }

    /// Appends `copied` and flushes the manifest and its folder.
    mutating func append(_ copied: [CopiedFile], at date: Date) throws(OffloadError) {
        let path = folder + "/" + Self.fileName
        let fd = try SystemCalls.open(path, .readWrite, options: [.create, .append],
                                      permissions: [.ownerReadWrite, .groupRead, .otherRead], operation: "write the manifest")
        defer { try? fd.close() }
        let size = (try? fd.status())?.size
        var text = ""
        if size == 0 { text += Self.header + "\n" }
        // A torn last line (stick pulled while appending) gets its own line end first.
        if let size, size > 0, let last = lastByte(fd: fd, size: size), last != UInt8(ascii: "\n") { text += "\n" }
        let stamp = Self.timestamp(date)
        for c in copied {
            text += "\(c.name),\(c.bytes),\(c.sha256),\(stamp)\n"
            entries[c.name] = Entry(file: c.name, bytes: c.bytes, sha256: c.sha256, copiedAt: stamp)
        }
        let bytes = Array(text.utf8)
        try SystemCalls.writeAll(fd, bytes, path: path)
        try SystemCalls.fsync(fd, path: path)
        try SystemCalls.fsync(SystemCalls.openDirectory(folder))
    }

    private func lastByte(fd: FileDescriptor, size: Int64) -> UInt8? {
        var b: [UInt8] = [0]
        let n = try? b.withMutableBytes { (raw) throws(Errno) -> Int in try fd.readSome(into: raw, at: size - 1) }
        return n == 1 ? b[0] : nil
    }

    static func timestamp(_ date: Date) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        f.timeZone = TimeZone(identifier: "UTC")
        return f.string(from: date)
    }
}
