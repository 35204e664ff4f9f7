import MotionSystem
import SystemPackage

/// A defect or oddity found while reading a recording, with the line it is on.
public struct RecordingProblem: Sendable, Equatable, CustomStringConvertible {
    public enum Severity: String, Sendable { case error, warning }
    public var line: Int
    public var severity: Severity
    public var message: String

    public init(line: Int, severity: Severity, message: String) {
        self.line = line; self.severity = severity; self.message = message
    }

    public var description: String { "line \(line): \(severity.rawValue): \(message)" }
}

/// What the reader found on one line.
public enum RecordingItem: Sendable {
    /// A valid data row (it may still carry warnings, reported separately).
    case row(line: Int, Row)
    case problem(RecordingProblem)
}

/// Why a recording could not be read at all.
public struct RecordingReadError: Error, CustomStringConvertible {
    public var path: String
    public var errno: Errno
    public init(path: String, errno: Errno) { self.path = path; self.errno = errno }
    public var description: String {
        var text = "cannot read \(path): \(errno)"
        switch errno {
        case .noSuchFileOrDirectory: text += " — check the name (`ls` the folder)"
        case .permissionDenied: text += " — you may not read it: ask its owner, or use sudo"
        case .isDirectory: text += " — give the .csv files in it, e.g. \(path)/*.csv"
        case .illegalSeek: text = "cannot read \(path): not a regular file (a FIFO, socket or device) — give a recording's .csv"
        case .ioError: text += " — the storage reported an I/O error: the card may be failing"
        default: break
        }
        return text
    }
}

/// What one read of a file saw, for commands that report what they skipped.
public struct RecordingReadSummary: Sendable, Equatable {
    /// Lines in the file, the header and a torn last line included.
    public var lines = 0
    /// Valid data rows handed on.
    public var rows = 0
    /// Data lines that gave no row (defective, out of range, torn, binary).
    public var skippedLines: Int { max(0, lines - rows - (lines > 0 ? 1 : 0)) }
    /// Bytes read.
    public var bytes: Int64 = 0
    /// True when reading stopped at binary data (before the header, or more than
    /// `BinaryRun.maxBytes` of it without a valid row).
    public var stoppedAtBinary = false
}

/// Reads MotionCollector CSV files (docs/FORMAT.md) as a stream of rows and problems. The
/// one reader shared by every command that reads recordings (`check`, `export`, `fuse`,
/// `calibrate --from`).
///
/// Memory is bounded independent of the file's size and of its line lengths: the file is
/// read in chunks, and a line longer than `CSVFormat.maxLineBytes` is an error as soon as
/// the limit is crossed (its bytes are skipped up to the next LF, never stored).
///
/// It never crashes on bad input: each defective line becomes a problem with its line
/// number. A last line without its LF (a power cut mid-write) is reported as a warning
/// and not used; a file with no LF at all is not a recording. A control character other
/// than TAB and CR (e.g. a NUL byte) means binary data: the reader reports the binary range
/// (`BinaryRun`: its bytes and the lines up to the next valid row) as one problem and goes
/// on at that row. Binary data before the header, or a run of more than
/// `BinaryRun.maxBytes` without a valid row (a file that is not a recording), stops it.
/// A first line that is not the header byte for byte is an error, read as `summary` reads
/// it (`FirstLine`): the header spaced differently as the header, a data row (no header)
/// as a row, so both count the same rows.
public struct RecordingReader {
    public let path: String
    /// Bytes read per system call.
    public var chunkBytes = 1 << 18

    public init(path: String) { self.path = path }

