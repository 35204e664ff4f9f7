/// A transform applied to a recording's rows while it is rewritten: rows in, rows out, in
/// time order (`fuse`'s D-row recomputation is one).
public protocol RowRewriting {
    /// Takes one input row; emits the rows it completes.
    mutating func push(_ row: Row, _ emit: (Row) -> Void)
    /// Emits whatever is still held at the end of the input.
    mutating func finish(_ emit: (Row) -> Void)
}

/// What rewriting one recording did.
public struct RewriteResult: Sendable {
    /// The first ten problems the reader reported; the rest are counted in `moreProblems`.
    public var problems: [RecordingProblem] = []
    public var moreProblems = 0
    public var rowsWritten = 0
    public var rowsBySource: [String: Int] = [:]
    public var bytesWritten: Int64 = 0
    public var firstWhen: Double?
    public var lastWhen: Double?
    /// Label letters in order of first appearance.
    public var labels: [UInt8] = []
    /// Input lines that gave no row (defective).
    public var skippedLines = 0
    /// Rows left out because their When did not increase for their source.
    public var outOfOrderRows = 0
    public var firstOutOfOrder: RecordingProblem?
}

/// Why a rewrite stopped: the input could not be read, or the output not written.
public struct RewriteError: Error, Sendable, CustomStringConvertible {
    public var description: String
}

/// Streams a recording through a `RowRewriting` into a new file (a `SafeOutputFile`, which
/// the caller commits). Rows whose When does not increase for their source are left out, so
/// the output passes `check`; memory stays bounded (1 MiB of output is buffered).
public enum RecordingRewrite {
    public static func rewrite<R: RowRewriting>(input: String, output: SafeOutputFile, through rewriter: inout R,
                                                progress: ((Int64) -> Void)? = nil) throws(RewriteError) -> RewriteResult {
        var result = RewriteResult()
        var buffer = CSVFormat.headerBytes
        buffer.reserveCapacity(1 << 20)
        var writeError: SafeOutputError?
        func drain(force: Bool) {
            guard writeError == nil, force || buffer.count >= 1 << 20 else { return }
            do { try output.write(buffer) } catch { writeError = error }
            result.bytesWritten += Int64(buffer.count)
            buffer.removeAll(keepingCapacity: true)
        }
        func emit(_ row: Row) {
            RowEncoder.append(row, to: &buffer)
            result.rowsWritten += 1
            result.rowsBySource[String(row.source.letter), default: 0] += 1
            if result.firstWhen == nil { result.firstWhen = row.when }
            result.lastWhen = row.when
            if result.labels.last != row.label, !result.labels.contains(row.label) { result.labels.append(row.label) }
            drain(force: false)
        }
        var lastWhen: [Source: Double] = [:]
        do {
            let summary = try RecordingReader(path: input).read(progress: progress) { item in
                switch item {
                case .row(let line, let row):
                    if let last = lastWhen[row.source], !(row.when > last) {
                        result.outOfOrderRows += 1
                        if result.firstOutOfOrder == nil {
                            result.firstOutOfOrder = RecordingProblem(
                                line: line, severity: .warning,
                                message: "\(row.source) When \(row.when) is not after the previous \(row.source) row's \(last)")
                        }
                        return
                    }
                    lastWhen[row.source] = row.when
                    rewriter.push(row, emit)
                case .problem(let p):
                    if result.problems.count < 10 { result.problems.append(p) } else { result.moreProblems += 1 }
                }
            }
            result.skippedLines = summary.skippedLines
        } catch {
            throw RewriteError(description: "\(error)")
        }
        rewriter.finish(emit)
        drain(force: true)
        if let writeError { throw RewriteError(description: "\(writeError)") }
        return result
    }
}
