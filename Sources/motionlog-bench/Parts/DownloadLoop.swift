import Foundation
import MotionSystem
import Synchronization

/// Downloads one URL again and again with curl on a thread of its own until stopped: the
/// concurrent download of the sampler figure. Each download runs to its end (curl's time
/// limit bounds it), so `stop()` returns within one download.
final class DownloadLoop: Sendable {
    struct Totals: Sendable {
        var downloads = 0
        var bytes: Int64 = 0
        var failures = 0
        var lastFailure: String?
        var seconds = 0.0
    }

    private let url: String
    private let expectedBytes: Int64
    private let scratch: String
    private let stopRequested = Atomic<Bool>(false)
    private let started = Atomic<Bool>(false)
    private let totals = Mutex<Totals>(Totals())
    private let finished = DispatchSemaphore(value: 0)

    init(url: String, expectedBytes: Int64, scratch: String) {
        self.url = url; self.expectedBytes = expectedBytes; self.scratch = scratch
    }

    func start() {
        guard !started.exchange(true, ordering: .relaxed) else { return }
        let thread = Thread { [self] in
            let began = Date()
            while !stopRequested.load(ordering: .relaxed) {
                var failure: String?
                do {
                    let p = try BackgroundProcess.start("curl", Curl.arguments(url, maxTime: 120), scratch: scratch)
                    let r = p.wait()
                    if let t = Curl.Timing(r.stdout), r.succeeded, t.status == 200, t.bytes == expectedBytes {
                        totals.withLock { $0.downloads += 1; $0.bytes += t.bytes }
                    } else {
                        failure = r.succeeded ? "answer: \(r.stdout.prefix(100))" : r.failure
                    }
                } catch {
                    failure = "\(error)"
                }
                if let failure {
                    let n = totals.withLock { t -> Int in
                        t.failures += 1
                        t.lastFailure = failure
                        return t.failures
                    }
                    if n >= 20 { break }
                    SystemClocks.sleep(nanos: 100_000_000)
                }
            }
            totals.withLock { $0.seconds = Date().timeIntervalSince(began) }
            finished.signal()
        }
        thread.name = "bench-download-loop"
        thread.start()
    }

    /// Asks the loop to end after the current download and waits for it.
    func stop() -> Totals {
        stopRequested.store(true, ordering: .relaxed)
        if started.load(ordering: .relaxed) { finished.wait() }
        return totals.withLock { $0 }
    }
}
