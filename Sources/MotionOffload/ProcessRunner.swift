import Foundation

/// The result of running a program: its exit status and what it printed.
public struct ProcessResult: Sendable, Equatable {
    public var status: Int32
    public var output: String
    public init(status: Int32, output: String) { self.status = status; self.output = output }
}

/// Runs external programs (`mount`, `blkid`, `rclone`); tests may substitute a script.
public protocol ProcessRunning: Sendable {
    /// Runs `executable` with `arguments` and this process's environment changed by
    /// `environment` (an empty value removes the variable), waits, and returns its status
    /// and combined output.
    func run(_ executable: String, _ arguments: [String], environment: [String: String]) -> ProcessResult
}

/// Runs programs with Foundation's `Process`, found on PATH or the usual system folders.
public struct SystemProcessRunner: ProcessRunning {
    public init() {}

    public func run(_ executable: String, _ arguments: [String], environment: [String: String]) -> ProcessResult {
        guard let path = Self.find(executable) else {
            return ProcessResult(status: 127, output: "\(executable) is not installed (apt-get install \(Self.package(of: executable)))")
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v.isEmpty ? nil : v }
        p.environment = env
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = pipe
        p.standardInput = FileHandle.nullDevice
        do { try p.run() } catch {
            return ProcessResult(status: 127, output: "cannot run \(path): \(error.localizedDescription)")
        }
        // Read while it runs, so a chatty program never blocks on a full pipe.
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        let status = p.terminationReason == .uncaughtSignal ? 128 + p.terminationStatus : p.terminationStatus
        return ProcessResult(status: status, output: String(decoding: data, as: UTF8.self))
    }

    static func find(_ name: String) -> String? {
        if name.hasPrefix("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let folders = path.split(separator: ":").map(String.init) + ["/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"]
        return folders.map { $0 + "/" + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func package(of program: String) -> String {
        switch program {
        case "mount", "umount", "blkid": return "mount util-linux"
        default: return program
        }
    }
}
