import ArgumentParser
import Foundation
import MotionConfig
import MotionSystem
import MotionWeb

/// `motionlog web-password`: asks for the web page's password and stores its bcrypt hash in
/// the config file's `web:` section (every other line and comment kept).
struct WebPasswordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "web-password",
        abstract: "Set the web page's password (stored as a bcrypt hash in the config file).",
        discussion: """
            Asks twice on a terminal; reads one line from standard input otherwise. At least 8 \
            characters, at most 72 bytes (bcrypt's limit). Needed before the page listens on any \
            address but loopback. Restart the daemon (or serve) to use it.
            """)

    @Option(name: .long, help: "Config file to write (default /etc/motionlog/config.yaml).")
    var config: String?

    func run() throws {
        let path = config ?? RecorderSettings.defaultPath
        let existing = FileManager.default.contents(atPath: path).flatMap { String(data: $0, encoding: .utf8) } ?? ""
        do { _ = try RecorderSettings.parse(text: existing, file: path) } catch {
            throw CommandFailure("\(error) — fix the config file first; nothing written", code: 2)
        }
        let password: String
        if Terminal.isTerminal(0) {
            guard let first = Self.ask("New web password: "), let second = Self.ask("Again: ") else {
                throw CommandFailure("no password entered; nothing written", code: 2)
            }
            guard first == second else { throw CommandFailure("the two passwords differ; nothing written", code: 2) }
            password = first
        } else {
            guard let line = readLine(strippingNewline: true) else { throw CommandFailure("no password on standard input; nothing written", code: 2) }
            password = line
        }
        guard password.count >= 8 else { throw CommandFailure("use at least 8 characters; nothing written", code: 2) }
        guard password.utf8.count <= 72 else { throw CommandFailure("bcrypt uses at most 72 bytes: choose a shorter password; nothing written", code: 2) }
        let hash = PasswordHash.make(password)
        let value = "\"\(hash)\"   # motionlog web-password"
        // Only the hash's line is written: the section's other keys (max_connections, ...)
        // and comments stay (the whole section was rewritten from `listen` alone).
        let text: String
        if let edited = ConfigFileEdit.setting("password_hash", to: value, inSection: "web", of: existing) {
            text = edited
        } else {
            let lines = ["web:", "  # listen: 0.0.0.0:8080   # the daemon serves the page when set (once a password is set, loopback asks for it too)",
                         "  password_hash: " + value]
            text = ConfigFileEdit.replacing(section: "web", in: existing, with: lines.joined(separator: "\n") + "\n")
        }
        do { try ConfigFileEdit.write(text, to: path) } catch { throw CommandFailure("\(error)", code: 2) }
        Console.out("Stored the web password's hash in \(path). Restart the daemon (or `motionlog serve`) to use it.")
    }

    /// Reads a line from the terminal without echo.
    static func ask(_ prompt: String) -> String? {
        FileHandle.standardError.write(Data(prompt.utf8))
        defer { FileHandle.standardError.write(Data("\n".utf8)) }
        return Terminal.withoutEcho { readLine(strippingNewline: true) }
    }
}
