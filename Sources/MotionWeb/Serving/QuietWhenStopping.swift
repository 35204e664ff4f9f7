import Logging
import Synchronization

/// Set once a web server is told to stop (`RunningWebServer.stop`).
final class StopFlag: Sendable {
    private let raised = Atomic(false)
    var isRaised: Bool { raised.load(ordering: .acquiring) }
    func raise() { raised.store(true, ordering: .releasing) }
}

/// The server's log handler: what Hummingbird and NIO log as errors once the server was
/// told to stop ("Waiting on child channel: CancellationError()", "Server shutdown error:
/// Already closed") is what stopping by cancellation looks like to them, not a fault; it
/// goes on at debug level, so a clean `systemctl stop` leaves no error in the journal.
/// Everything else passes as it is.
struct QuietWhenStopping: LogHandler {
    var inner: any LogHandler
    let stopping: StopFlag

    var metadata: Logger.Metadata {
        get { inner.metadata }
        set { inner.metadata = newValue }
    }

    var logLevel: Logger.Level {
        get { inner.logLevel }
        set { inner.logLevel = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { inner[metadataKey: key] }
        set { inner[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        var event = event
        if event.level >= .error && stopping.isRaised { event.level = .debug }
        guard event.level >= inner.logLevel else { return }
        inner.log(event: event)
    }
}
