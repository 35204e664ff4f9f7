import MotionSystem
import Synchronization

/// Writes to the terminal: messages on stderr, results on stdout. While a live status line
/// is shown, a message first clears it and the line is drawn again below the message, so
/// the two never run into each other.
enum Console {
    static let stderr = StatusTerminal(write: writeStderr)

    /// Raw text to stderr, unbuffered (the progress meter of the file commands draws its own line).
    @Sendable static func writeStderr(_ text: String) { Terminal.writeStandardError(text) }

    static func error(_ text: String) {
        stderr.message(text.hasPrefix("motionlog") ? text : "motionlog: " + text)
    }

    static func out(_ text: String) { print(text) }

    /// Shows `line` as the live status on stderr (replacing the previous one); nil clears it.
    static func showStatus(_ line: String?) { stderr.showStatus(line) }

    static func flush() { Terminal.flushStandardStreams() }

    static var stderrIsTerminal: Bool { Terminal.isTerminal(2) }
}

/// A text stream that carries messages and, below them, one status line redrawn in place.
final class StatusTerminal: Sendable {
    private let status = Mutex<String?>(nil)
    private let write: @Sendable (String) -> Void

    init(write: @escaping @Sendable (String) -> Void) { self.write = write }

    /// A message line: clears the status line, writes the message, draws the status again.
    func message(_ line: String) {
        status.withLock { current in
            if let current { write("\r\u{1B}[K" + line + "\n" + current) } else { write(line + "\n") }
        }
    }

    /// Replaces the status line; nil clears it (nothing is written when none is shown: a
    /// stopped offload wrote the terminal's erase-line escape into a log file).
    func showStatus(_ line: String?) {
        status.withLock { current in
            if line == nil && current == nil { return }
            write("\r\u{1B}[K" + (line ?? ""))
            current = line
        }
    }
}

func systemExit(_ code: Int32) -> Never { CurrentProcess.exit(code) }
