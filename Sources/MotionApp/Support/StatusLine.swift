import Foundation
import MotionCore

/// The one-line live status on a terminal: elapsed, rows/s per source, drops, overruns,
/// current file. Redrawn once a second from its own thread; reads only atomic counters.
final class StatusLine: Sendable {
    private let counters: RecorderCounters
    private let rateHz: Int
    private let running = StopSignal()
    private let done = WakeSignal()

    init(counters: RecorderCounters, rateHz: Int) { self.counters = counters; self.rateHz = rateHz }

    func start() {
        let thread = Thread { [self] in
            var last = counters.produced.all
            var lastTime = SystemClock.monotonicNanos()
            while !running.isRequested {
                usleep(250_000)
                let now = SystemClock.monotonicNanos()
                guard now - lastTime >= 1_000_000_000 || running.isRequested else { continue }
                let current = counters.produced.all
                let seconds = Double(now - lastTime) / 1e9
                Console.writeStderr("\r\u{1B}[K" + Self.render(counters: counters, rateHz: rateHz, current: current,
                                                             previous: last, seconds: seconds))
                last = current
                lastTime = now
            }
            Console.writeStderr("\r\u{1B}[K")
            done.signal()
        }
        thread.name = "motionlog-status"
        thread.start()
    }

    func stop() {
        running.request()
        done.wait()
    }

    static func render(counters: RecorderCounters, rateHz: Int, current: [Source: Int64],
                       previous: [Source: Int64], seconds: Double) -> String {
        let ticks = counters.ticks.load(ordering: .relaxed) + counters.missedTicks.load(ordering: .relaxed)
        let elapsed = Int(Double(ticks) / Double(rateHz))
        let clock = String(format: "%02d:%02d:%02d", elapsed / 3600, (elapsed / 60) % 60, elapsed % 60)
        var parts = [clock]
        for s in Source.canonicalOrder {
            let n = (current[s] ?? 0) - (previous[s] ?? 0)
            if (current[s] ?? 0) > 0 { parts.append("\(s) \(Int((Double(n) / seconds).rounded()))/s") }
        }
        let dropped = counters.droppedRows.load(ordering: .relaxed) + counters.rowsLostToWriteErrors.load(ordering: .relaxed)
        parts.append("drops \(dropped)")
        parts.append("overruns \(counters.overruns.load(ordering: .relaxed))")
        if let f = counters.currentFile.withLock({ $0 }) { parts.append((f as NSString).lastPathComponent) }
        return parts.joined(separator: "  ")
    }
}
