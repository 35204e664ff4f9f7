import Logging
import Synchronization

/// Logging setup: messages to stderr as `motionlog: level: message key=value`.
enum Logging {
    private static let bootstrapped = Mutex(false)

    static func motionlogLogger() -> Logger {
        bootstrapped.withLock { done in
            if !done {
                LoggingSystem.bootstrap { label in MessageLogHandler(label: label) }
                done = true
            }
        }
        return Logger(label: "motionlog")
    }
}

/// A log handler that prints one readable line per message to stderr.
struct MessageLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var all = metadata
        event.metadata?.forEach { all[$0.key] = $0.value }
        let tail = all.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
        Console.error("\(event.level): \(event.message)\(tail)")
    }
}
