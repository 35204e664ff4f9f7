import Foundation
import MotionCore
import MotionSystem

/// The one-line live status on a terminal: elapsed, time left, rows/s per source, GPS fix,
/// drops, overruns, current file. Redrawn once a second from its own thread; reads only
/// the recorder's counters. The line always fits the terminal's width (read again at each
/// redraw), so it never wraps; log messages clear it first and it is drawn again below
/// them (`Console`). It is not drawn at the stop: rates over a partial second would be false.
final class StatusLine: Sendable {
    private let counters: RecorderCounters
    private let rateHz: Int
    private let duration: Double?
    private let recordsGPS: Bool
    private let running = StopSignal()
    private let done = WakeSignal()
    private let stopped = WakeSignal()

    init(counters: RecorderCounters, rateHz: Int, duration: Double? = nil, recordsGPS: Bool = false) {
        self.counters = counters; self.rateHz = rateHz; self.duration = duration; self.recordsGPS = recordsGPS
    }

    func start() {
        let thread = Thread { [self] in
            var last = counters.produced.all
            var lastTime = SystemClock.monotonicNanos()
            while !running.isRequested {
                if done.wait(timeout: 1) { break }       // stop() wakes it at once
                let now = SystemClock.monotonicNanos()
                let current = counters.produced.all
                let snapshot = snapshot(current: current, previous: last, seconds: Double(now - lastTime) / 1e9)
                Console.showStatus(Self.render(snapshot, width: Terminal.columns(fd: 2)))
                last = current
                lastTime = now
            }
            Console.showStatus(nil)
            stopped.signal()
        }
        thread.name = "motionlog-status"
        thread.start()
    }

    func stop() {
        running.request()
        done.signal()
        stopped.wait()
    }

    /// What one redraw shows.
    struct Snapshot: Equatable {
        var elapsedSeconds: Int
        /// Seconds to go with `--duration`, else nil.
        var remainingSeconds: Int?
        /// Rows per second by source, in canonical order.
        var rates: [(Source, Int)]
        /// "3D fix", "2D fix", "no fix", "no gpsd", "no receiver", "waiting"; nil when no GPS is recorded.
        var gps: String?
        var drops: Int64
        var overruns: Int64
        var file: String?

        static func == (a: Snapshot, b: Snapshot) -> Bool {
            a.elapsedSeconds == b.elapsedSeconds && a.remainingSeconds == b.remainingSeconds
                && a.rates.map(\.0) == b.rates.map(\.0) && a.rates.map(\.1) == b.rates.map(\.1)
                && a.gps == b.gps && a.drops == b.drops && a.overruns == b.overruns && a.file == b.file
        }
    }

    func snapshot(current: [Source: Int64], previous: [Source: Int64], seconds: Double) -> Snapshot {
        let ticks = counters.ticks.load(ordering: .relaxed) + counters.missedTicks.load(ordering: .relaxed)
        let elapsed = Double(ticks) / Double(rateHz)
        var rates: [(Source, Int)] = []
        for s in Source.canonicalOrder where (current[s] ?? 0) > 0 {
            let n = (current[s] ?? 0) - (previous[s] ?? 0)
            rates.append((s, seconds > 0 ? Int((Double(n) / seconds).rounded()) : 0))
        }
        var gps: String?
        if recordsGPS {
            if let text = counters.locationHealth.withLock({ $0 })?.statusText {
                gps = text
            } else {
                gps = (current[.location] ?? 0) > 0 ? "fix" : "waiting"
            }
        }
        return Snapshot(
            elapsedSeconds: Int(elapsed), remainingSeconds: duration.map { max(0, Int(($0 - elapsed).rounded(.up))) },
            rates: rates, gps: gps,
            drops: counters.droppedRows.load(ordering: .relaxed) + counters.rowsLostToWriteErrors.load(ordering: .relaxed),
            overruns: counters.overruns.load(ordering: .relaxed),
            file: counters.currentFile.withLock { $0 }.map { ($0 as NSString).lastPathComponent })
    }

    static func clock(_ seconds: Int) -> String {
        String(format: "%02d:%02d:%02d", seconds / 3600, (seconds / 60) % 60, seconds % 60)
    }

    /// The line, at most `width - 1` columns (the last column would wrap on some terminals).
    /// Parts are left out from the least useful until it fits: the file name, overruns, then
    /// the rates from the last source (the accelerometer's stays longest), GPS, drops, time left.
    static func render(_ s: Snapshot, width: Int) -> String {
        let rates = s.rates.map { "\($0.0) \($0.1)/s" }
        var shownRates = rates.count
        // (text, priority): lower priorities are dropped first; the rates part has priority 5.
        var parts: [(String, Int)] = [(clock(s.elapsedSeconds), 9)]
        if let left = s.remainingSeconds { parts.append(("\(clock(left)) left", 8)) }
        if let gps = s.gps { parts.append(("GPS \(gps)", 6)) }
        if !rates.isEmpty { parts.append((rates.joined(separator: " "), 5)) }
        parts.append(("drops \(s.drops)", 7))
        parts.append(("overruns \(s.overruns)", 4))
        if let f = s.file { parts.append((f, 3)) }
        let limit = max(1, width - 1)
        func joined() -> String { parts.map(\.0).joined(separator: "  ") }
        while joined().count > limit, parts.count > 1, let lowest = parts.indices.min(by: { parts[$0].1 < parts[$1].1 }) {
            if parts[lowest].1 == 5, shownRates > 1 {
                shownRates -= 1
                parts[lowest].0 = rates.prefix(shownRates).joined(separator: " ")
                continue
            }
            parts.remove(at: lowest)
        }
        let line = joined()
        return line.count > limit ? String(line.prefix(limit)) : line
    }
}
