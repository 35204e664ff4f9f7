/// What the LED shows. Each pattern is a cycle of on/off segments, so the level at any time
/// is a pure function of the time since the pattern began.
enum LEDPattern: String, Sendable, Equatable, Codable {
    /// Waiting: a short flash every 2 s (alive, not recording).
    case idle
    /// Recording: steadily on.
    case recording
    /// Recording while GPS has no fix: on, with a short gap every second.
    case recordingNoFix
    /// Stopping or shutting down: slow blink.
    case busy
    /// A recording failed or the card is (nearly) full, or an offload failed: fast blink.
    case error
    /// Copying to a USB stick: two short flashes every second.
    case offloading
    /// The copy to the stick is complete and it is unmounted: long on, short off (pull it out).
    case offloadDone
    /// The copy ended and the stick may be pulled out, but recordings did not fit on it
    /// (see `motionlog status`): long on, then three fast flashes.
    case offloadIncomplete
    case off

    /// The cycle as (on, milliseconds) segments.
    var segments: [(on: Bool, ms: Int64)] {
        switch self {
        case .idle: return [(true, 100), (false, 1900)]
        case .recording: return [(true, 1000)]
        case .recordingNoFix: return [(true, 900), (false, 100)]
        case .busy: return [(true, 250), (false, 250)]
        case .error: return [(true, 100), (false, 100)]
        case .offloading: return [(true, 100), (false, 150), (true, 100), (false, 650)]
        case .offloadDone: return [(true, 1800), (false, 200)]
        case .offloadIncomplete: return [(true, 1400), (false, 100), (true, 100), (false, 100), (true, 100), (false, 100), (true, 100), (false, 100)]
        case .off: return [(false, 1000)]
        }
    }

    private var cycleNanos: Int64 { segments.reduce(0) { $0 + $1.ms } * 1_000_000 }

    /// The level `elapsed` ns after the pattern began, and ns until it next changes (nil: never).
    func level(at elapsed: Int64) -> (on: Bool, nanosUntilChange: Int64?) {
        let segs = segments
        if segs.allSatisfy({ $0.on == segs[0].on }) { return (segs[0].on, nil) }
        var t = max(0, elapsed) % cycleNanos
        for s in segs {
            let length = s.ms * 1_000_000
            if t < length { return (s.on, length - t) }
            t -= length
        }
        return (segs[0].on, nil)
    }
}

/// Drives the LED from a pattern: remembers when the pattern began and what was written,
/// so the line is only touched when the level changes. Used by the daemon loop's thread.
struct LEDDriver {
    private(set) var pattern: LEDPattern?
    private var since: Int64 = 0
    private(set) var level: Bool?

    /// Shows `pattern` at time `now`; returns the level to write when it changed, and when
    /// the next change is due.
    mutating func update(_ pattern: LEDPattern, now: Int64) -> (write: Bool?, nextChange: Int64?) {
        if pattern != self.pattern {
            self.pattern = pattern
            since = now
        }
        let (on, until) = pattern.level(at: now - since)
        let write: Bool? = on != level ? on : nil
        level = on
        return (write, until.map { now + $0 })
    }
}
