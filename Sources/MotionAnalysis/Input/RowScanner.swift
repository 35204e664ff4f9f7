import MotionCore
import MotionSystem
import SystemPackage

/// Receives the rows of a recording from `RowScanner`, in file order.
public protocol RowSink {
    /// One valid data row. `values` holds the source's values (3 for A/G/M, 9 for D/L);
    /// `when` is already converted to Unix seconds.
    mutating func row(_ source: Source, when: Double, values: UnsafeBufferPointer<Double>)

    /// Which of `source`'s values `row` reads: bit k stands for `values[k]`. The scanner
    /// checks the others are numbers as always (a row with a bad one is a bad line) but
    /// does not convert them: they are NaN. Default: all.
    func valuesRead(_ source: Source) -> UInt32
}

extension RowSink {
    public func valuesRead(_ source: Source) -> UInt32 { .max }
}

/// Why a recording could not be read at all.
public struct ScanError: Error, CustomStringConvertible {
    public var path: String
    public var errno: Errno
    /// The file shrank while it was read (`MappedFile.changedWhileRead`).
    public var changedWhileRead = false

    init(path: String, errno: Errno) { self.path = path; self.errno = errno }

    /// The file lost part of its bytes while it was read: nothing read from it stands.
    static func changed(_ path: String) -> ScanError {
        var error = ScanError(path: path, errno: .ioError)
        error.changedWhileRead = true
        return error
    }

    public var description: String {
        guard !changedWhileRead else {
            return "cannot read \(path): it shrank while it was being read (another program truncated it, "
                + "or its disk went away) — read it again once nothing writes to it"
        }
        return RecordingReadError(path: path, errno: errno).description
    }
}

/// Told the bytes of the file read so far, on the scanning caller's thread (a progress meter).
public typealias ScanProgress = (Int64) -> Void

/// What a scan saw besides rows.
public struct ScanCounts: Sendable, Equatable {
    public var rows = 0
    public var headers = 0
    /// Lines that are not valid rows (unknown source, wrong field count, bad number, too long).
    public var badLines = 0
    /// A last line without its LF (torn by a power cut): ignored.
    public var tornLines = 0
    /// Lines read although the format forbids their shape (`motionlog check` reports them):
    /// ending in CR LF, and header lines spelled otherwise than the format's header.
    public var crlfLines = 0
    public var otherHeaders = 0
    public var bytes: Int64 = 0
    public init() {}
}

/// A fast streaming reader of MotionCollector CSV for analysis: reads 1 MiB at a time
/// (`BlockReader`), parses rows in place without allocating, and hands them to a
/// `RowSink`. Memory is bounded (one buffer) whatever the file size. Unlike
/// `RecordingReader` (which `check` uses to report every defect with its line) it only
/// counts defective lines. The numbers of `L` rows are exact (`FastNumber`: the same
/// Doubles as `Double(String)`); those of IMU rows, which only feed statistics, within one
/// unit in the last place (`DecimalToDouble.value(exact: false)`: a sensor resolves 4 to 6
/// of the 17 digits a Double prints, and the exact conversion of the 16–17-digit values a
/// recorder writes took a tenth of the summary's CPU time). Their When, at most 16 digits
/// on a tick's grid, is exact either way.
///
/// Each row is parsed in one pass that also finds its end (`parseRow`); a line that is
/// not a plain valid row goes through `parseLine`, which decides on the whole line as
/// the first version of this reader did (header, bad line, or a row after all).
public enum RowScanner {
    /// Scans one file. `whenOffset` is added to every When (the start epoch for files
    /// written with relative When, else 0).
    /// Several processors parse blocks at once (`ParallelRowScanner`) unless `parallel` is
    /// false or there is one processor; the sink gets the same rows in the same order.
    /// `progress` is called on the caller's thread with the bytes of the file read so far.
    /// The file is parsed where it lies in memory (`MappedFile`) unless `mapped` is false or
    /// it cannot be mapped; then it is read with read(2). The rows are the same.
    public static func scan<S: RowSink>(path: String, whenOffset: Double, into sink: inout S,
                                        counts: inout ScanCounts, parallel: Bool = true, mapped: Bool = true,
                                        progress: ScanProgress? = nil) throws(ScanError) {
        if parallel && ParallelWork.processors > 1 {
            try ParallelRowScanner.scan(path: path, whenOffset: whenOffset, into: &sink, counts: &counts,
                                        mapped: mapped, progress: progress)
            return
        }
        var parser = RowParser(whenOffset: whenOffset)
        defer { parser.deallocate() }
        var reading = ScanCounts()
        defer {
            counts.bytes += reading.bytes; counts.badLines += reading.badLines; counts.tornLines += reading.tornLines
        }
        var done: Int64 = 0
        try BlockReader.forEachBlock(path: path, mapped: mapped, counts: &reading) { p, start, end in
            parser.parseBlock(p, start, end, sink: &sink, counts: &counts)
            done += Int64(end - start)
            progress?(done)
        }
    }
}
