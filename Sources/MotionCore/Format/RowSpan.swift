import MotionSystem
import SystemPackage

/// The When of a recording file's first and last rows, read from its head and its tail
/// only (at most `window` bytes each, whatever the file's size): the span a listing shows
/// for a file that has neither metadata nor a cached summary (an imported or converted file
/// in a folder the server may not write). Lines are read as `RecordingReader` reads them;
/// what is not a valid row (the header, damage, a torn last line) is passed over.
public enum RowSpan {
    /// Bytes read at each end: hundreds of rows of any source.
    public static let window = 64 << 10

    /// The first and last row's When, or nil where the file cannot be read or its ends
    /// hold no valid row.
    public static func whens(ofFileAt path: String) -> (first: Double, last: Double)? {
        guard let fd = try? FileSystem.openForReading(path) else { return nil }
        defer { try? fd.close() }
        guard let size = try? fd.status().size, size > 0 else { return nil }
        let head = read(fd, at: 0, count: Int(min(size, Int64(window))))
        let tailStart = max(0, size - Int64(window))
        let tail = tailStart == 0 ? head : read(fd, at: tailStart, count: Int(size - tailStart))
        let headLines = completeLines(head, startsMidLine: false)
        let tailLines = completeLines(tail, startsMidLine: tailStart > 0)
        guard let first = headLines.lazy.enumerated().compactMap({ row($1, isFirstLine: $0 == 0) }).first,
              let last = tailLines.reversed().lazy.compactMap({ row($0, isFirstLine: tailStart == 0 && $0.startIndex == 0) }).first
        else { return nil }
        return (first.when, last.when)
    }

    private static func read(_ fd: FileDescriptor, at offset: Int64, count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = bytes.withUnsafeMutableBytes { raw in
                (try? fd.readSome(into: UnsafeMutableRawBufferPointer(rebasing: raw[filled...]), at: offset + Int64(filled))) ?? 0
            }
            if n <= 0 { break }
            filled += n
        }
        return Array(bytes.prefix(filled))
    }

    /// The lines that end with LF (without it); a piece before the first LF of a window that
    /// starts inside the file is the end of a line it did not read.
    private static func completeLines(_ bytes: [UInt8], startsMidLine: Bool) -> [ArraySlice<UInt8>] {
        var lines = bytes.split(separator: CSVFormat.newline, omittingEmptySubsequences: false)
        lines.removeLast()   // after the last LF: a torn line, or nothing
        if startsMidLine && !lines.isEmpty { lines.removeFirst() }
        return lines
    }

    private static func row(_ line: ArraySlice<UInt8>, isFirstLine: Bool) -> Row? {
        var text = String(decoding: line, as: UTF8.self)
        if text.hasSuffix("\r") { text.removeLast() }
        if isFirstLine && FirstLine(text) != .dataRow { return nil }
        return LineParser().parseRow(text) { _ in }   // nil for a line with an error
    }
}
