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
    public var description: String { "cannot read \(path): \(errno)" }
}

/// Reads MotionCollector CSV files (FORMAT.md) as a stream of rows and problems. The one
/// reader shared by every command that reads recordings (`check`, `export`, `fuse`, ...).
///
/// It never crashes on bad input: each defective line becomes a problem with its line
/// number. A last line without its LF (a power cut mid-write) is reported as a warning
/// and not used.
public struct RecordingReader {
    public let path: String

    public init(path: String) { self.path = path }

    /// Reads the whole file, calling `handle` for every row and problem in file order.
    public func read(_ handle: (RecordingItem) -> Void) throws(RecordingReadError) {
        let fd: FileDescriptor
        do { fd = try FileDescriptor.open(FilePath(path), .readOnly) } catch {
            throw RecordingReadError(path: path, errno: (error as? Errno) ?? .ioError)
        }
        defer { try? fd.close() }
        var parser = LineParser()
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n: Int
            do { n = try chunk.withUnsafeMutableBytes { try fd.read(into: $0) } } catch {
                throw RecordingReadError(path: path, errno: (error as? Errno) ?? .ioError)
            }
            if n == 0 { break }
            var start = 0
            for i in 0..<n where chunk[i] == CSVFormat.newline {
                if pending.isEmpty {
                    parser.parse(chunk[start..<i], handle)
                } else {
                    pending.append(contentsOf: chunk[start..<i])
                    parser.parse(pending[...], handle)
                    pending.removeAll(keepingCapacity: true)
                }
                start = i + 1
            }
            if start < n { pending.append(contentsOf: chunk[start..<n]) }
        }
        parser.finish(torn: pending, handle)
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

/// Parses one line at a time; keeps the line count.
struct LineParser {
    private(set) var lineNumber = 0
    private var sawHeader = false

    mutating func parse(_ bytes: ArraySlice<UInt8>, _ handle: (RecordingItem) -> Void) {
        lineNumber += 1
        var line = String(decoding: bytes, as: UTF8.self)
        if line.hasSuffix("\r") {
            handle(.problem(.init(line: lineNumber, severity: .error, message: "CRLF line end: the format uses LF only")))
            line.removeLast()
        }
        if lineNumber == 1 {
            sawHeader = true
            if line != CSVFormat.headerLine {
                handle(.problem(.init(line: 1, severity: .error,
                                      message: "header is not \"\(CSVFormat.headerLine)\" (found \"\(line.prefix(120))\")")))
            }
            return
        }
        if let row = parseRow(line, handle) { handle(.row(line: lineNumber, row)) }
    }

    mutating func finish(torn: [UInt8], _ handle: (RecordingItem) -> Void) {
        if !torn.isEmpty {
            lineNumber += 1
            handle(.problem(.init(line: lineNumber, severity: .warning,
                                  message: "last line is incomplete (no line end): torn by a power cut or crash; ignored")))
        } else if lineNumber == 0 {
            handle(.problem(.init(line: 1, severity: .error, message: "empty file: no header")))
        }
    }

    private func parseRow(_ line: String, _ handle: (RecordingItem) -> Void) -> Row? {
        let n = lineNumber
        func error(_ m: String) -> Row? { handle(.problem(.init(line: n, severity: .error, message: m))); return nil }
        if line.isEmpty { return error("empty line") }
        let fields = line.split(separator: ",", omittingEmptySubsequences: false)
        guard fields[0].count == 1, let letter = fields[0].first, let source = Source(letter: letter) else {
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
            let name = i == 2 ? "When" : "field \(i + 1)"
            if source == .location && i == 11 {
                guard text == "2" || text == "3" else { return error("L row mode \"\(text.prefix(20))\" is not 2 or 3") }
                values[i - 2] = text == "2" ? 2 : 3
                continue
            }
            guard let v = Double(text), !text.contains(" ") else {
                return error("\(name) \"\(text.prefix(30))\" is not a number")
            }
            if i == 2 && !v.isFinite { return error("When \"\(text)\" is not a finite number") }
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
