import Logging
import Synchronization

/// The messages logged through `logger`, for tests that check what the server logs.
final class LogLines: Sendable {
    private let lines = Mutex<[(level: Logger.Level, message: String)]>([])

    var all: [String] { lines.withLock { $0.map(\.message) } }
    /// Each message with its level.
    var leveled: [(level: Logger.Level, message: String)] { lines.withLock { $0 } }

    func count(_ message: String) -> Int { all.filter { $0 == message }.count }

    var logger: Logger { Logger(label: "test") { _ in Handler(lines: self) } }

    /// Hands every message at any level to a `LogLines`.
    struct Handler: LogHandler {
        let lines: LogLines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            lines.lines.withLock { $0.append((event.level, event.message.description)) }
        }
    }
}
