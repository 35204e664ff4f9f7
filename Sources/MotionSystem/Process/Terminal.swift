#if canImport(Glibc)
import Glibc
#endif

/// The process's standard streams as the terminal sees them.
public enum Terminal {
    /// Writes `text` to standard error unbuffered (one `write(2)`, retried until all is out).
    public static func writeStandardError(_ text: String) {
        var t = text
        t.withUTF8 { b in
            var done = 0
            while done < b.count {
                let n = Glibc.write(2, b.baseAddress.map { $0 + done }, b.count - done)
                if n < 0 && Glibc.errno == EINTR { continue }
                if n <= 0 { return }
                done += n
            }
        }
    }

    /// Columns of the terminal on `fd` (TIOCGWINSZ), else `COLUMNS` of `environment` (nil:
    /// the process's), else 80.
    public static func columns(fd: Int32, environment: [String: String]? = nil) -> Int {
        var size = winsize()
        if ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        let text = environment.map { $0["COLUMNS"] } ?? getenv("COLUMNS").map { String(cString: $0) }
        if let c = text.flatMap({ Int($0) }), c > 0 { return c }
        return 80
    }

    /// True when the descriptor (0, 1, 2) is a terminal.
    public static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// Flushes every C stdio stream (Swift's `print` writes through stdout's buffer).
    public static func flushStandardStreams() { fflush(nil) }

    /// Runs `body` with standard input's echo turned off (reading a password), and puts
    /// the terminal back as it was.
    public static func withoutEcho<T>(_ body: () -> T) -> T {
        var old = termios()
        tcgetattr(0, &old)
        var quiet = old
        quiet.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(0, TCSANOW, &quiet)
        defer { tcsetattr(0, TCSANOW, &old) }
        return body()
    }
}
