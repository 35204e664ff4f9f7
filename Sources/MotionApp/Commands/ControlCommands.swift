import ArgumentParser
import Foundation
import MotionConfig
import MotionCore

/// Where the daemon's control socket is: `--socket`, else the config file's
/// `daemon.socket`, else `/run/motionlog/control.sock`.
struct ControlConnectionOptions: ParsableArguments {
    @Option(name: .long, help: "The daemon's control socket (default: config daemon.socket, else \(ControlClient.defaultSocket)).")
    var socket: String?

    @Option(name: .long, help: "Config file to read daemon.socket from (default /etc/motionlog/config.yaml if present).")
    var config: String?

    func socketPath() throws(CommandFailure) -> String {
        if let socket { return socket }
        do {
            return try ConfigLoader.load(explicit: config).daemon?.socket ?? ControlClient.defaultSocket
        } catch {
            throw .usage("\(error)")
        }
    }

    func send(_ request: ControlRequest) throws(CommandFailure) -> ControlReply {
        try ControlClient.send(request, socket: try socketPath())
    }
}

/// Prints a reply's message; a refused request exits 1.
private func conclude(_ reply: ControlReply) throws(CommandFailure) {
    if !reply.ok { throw CommandFailure(reply.message ?? "the daemon refused", code: 1) }
    if let m = reply.message { Console.out(m) }
}

/// `motionlog start`: asks the daemon to start recording.
struct StartCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "start", abstract: "Ask the daemon to start recording.")
    @OptionGroup var connection: ControlConnectionOptions

    func run() throws {
        let reply = try connection.send(ControlRequest(command: .start))
        try conclude(reply)
        if let s = reply.status { Console.out("recording at \(s.rateHz) Hz into \(s.outputFolder)") }
    }
}

/// `motionlog stop`: asks the daemon to stop; returns once the files are closed.
struct StopCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stop", abstract: "Ask the daemon to stop recording (returns when the files are closed).")
    @OptionGroup var connection: ControlConnectionOptions

    func run() throws {
        let reply = try connection.send(ControlRequest(command: .stop))
        try conclude(reply)
        if let files = reply.status?.lastFiles, !files.isEmpty { Console.out(files.joined(separator: "\n")) }
    }
}

/// `motionlog status [--json]`: the daemon's state and the live numbers of its recording.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the daemon's state: file, elapsed, rows/s, drops, overruns, GPS fix, clock, free space.")
    @OptionGroup var connection: ControlConnectionOptions

    @Flag(name: .long, help: "Print the daemon's status as JSON.")
    var json = false

    func run() throws {
        let reply = try connection.send(ControlRequest(command: .status))
        guard let status = reply.status else { throw CommandFailure(reply.message ?? "the daemon sent no status", code: 1) }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
            let data = try encoder.encode(status)
            Console.out(String(decoding: data, as: UTF8.self))
        } else {
            Console.out(status.rendered())
        }
    }
}

/// `motionlog label L`: sets the label of the rows from now on (also between recordings).
struct LabelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "label", abstract: "Set the label letter of the rows recorded from now on (e.g. W or T).")
    @OptionGroup var connection: ControlConnectionOptions

    @Argument(help: "One uppercase letter.")
    var label: String

    func validate() throws {
        if Label.parse(label) == nil { throw ValidationError("label \"\(label)\": use one uppercase letter, e.g. W or T") }
    }

    func run() throws {
        try conclude(try connection.send(ControlRequest(command: .label, label: label)))
    }
}
