import MotionSystem

/// Per-source statistics of one checked file.
public struct SourceStatistics: Sendable, Equatable {
    public var rows = 0
    public var firstWhen = Double.nan
    public var lastWhen = Double.nan
    /// The earliest and latest When (time may go backwards in a defective file).
    public var earliestWhen = Double.infinity
    public var latestWhen = -Double.infinity
    /// Seconds from the earliest to the latest row (first to last read "-1.00 s" where time
    /// went backwards).
    public var span: Double { rows > 1 ? latestWhen - earliestWhen : 0 }
    /// Rows per second measured over the span (nil for fewer than two rows).
    public var measuredRate: Double? { rows > 1 && span > 0 ? Double(rows - 1) / span : nil }
}

/// The outcome of validating one recording file (`motionlog check`).
public struct CheckReport: Sendable {
    public var path: String
    /// The problems listed, at most `maxProblems` of them, in line order.
    public var problems: [RecordingProblem] = []
    /// Problems found beyond the ones listed, by severity.
    public var unlistedErrors = 0, unlistedWarnings = 0
    public var sources: [Source: SourceStatistics] = [:]
    /// Every error found, listed or not.
    public var errors: Int { problems.filter { $0.severity == .error }.count + unlistedErrors }
    /// Every warning found, listed or not.
    public var warnings: Int { problems.filter { $0.severity == .warning }.count + unlistedWarnings }
    public var unlisted: Int { unlistedErrors + unlistedWarnings }
    public var isValid: Bool { errors == 0 }
}

/// Validates recordings against docs/FORMAT.md: header, field counts per source, numbers,
/// value ranges, labels, When strictly increasing per source, no binary data, and not
/// shorter than its metadata says it was when it was closed (`CutShortFile`). Every problem
/// carries its line number.
public enum RecordingCheck {
    /// Checks one file. Throws only when the file cannot be read at all.
    public static func check(path: String, maxProblems: Int = 1000,
                             progress: ((Int64) -> Void)? = nil) throws(RecordingReadError) -> CheckReport {
        var report = CheckReport(path: path)
        // Per source by `Source.order` while reading (no hashing per row); `report.sources`
        // after.
        var statistics = [SourceStatistics?](repeating: nil, count: Source.canonicalOrder.count)
        var lastLine = [Int](repeating: 0, count: Source.canonicalOrder.count)
        func add(_ p: RecordingProblem) {
            if report.problems.count < maxProblems {
                report.problems.append(p)
            } else if p.severity == .error {
                report.unlistedErrors += 1
            } else {
                report.unlistedWarnings += 1
            }
        }
        let read = try RecordingReader(path: path).read(progress: progress) { item in
            switch item {
            case .problem(let p): add(p)
            case .row(let line, let row):
                let k = row.source.order
                var s = statistics[k] ?? SourceStatistics()
                if s.rows > 0 && !(row.when > s.lastWhen) {
                    add(.init(line: line, severity: .error,
                              message: "\(row.source) When \(row.when) does not increase (previous \(row.source) row, line \(lastLine[k]), has \(s.lastWhen))"))
                }
                if s.rows == 0 { s.firstWhen = row.when }
                s.rows += 1
                s.lastWhen = row.when
                s.earliestWhen = min(s.earliestWhen, row.when)
                s.latestWhen = max(s.latestWhen, row.when)
                lastLine[k] = line
                statistics[k] = s
            }
        }
        for source in Source.canonicalOrder { if let s = statistics[source.order] { report.sources[source] = s } }
        if case .unreadable(let why)? = RecordingFiles.loadMetadata(besides: path) {
            let name = RecordingFiles.metadataPath(for: String(path.split(separator: "/").last ?? Substring(path)))
            add(.init(line: 1, severity: .warning,
                      message: "\(name) cannot be read: \(why); the file is checked without it (its rows are not compared with the counts it held)"))
        }
        if let cut = cutShort(path: path, report: report, bytesRead: read.stoppedAtBinary ? nil : read.bytes) {
            add(.init(line: max(1, read.lines), severity: .error,
                      message: cut.sentence(subject: String(path.split(separator: "/").last ?? Substring(path)))))
        }
        return report
    }

    /// The file against its metadata's `file.bytes` and `file.rows` (nil without metadata,
    /// or when it is not cut short). `bytesRead` is the file's size when the read reached
    /// its end; otherwise the size is asked for.
    static func cutShort(path: String, report: CheckReport, bytesRead: Int64?) -> CutShortFile? {
        guard let meta = RecordingFiles.readMetadata(besides: path),
              let bytes = bytesRead ?? (try? FileSystem.status(path).size) else { return nil }
        let last = report.sources.values.map(\.lastWhen).filter(\.isFinite).max()
        return CutShortFile(metadata: meta, fileBytes: bytes, fileRows: report.sources.mapValues(\.rows), fileLastWhen: last)
    }
}
