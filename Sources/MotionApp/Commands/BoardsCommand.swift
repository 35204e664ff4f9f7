import ArgumentParser
import Foundation
import MotionConfig

/// `motionlog boards`: lists the board definitions.
struct BoardsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "boards", abstract: "List the board definitions in boards/.")

    @Option(name: .long, help: "Folder with board files (default: installed or source-tree boards/).")
    var boardsDir: String?

    func run() throws {
        guard let catalog = BoardCatalog.locate(explicit: boardsDir, executablePath: ExecutablePath.current) else {
            throw CommandFailure("no boards folder found: pass --boards-dir or set MOTIONLOG_BOARDS", code: 2)
        }
        let (boards, errors) = catalog.all()
        Console.out("Boards in \(catalog.directory):")
        for b in boards {
            let gps = b.gpsd.map { " gps: \($0)" } ?? ""
            let bus = b.imu.bus.map { " bus \($0)" } ?? ""
            Console.out("  \(pad(b.name, 0).padding(toLength: 22, withPad: " ", startingAt: 0)) imu: \(b.imu.model)\(bus)\(gps)")
            if let d = b.description { Console.out("      \(d)") }
        }
        for e in errors { Console.error("\(e)") }
        if !errors.isEmpty { throw CommandFailure("", code: 1) }
    }
}

enum ExecutablePath {
    static var current: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}