    /// Reads the whole file, calling `handle` for every row and problem in file order and
    /// `progress` with the bytes read so far after every chunk. When `until` returns true
    /// after a chunk, reading ends there (the rest of the file is not looked at, so the
    /// summary's counts are of the part read).
    @discardableResult
    public func read(progress: ((Int64) -> Void)? = nil, until shouldStop: (() -> Bool)? = nil,
                     _ handle: (RecordingItem) -> Void) throws(RecordingReadError) -> RecordingReadSummary {
        let fd: FileDescriptor
        do { fd = try FileSystem.openForReading(path) } catch {
            throw RecordingReadError(path: path, errno: error)
        }
        defer { try? fd.close() }
        var summary = RecordingReadSummary()
        var parser = LineParser()
        let limit = CSVFormat.maxLineBytes
        var pending: [UInt8] = []
        pending.reserveCapacity(limit)
        // The line being read crossed `limit` (already counted) / holds binary data.
        var overlong = false, binaryLine = false
        // Binary data and the lines after it up to the next valid row (`BinaryRun`).
        var run: BinaryRun?
        var chunk = [UInt8](repeating: 0, count: max(64, chunkBytes))
        func count(_ item: RecordingItem) {
            if case .row = item { summary.rows += 1 }
            handle(item)
        }
        /// A complete line without binary data: read, or in a run the end of it when it is a row.
        func line<Bytes: Collection<UInt8>>(_ bytes: Bytes) {
            guard let r = run else { parser.parse(bytes, count); return }
            if let items = parser.resume(bytes) {
                parser.binary(r, resumedAt: parser.lineNumber, count)
                run = nil
                items.forEach(count)
            }
        }
        reading: while true {
            let n: Int
            do { n = try chunk.withMutableBytes { (raw) throws(Errno) -> Int in try fd.readSome(into: raw) } } catch {
                throw RecordingReadError(path: path, errno: error)
            }
            if n == 0 { break }
            let base = summary.bytes
            summary.bytes += Int64(n)
            var stop: (offset: Int64, run: BinaryRun?)?
            chunk.withUnsafeBufferPointer { buf in
                var start = 0
                for i in 0..<n {
                    let b = buf[i]
                    guard b < 0x20 || b == 0x7F else { continue }
                    if b == CSVFormat.newline {
                        if overlong {
                            overlong = false
                        } else if binaryLine {
                            parser.skip()
                        } else if pending.count + (i - start) > limit {
                            if run == nil { parser.tooLong(limit: limit, count) } else { parser.skip() }
                        } else if pending.isEmpty {
                            line(UnsafeBufferPointer(rebasing: buf[start..<i]))
                        } else {
                            pending.append(contentsOf: UnsafeBufferPointer(rebasing: buf[start..<i]))
                            line(pending)
                        }
                        binaryLine = false
                        pending.removeAll(keepingCapacity: true)
                        start = i + 1
                    } else if b != 0x09 && b != 0x0D {
                        let at = base + Int64(i)
                        // Before or in the first line, or after one that is neither the header nor a
                        // data row (`FirstLine`): not a recording at all.
                        guard parser.validHeader else { stop = (at, nil); return }
                        if var r = run {
                            r.last = at
                            run = r
                        } else {
                            run = BinaryRun(start: at, last: at, firstLine: parser.lineNumber + (overlong ? 0 : 1))
                        }
                        if let r = run, r.isTooLong(at: at) { stop = (r.start, r); return }
                        binaryLine = !overlong
                        pending.removeAll(keepingCapacity: true)
                        start = i + 1
                    }
                }
                // The rest of the chunk starts a line that the next chunk continues.
                if !overlong && !binaryLine {
                    if pending.count + (n - start) > limit {
                        overlong = true
                        if run == nil { parser.tooLong(limit: limit, count) } else { parser.skip() }
                        pending.removeAll(keepingCapacity: true)
                    } else {
                        pending.append(contentsOf: UnsafeBufferPointer(rebasing: buf[start..<n]))
                    }
                }
            }
            if stop == nil, let r = run, r.isTooLong(at: summary.bytes) { stop = (r.start, r) }
            if let (at, r) = stop {
                parser.binaryStop(at: at, run: r, count)
                summary.stoppedAtBinary = true
                progress?(summary.bytes)
                break reading
            }
            progress?(summary.bytes)
            if let shouldStop, shouldStop() { summary.lines = parser.lineNumber; return summary }
        }
        if !summary.stoppedAtBinary {
            if let r = run {
                // The run goes on to the end of the file, its last line torn or not.
                if (!pending.isEmpty || binaryLine) && !overlong { parser.skip() }
                parser.binary(r, resumedAt: nil, count)
            } else {
                parser.finish(torn: pending, tornOverlong: overlong, count)
            }
        }
        summary.lines = parser.lineNumber
        return summary
    }

    /// Convenience: every valid row and every problem, collected (small files, tests).
    public func readAll() throws(RecordingReadError) -> (rows: [Row], problems: [RecordingProblem]) {
        var rows: [Row] = [], problems: [RecordingProblem] = []
        try read { item in
            switch item {
            case .row(_, let r): rows.append(r)
            case .problem(let p): problems.append(p)
            }
        }
        return (rows, problems)
    }
}

/// Parses one line at a time; keeps the line count and checks every value's range.
struct LineParser {
    private(set) var lineNumber = 0
    private(set) var sawHeader = false
    /// The first line was read as the start of a recording: the format's header, the header
    /// spaced differently, or a data row (no header; `FirstLine`).
    private(set) var validHeader = false
    private var reportedCRLF = false

