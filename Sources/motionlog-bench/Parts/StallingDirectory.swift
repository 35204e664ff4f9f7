import MotionCore

/// When a `StallingDirectory` stalls: the first write at least `firstAfter` seconds after
/// the first write of the recording blocks for `length` seconds; later stalls come
/// `interval` seconds after the previous one ended, up to `count` stalls.
struct StallSchedule: Sendable, Codable {
    var length: Double
    var firstAfter: Double
    var interval: Double
    var count: Int
}

/// A storage sink that behaves like a microSD card with write stalls: a CSV write that is
/// due for a stall blocks in the kernel (an absolute `clock_nanosleep`) for the stall's
/// length, then completes. Bytes are discarded and counted. Metadata replaces never stall
/// (they are small and rare). Used from one thread at a time (the writer thread, or the
/// sampling thread of the inline baseline).
final class StallingDirectory: OutputDirectory {
    let path = "stalling-sink"
    let schedule: StallSchedule
    private let clock: TickClock
    private var nextStallAt: Int64?
    private(set) var stalls = 0
    private(set) var bytesWritten: Int64 = 0
    /// Longest write (including stalls), ns.
    private(set) var longestWriteNanos: Int64 = 0

    /// `clock` is the real clock in benchmarks; tests pass a simulated one (stalls then
    /// advance simulated time instead of sleeping).
    init(schedule: StallSchedule, clock: TickClock = SystemClock()) {
        self.schedule = schedule
        self.clock = clock
    }

    func createExclusive(base: String, ext: String) throws(OutputError) -> (base: String, file: OutputFile) {
        (base, StallingFile(directory: self))
    }

    func replace(name: String, contents: [UInt8]) throws(OutputError) {}
    /// Nothing is kept, so there is nothing to rename or remove.
    func rename(_ from: String, toBase base: String, ext: String) throws(OutputError) -> String { base }
    func remove(name: String) throws(OutputError) {}

    /// Called by each CSV write before its bytes are taken.
    fileprivate func write(byteCount: Int) {
        let start = clock.monotonicNow()
        if nextStallAt == nil { nextStallAt = start + Self.nanos(schedule.firstAfter) }
        if stalls < schedule.count, let due = nextStallAt, start >= due {
            let ended = clock.sleep(until: start + Self.nanos(schedule.length))
            stalls += 1
            nextStallAt = ended + Self.nanos(schedule.interval)
        }
        bytesWritten += Int64(byteCount)
        longestWriteNanos = max(longestWriteNanos, clock.monotonicNow() - start)
    }

    private static func nanos(_ seconds: Double) -> Int64 { Int64((seconds * 1e9).rounded()) }
}

/// A file of a `StallingDirectory`.
private final class StallingFile: OutputFile {
    private let directory: StallingDirectory
    init(directory: StallingDirectory) { self.directory = directory }
    func write(_ bytes: UnsafeRawBufferPointer) throws(OutputError) { directory.write(byteCount: bytes.count) }
    func sync() throws(OutputError) {}
    func truncate(to size: Int64) throws(OutputError) {}
    func close() throws(OutputError) {}
}
