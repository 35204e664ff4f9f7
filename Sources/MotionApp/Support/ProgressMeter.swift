import MotionSystem

/// A one-line progress display on stderr for commands that read files (`check`, `export`,
/// `fuse`, `calibrate --from`): shown only when stderr is a terminal, only once the work
/// has taken more than a second, redrawn at most four times a second, and erased at the
/// end so results and messages start on a clean line. Time and output are injected.
final class ProgressMeter {
    private let verb: String
    private let totalBytes: Int64
    private let enabled: Bool
    private let now: () -> Double
    private let output: (String) -> Void
    private let start: Double
    private var lastDrawn: Double?
    private var baseBytes: Int64 = 0
    private var item = ""

    /// - Parameters:
    ///   - verb: what is being done, e.g. `checking`.
    ///   - totalBytes: the sum of the sizes of the files to read.
    init(verb: String, totalBytes: Int64, enabled: Bool = Console.stderrIsTerminal,
         now: @escaping () -> Double = ProgressMeter.monotonicSeconds,
         output: @escaping (String) -> Void = Console.writeStderr) {
        self.verb = verb; self.totalBytes = max(1, totalBytes); self.enabled = enabled
        self.now = now; self.output = output
        start = now()
    }

    /// The meter for reading `paths` (their sizes summed).
    convenience init(verb: String, paths: [String]) {
        var total: Int64 = 0
        for p in paths {
            if let st = try? FileSystem.status(p) { total += st.size }
        }
        self.init(verb: verb, totalBytes: total)
    }

    /// Starts the next file; `bytesBefore` counts the files already done.
    func begin(_ name: String, bytesBefore: Int64) {
        item = name
        baseBytes = bytesBefore
    }

    /// Bytes read of the current file.
    func update(_ bytes: Int64) {
        guard enabled else { return }
        let t = now()
        guard t - start >= 1, lastDrawn.map({ t - $0 >= 0.25 }) ?? true else { return }
        lastDrawn = t
        let done = baseBytes + bytes
        let percent = min(100, Int(Double(done) * 100 / Double(totalBytes)))
        var name = item
        if name.count > 32 { name = "…" + name.suffix(31) }
        output("\r\u{1B}[K\(verb) \(name): \(percent) % (\(Self.megabytes(done)) of \(Self.megabytes(totalBytes)) MB)")
    }

    /// For readers that tell the file, the bytes before it and the bytes of it read so far
    /// (`RecordingAnalyzer.FilesProgress`).
    func told(_ path: String, _ bytesBefore: Int64, _ bytes: Int64) {
        begin(path, bytesBefore: bytesBefore)
        update(bytes)
    }

    /// Erases the line if it was drawn.
    func finish() {
        guard lastDrawn != nil else { return }
        lastDrawn = nil
        output("\r\u{1B}[K")
    }

    static func megabytes(_ bytes: Int64) -> String {
        let tenths = (bytes * 10 + 500_000) / 1_000_000
        return "\(tenths / 10).\(tenths % 10)"
    }

    static func monotonicSeconds() -> Double {
        Double(SystemClocks.monotonicNanos()) / 1e9
    }
}
