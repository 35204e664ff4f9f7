import Foundation
import MotionTestSupport

/// Runs the built `motionlog` binary (next to the test bundle) and captures its output.
struct Binary {
    static var path: String {
        let here = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [here, here.deletingLastPathComponent()] {
            let p = candidate.appendingPathComponent("motionlog").path
            if FileManager.default.isExecutableFile(atPath: p) { return p }
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/motionlog").path
    }

    struct Result { var status: Int32; var stdout: String; var stderr: String }

    static func run(_ arguments: [String]) throws -> Result { try run(via: path, arguments) }

    static func temporaryDirectory() -> String { ScratchFolder.make("cli") }

    /// Copies the binary to `destination` through a close-on-exec descriptor. With
    /// `FileManager.copyItem` a test starting a process at the same moment could inherit
    /// the copy's write descriptor, and running the copy then failed with "Text file busy"
    /// for as long as that process lived.
    static func copy(to destination: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let fd = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o755)
        guard fd >= 0 else { throw CocoaError(.fileWriteUnknown) }
        defer { close(fd) }
        let written = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == data.count else { throw CocoaError(.fileWriteUnknown) }
    }

    /// A simulator recording made with `--fast --quiet` and the options `extra` in a new
    /// folder: the path of its first CSV (its metadata beside it).
    static func recordSimulated(_ extra: [String]) throws -> String {
        let out = temporaryDirectory()
        let r = try run(["record", "--board", "simulator", "--fast", "--out", out, "--quiet"] + extra)
        guard r.status == 0, let csv = csvFiles(in: out).first else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "record failed (\(r.status)): \(r.stderr)"])
        }
        return csv
    }

    static func csvFiles(in dir: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.hasSuffix(".csv") }.sorted()
            .map { dir + "/" + $0 }
    }
}

final class DataBox: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func set(_ d: Data) { lock.lock(); data = d; lock.unlock() }
    func get() -> Data { lock.lock(); defer { lock.unlock() }; return data }
}
