import ArgumentParser
import MotionSystem

/// The `motionlog` command line: one subcommand per job.
public struct MotionLogCommand: ParsableCommand {
    public static let version = "0.1.0"

    public static let configuration = CommandConfiguration(
        commandName: "motionlog",
        abstract: "Record IMU and GPS sensors to MotionCollector CSV files.",
        discussion: """
            Shell completion: `make install` installs it for bash, zsh and fish; or run \
            `motionlog --generate-completion-script bash > ~/.local/share/bash-completion/completions/motionlog` \
            (or zsh, fish).
            """,
        version: "\(version) (commit \(BuildInfo.commit))",
        subcommands: [RecordCommand.self, CheckCommand.self, ExportCommand.self, BoardsCommand.self, ProbeCommand.self,
                      DaemonCommand.self, StartCommand.self, StopCommand.self, StatusCommand.self, LabelCommand.self,
                      FuseCommand.self, CalibrateCommand.self, SummaryCommand.self, ImportCommand.self, OffloadCommand.self,
                      ServeCommand.self, WebPasswordCommand.self])

    public init() {}
}

/// Runs the command line and exits with its status: 0 success, 1 a failed check or
/// recording, 2 a usage or I/O error.
public enum MotionLogMain {
    public static func main() -> Never {
        // First, before any thread exists: every thread inherits the blocked signals.
        SignalWatcher.launch()
        // A file size limit (`ulimit -f`) fails a write with EFBIG, as FAT32's 4 GiB does,
        // which every command reports (and the recorder answers with the next file),
        // instead of killing the process.
        Signals.ignoreFileSizeLimit()
        do {
            var command = try MotionLogCommand.parseAsRoot()
            try command.run()
            exit(0)
        } catch let failure as CommandFailure {
            if !failure.message.isEmpty { Console.error(failure.message) }
            exit(failure.code)
        } catch {
            let code = MotionLogCommand.exitCode(for: error)
            if code == .success {
                print(MotionLogCommand.fullMessage(for: error))
                exit(0)
            }
            Console.error(MotionLogCommand.fullMessage(for: error))
            exit(2)
        }
    }

    static func exit(_ code: Int32) -> Never { Console.flush(); systemExit(code) }
}

/// A command's failure: the message to print and the exit status.
public struct CommandFailure: Error, CustomStringConvertible {
    public var message: String
    public var code: Int32
    public init(_ message: String, code: Int32) { self.message = message; self.code = code }
    public static func usage(_ message: String) -> CommandFailure { CommandFailure(message, code: 2) }
    /// The message alone: interpolated into another sentence (the web page's 503 for a
    /// daemon that is gone), it read `CommandFailure(message: "…", code: 1)`.
    public var description: String { message }
}
