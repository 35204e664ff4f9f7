#if canImport(Glibc)
import Glibc
#endif

/// Writes to the terminal: messages on stderr, results on stdout.
enum Console {
    static func error(_ text: String) {
        let line = text.hasPrefix("motionlog") ? text : "motionlog: " + text
        writeStderr(line + "\n")
    }

    static func out(_ text: String) { print(text) }

    /// Raw text to stderr (status line), unbuffered.
    static func writeStderr(_ text: String) {
        var t = text
        t.withUTF8 { b in _ = write(2, b.baseAddress, b.count) }
    }

    static func flush() { fflush(nil) }

    static var stderrIsTerminal: Bool { isatty(2) == 1 }
}

func systemExit(_ code: Int32) -> Never { exit(code) }