    mutating func parse<Bytes: Collection<UInt8>>(_ bytes: Bytes, _ handle: (RecordingItem) -> Void) {
        lineNumber += 1
        // Plain valid rows (nearly every line) without Strings; the rest the thorough way.
        if lineNumber > 1, let row = bytes.withContiguousStorageIfAvailable(PlainRowParser.row) ?? nil {
            handle(.row(line: lineNumber, row))
            return
        }
        var line = String(decoding: bytes, as: UTF8.self)
        if line.hasSuffix("\r") {
            if !reportedCRLF {
                reportedCRLF = true
                handle(.problem(.init(line: lineNumber, severity: .error,
                                      message: "CRLF line end (a Windows line end): the format uses LF only; "
                                        + "this and every later CRLF line are read as if they ended in LF "
                                        + "(convert the file with `dos2unix` or `tr -d '\\r'`)")))
            }
            line.removeLast()
        }
        if lineNumber == 1 {
            sawHeader = true
            let kind = FirstLine(line)
            validHeader = kind.isRecording
            if let problem = Self.firstLineProblem(kind, line) { handle(.problem(problem)) }
            // A file without its header: the first line is read as the rows after it are.
            guard kind == .dataRow else { return }
        }
        if let row = parseRow(line, handle) { handle(.row(line: lineNumber, row)) }
    }

    /// A line of a binary run (`BinaryRun`): counted, not read.
    mutating func skip() { lineNumber += 1 }

    /// A line crossed `limit` bytes: an error at once; the caller skips it up to its LF.
    mutating func tooLong(limit: Int, _ handle: (RecordingItem) -> Void) {
        lineNumber += 1
        if lineNumber == 1 { sawHeader = true }
        let what = lineNumber == 1 ? "not a recording: the first line" : "line"
        handle(.problem(.init(line: lineNumber, severity: .error,
                              message: "\(what) is longer than \(limit) bytes, more than any valid row (at most \(CSVFormat.maxRowBytes)): skipped up to its line end")))
    }

    mutating func finish(torn: [UInt8], tornOverlong: Bool = false, _ handle: (RecordingItem) -> Void) {
        if lineNumber == 0 && (torn.isEmpty && !tornOverlong) {
            handle(.problem(.init(line: 1, severity: .error, message: "empty file: no header")))
        } else if lineNumber == 0 || (lineNumber == 1 && tornOverlong) {
            if lineNumber == 0 { lineNumber = 1 }
            handle(.problem(.init(line: 1, severity: .error,
                                  message: "no line end (LF) in the file: not a recording (the header and every row end with LF)")))
        } else if !torn.isEmpty {
            lineNumber += 1
            handle(.problem(.init(line: lineNumber, severity: .warning,
                                  message: "last line is incomplete (no line end): torn by a power cut or crash; ignored")))
        }
    }

    /// The thorough path: every problem of the line, in words.
    func parseRow(_ line: String, _ handle: (RecordingItem) -> Void) -> Row? {
        let n = lineNumber
        func error(_ m: String) -> Row? { handle(.problem(.init(line: n, severity: .error, message: m))); return nil }
        if line.isEmpty { return error("empty line") }
        let fields = line.split(separator: ",", omittingEmptySubsequences: false)
        guard fields[0].count == 1, let letter = fields[0].first, let source = Source(letter: letter) else {
            if case let kind = FirstLine(line), kind == .header || kind == .headerOtherwiseSpaced {
                return error("a second header line: files joined together? A recording has its header on line 1 only; the rows after it are read")
            }
            return error("unknown source \"\(fields[0].prefix(20))\": expected one of A, G, M, D, L")
        }
        guard fields.count == source.fieldCount else {
            return error("\(source) row has \(fields.count) fields, expected \(source.fieldCount)")
        }
        guard let label = Label.parse(String(fields[1])) else {
            return error("label \"\(fields[1].prefix(20))\" is not one uppercase letter")
        }
        var values = [Double](repeating: 0, count: 10)
        for i in 2..<fields.count {
            let text = fields[i]
            let name = CSVFormat.fieldName(source, i)
            if source == .location && i == 11 {
                guard text == "2" || text == "3" else { return error("L row mode \"\(text.prefix(20))\" is not 2 or 3") }
                values[i - 2] = text == "2" ? 2 : 3
                continue
            }
            guard let v = Double(text), !text.contains(" ") else {
                return error("\(name) \"\(text.prefix(30))\" is not a number")
            }
            if let problem = CSVFormat.rangeProblem(source, i, v) {
                return error("\(name) \(text.prefix(30))\(text.count > 30 ? "…" : "") is out of range: \(problem)")
            }
            if v.description != text {
                handle(.problem(.init(line: n, severity: .warning,
                                      message: "\(name) \"\(text.prefix(30))\" is not in Swift's shortest form (\(v))")))
            }
            values[i - 2] = v
        }
        return Row(source: source, label: label, when: values[0],
                   values: (values[1], values[2], values[3], values[4], values[5], values[6], values[7], values[8], values[9]))
    }
}
