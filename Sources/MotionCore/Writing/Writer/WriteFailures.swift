import Logging

/// The writer's failure bookkeeping: one error line per episode (and "writing works again"
/// when it ends), the first failure for the end-of-recording message, and the halt after a
/// failure no later write can overcome.
struct WriteFailures {
    let log: Logger
    private(set) var inEpisode = false
    /// The first failure (nil: none).
    private(set) var first: String?
    /// Set once the writer halted for good, with the end reason.
    private(set) var halted: String?

    init(log: Logger) { self.log = log }

    /// Remembers a failure and logs it if it starts an episode.
    mutating func record(_ message: String, metadata: Logger.Metadata? = nil) {
        if first == nil { first = message }
        if !inEpisode {
            log.error("\(message)", metadata: metadata)
            inEpisode = true
        }
    }

    /// A write succeeded: an episode, if any, is over.
    mutating func recovered(file: String) {
        guard inEpisode else { return }
        log.notice("writing works again", metadata: ["file": "\(file)"])
        inEpisode = false
    }

    /// Halts for good; true the first time (the caller then asks the recording to stop).
    mutating func halt(reason: String, message: String) -> Bool {
        guard halted == nil else { return false }
        halted = reason
        if first == nil { first = message }
        log.error("\(message): stopping the recording")
        return true
    }
}
