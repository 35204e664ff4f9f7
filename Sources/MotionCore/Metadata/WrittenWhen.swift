/// The When range a recorder wrote into one file, from the file's metadata: its first and
/// last row's (`file.firstWhen`, `file.lastWhen`), `marginSeconds` wider, as written in the
/// file. A row after it, or an IMU row before it, was changed after recording (a damaged
/// When): the analysis and the web page's charts leave it out (docs/ANALYSIS.md, "Time
/// order"). `L` rows are not held to the first row's When: they carry GPS time, which lies
/// before the first tick's under a system clock set ahead.
public struct WrittenWhen: Sendable, Equatable {
    /// The file's first and last row's When, and the range admitted.
    public let first: Double, last: Double
    public var low: Double { first - Self.marginSeconds }
    public var high: Double { last + Self.marginSeconds }
    public static let marginSeconds = 60.0

    /// Nil unless the file was closed cleanly (one still being written grows past its
    /// metadata) and its metadata gives both times.
    public init?(_ metadata: RecordingMetadata?) {
        guard let metadata, metadata.endedCleanly, let first = metadata.file.firstWhen, let last = metadata.file.lastWhen,
              first.isFinite, last.isFinite, first <= last else { return nil }
        self.first = first
        self.last = last
    }

    init(first: Double, last: Double) { self.first = first; self.last = last }

    /// Admits every row: for a file without such metadata.
    public static let everything = WrittenWhen(first: -.infinity, last: .infinity)

    /// The same range with `offset` added (for Whens read with a relative file's start added).
    public func shifted(by offset: Double) -> WrittenWhen { WrittenWhen(first: first + offset, last: last + offset) }

    /// Whether a row of `source` stamped `when` (as written in the file) can be one the
    /// recorder wrote.
    @inline(__always)
    public func admits(_ source: Source, _ when: Double) -> Bool { when <= high && (when >= low || source == .location) }
}
