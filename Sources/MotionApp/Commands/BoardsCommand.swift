import ArgumentParser
import Foundation
import MotionConfig

/// `motionlog boards`: lists the board definitions.
struct BoardsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "boards", abstract: "List the board definitions.",
        discussion: """
            Board files are read from the first boards folder found: --boards-dir (or the config \
            file's boards_dir), $MOTIONLOG_BOARDS, boards/ beside the executable, \
            <bin>/../share/motionlog/boards, /usr/local/share/motionlog/boards, \
            /usr/share/motionlog/boards, then the source checkout the binary sits in (.build/release/motionlog). The \
            simulator board is built into the binary; a file of the same name replaces it.
            """)

    @Option(name: .customLong("boards-dir"), help: "Folder with board files (default: searched, see below).")
    var boardsDir: String?

    func run() throws {
        let catalog = try Self.catalog(explicit: boardsDir, settings: RecorderSettings())
        let (boards, errors) = catalog.all()
        Console.out(catalog.directory.map { "Boards in \($0):" } ?? "No boards folder found; built-in boards:")
        for b in boards {
            // The simulator drives its scripted route; its gpsd address is used with --gpsd only.
            let simulated = b.imu.model == .simulated
            let gps = b.gpsd.map { simulated ? " gps: simulated (with --gpsd: \($0))" : " gps: \($0)" } ?? ""
            let bus = b.imu.bus.map { " bus \($0)" } ?? ""
            let builtIn = b.file.hasPrefix("<built-in>") ? " (built in)" : ""
            Console.out("  \(b.name.padding(toLength: 22, withPad: " ", startingAt: 0)) imu: \(b.imu.model)\(bus)\(gps)\(builtIn)")
            if let d = b.description { Console.out("      \(d)") }
        }
        for e in errors { Console.error("\(e)") }
        if !errors.isEmpty { throw CommandFailure("", code: 1) }
    }

    /// The boards folder from `--boards-dir`, else the config's `boards_dir`, else the search
    /// path; a folder named but missing is a usage error (named with the config file and
    /// line, when the config named it).
    static func catalog(explicit: String?, settings: RecorderSettings) throws(CommandFailure) -> BoardCatalog {
        do {
            return try BoardCatalog.locate(explicit: explicit ?? settings.boardsDir, executablePath: ExecutablePath.current)
        } catch {
            let source = explicit != nil ? "--boards-dir "
                : settings.boardsDir != nil ? (settings.file.map { "\($0):\(settings.boardsDirLine.map(String.init) ?? "?"): " } ?? "") + "boards_dir "
                : ""
            throw .usage("\(source)\(error.file): \(error.message)")
        }
    }
}

enum ExecutablePath {
    static var current: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}
