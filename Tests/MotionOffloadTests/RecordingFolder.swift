import Foundation
import MotionTestSupport
import MotionCore
#if canImport(Glibc)
import Glibc
#endif

/// A recordings folder made for a test: CSVs in the format with metadata that the real
/// recovery code writes (so the metadata is what the recorder's code produces).
struct RecordingFolder {
    let path: String

    init() {
        path = ScratchFolder.make("offload")
    }

    /// A finished recording of `rows` A rows starting at `start`, named by `name`.
    @discardableResult
    func addFinished(_ name: String, start: Double, rows: Int) throws -> String {
        try addUnfinished(name, start: start, rows: rows)
        let report = RecordingRecovery.recover(folder: path, softwareVersion: "test")
        guard report.recovered.contains(where: { $0.name == name + ".csv" }) else {
            throw TestFailure("recovery did not complete \(name): \(report)")
        }
        return name + ".csv"
    }

    /// A recording that rotation split into `names.count` finished files (parts): each
    /// part's metadata has the same recording id, its part number, and all but the last
    /// end `rotated`, as the recorder writes them. Parts start an hour apart.
    func addRotated(_ names: [String], start: Double, rows: Int, id: String = UUID().uuidString) throws {
        for (k, name) in names.enumerated() {
            try addFinished(name, start: start + 3600 * Double(k), rows: rows)
            let path = RecordingFiles.metadataPath(for: self.path + "/" + name)
            var meta = try RecordingMetadata.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
            meta.recording.id = id
            meta.recording.startEpoch = start
            meta.file.index = k + 1
            meta.file.previous = k > 0 ? names[k - 1] + ".csv" : nil
            if k < names.count - 1 { meta.endReason = "rotated" }
            try Data(meta.encoded()).write(to: URL(fileURLWithPath: path))
        }
    }

    /// A CSV without metadata: a power cut that nothing recovered yet.
    @discardableResult
    func addUnfinished(_ name: String, start: Double, rows: Int) throws -> String {
        var text = String(decoding: CSVFormat.headerBytes, as: UTF8.self)
        for k in 0..<rows {
            text += "A,W,\((start * 100 + Double(k)) / 100),0.0\(k % 10),0.0,-1.0\n"
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: path + "/" + name + ".csv"))
        return name + ".csv"
    }

    func bytes(_ name: String) -> Data? { FileManager.default.contents(atPath: path + "/" + name) }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

/// SHA-256 by coreutils' sha256sum: an implementation independent of the one under test.
func sha256sum(_ path: String) throws -> String {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
    p.arguments = [path]
    let pipe = Pipe()
    p.standardOutput = pipe
    try p.run()
    let out = pipe.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return String(String(decoding: out, as: UTF8.self).prefix(64))
}

func files(in dir: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted()
}

/// A view of `folder` that this process may read but not change: the folder itself made
/// read-only for a user (chmod), or, for root (who writes anywhere), a read-only bind mount
/// of it. Nil where neither can be made (root without mount rights).
struct ReadOnlyView {
    let path: String
    private let mounted: Bool

    init?(_ folder: String) {
        guard getuid() == 0 else {
            guard chmod(folder, 0o555) == 0 else { return nil }
            path = folder
            mounted = false
            return
        }
        let view = ScratchFolder.make("read-only-view")
        guard Self.mount(["--bind", folder, view]) else { return nil }
        guard Self.mount(["-o", "remount,bind,ro", view]) else { _ = Self.mount(["-u", view], tool: "/bin/umount"); return nil }
        path = view
        mounted = true
    }

    func undo() {
        if mounted { _ = Self.mount([path], tool: "/bin/umount") } else { _ = chmod(path, 0o755) }
    }

    static func mount(_ arguments: [String], tool: String = "/bin/mount") -> Bool {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: tool)
        p.arguments = arguments
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return false }
        p.waitUntilExit()
        return p.terminationStatus == 0
    }
}

/// A small tmpfs mounted on a folder (root only): a stick that fills up for real.
struct SmallFileSystem {
    let path: String

    init?(bytes: Int) {
        guard getuid() == 0 else { return nil }
        let folder = ScratchFolder.make("small-fs")
        guard ReadOnlyView.mount(["-t", "tmpfs", "-o", "size=\(bytes)", "tmpfs", folder]) else { return nil }
        path = folder
    }

    func undo() { _ = ReadOnlyView.mount(["-l", path], tool: "/bin/umount") }
}
