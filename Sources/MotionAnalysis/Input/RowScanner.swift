import MotionCore
import SystemPackage

/// Receives the rows of a recording from `RowScanner`, in file order.
public protocol RowSink {
    /// One valid data row. `values` holds the source's values (3 for A/G/M, 9 for D/L);
    /// `when` is already converted to Unix seconds.
    mutating func row(_ source: Source, when: Double, values: UnsafeBufferPointer<Double>)
}

/// Why a recording could not be read at all.
public struct ScanError: Error, CustomStringConvertible {
    public var path: String
    public var errno: Errno
    public var description: String { "cannot read \(path): \(errno)" }
}

/// What a scan saw besides rows.
public struct ScanCounts: Sendable, Equatable {
    public var rows = 0
    public var headers = 0
    /// Lines that are not valid rows (unknown source, wrong field count, bad number, too long).
    public var badLines = 0
    /// A last line without its LF (torn by a power cut): ignored.
    public var tornLines = 0
    public var bytes: Int64 = 0
    public init() {}
}

/// A fast streaming reader of MotionCollector CSV for analysis: reads 1 MiB at a time,
/// parses rows in place without allocating, and hands them to a `RowSink`. Memory is
/// bounded (one buffer) whatever the file size. Unlike `RecordingReader` (which `check`
/// uses to report every defect with its line) it only counts defective lines, and parses
/// numbers to within one unit in the last place rather than exactly, which analysis does
/// not notice.
public enum RowScanner {
    static let chunkBytes = 1 << 20
    /// Lines longer than this are defective (the longest valid row is about 300 bytes).
    static let maxLineBytes = 4096

    /// Scans one file. `whenOffset` is added to every When (the start epoch for files
    /// written with relative When, else 0).
    public static func scan<S: RowSink>(path: String, whenOffset: Double, into sink: inout S,
                                        counts: inout ScanCounts) throws(ScanError) {
        let values = UnsafeMutableBufferPointer<Double>.allocate(capacity: 10)
        defer { values.deallocate() }
        var reading = ScanCounts()
        defer {
            counts.bytes += reading.bytes; counts.badLines += reading.badLines; counts.tornLines += reading.tornLines
        }
        try forEachLine(path: path, counts: &reading) { p, count in
            parseLine(p, count: count, whenOffset: whenOffset, values: values, sink: &sink, counts: &counts)
        }
    }

    /// Reads `path` in 1 MiB chunks and calls `body` with each complete line (without its
    /// LF). Counts bytes, over-long lines (skipped) and a torn last line in `counts`.
    @inline(__always)
    static func forEachLine(path: String, counts: inout ScanCounts,
                            _ body: (UnsafePointer<UInt8>, Int) -> Void) throws(ScanError) {
        let fd: FileDescriptor
        do { fd = try FileDescriptor.open(FilePath(path), .readOnly) } catch {
            throw ScanError(path: path, errno: (error as? Errno) ?? .ioError)
        }
        defer { try? fd.close() }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkBytes + 8, alignment: 8)
        defer { buffer.deallocate() }
        let base = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
        var filled = 0
        var skipping = false   // inside an over-long line: drop bytes up to the next LF
        var badLines = 0
        while true {
            let n: Int
            do {
                n = try fd.read(into: UnsafeMutableRawBufferPointer(start: base + filled, count: chunkBytes - filled))
            } catch {
                throw ScanError(path: path, errno: (error as? Errno) ?? .ioError)
            }
            if n == 0 { break }
            counts.bytes += Int64(n)
            let total = filled + n
            var lineStart = 0
            var i = filled
            while i < total {
                guard let nl = nextNewline(base, from: i, to: total) else { break }
                if skipping { skipping = false } else { body(base + lineStart, nl - lineStart) }
                lineStart = nl + 1
                i = lineStart
            }
            let rest = total - lineStart
            if rest > maxLineBytes {
                if !skipping { badLines += 1 }
                skipping = true
                filled = 0
            } else {
                if rest > 0 && lineStart > 0 { base.update(from: base + lineStart, count: rest) }
                filled = rest
            }
        }
        counts.badLines += badLines
        if filled > 0 && !skipping { counts.tornLines += 1 }
    }

    /// Index of the next LF in `[from, to)`, eight bytes at a time.
    @inline(__always)
    static func nextNewline(_ p: UnsafePointer<UInt8>, from: Int, to: Int) -> Int? {
        var i = from
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        let pattern: UInt64 = 0x0A0A_0A0A_0A0A_0A0A
        while i + 8 <= to {
            let word = UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self) ^ pattern
            let found = (word &- ones) & ~word & highs
            if found != 0 { return i + (found.trailingZeroBitCount >> 3) }
            i += 8
        }
        while i < to {
            if p[i] == 0x0A { return i }
            i += 1
        }
        return nil
    }

    @inline(__always)
    static func parseLine<S: RowSink>(_ p: UnsafePointer<UInt8>, count: Int, whenOffset: Double,
                                      values: UnsafeMutableBufferPointer<Double>, sink: inout S, counts: inout ScanCounts) {
        var end = count
        if end > 0 && p[end - 1] == 0x0D { end -= 1 }
        guard end >= 6, p[1] == 0x2C, p[3] == 0x2C else {
            if end >= 6 && p[0] == 0x53 && p[1] == 0x6F { counts.headers += 1 } else { counts.badLines += 1 }  // "So"urce header
            return
        }
        guard let source = Source(rawValue: p[0]), p[2] >= 0x41, p[2] <= 0x5A else { counts.badLines += 1; return }
        let expected = source.valueCount + 1   // When + values
        var field = 0
        var start = 4
        var i = 4
        while true {
            if i == end || p[i] == 0x2C {
                guard field < expected, let v = FastNumber.parse(p, start, i) else { counts.badLines += 1; return }
                values[field] = v
                field += 1
                if i == end { break }
                start = i + 1
            }
            i += 1
        }
        guard field == expected, values[0].isFinite else { counts.badLines += 1; return }
        counts.rows += 1
        sink.row(source, when: values[0] + whenOffset,
                 values: UnsafeBufferPointer(start: values.baseAddress! + 1, count: expected - 1))
    }
}

/// Decimal text to Double, fast: a 19-digit integer mantissa scaled by a power of ten
/// (correctly rounded when the mantissa and the power are exact, within an ulp otherwise).
/// Accepts what the format writes: `-12.5`, `1e-05`, `nan`, `inf`, `-inf`.
enum FastNumber {
    static let powers: [Double] = (0...308).map { e in
        var v = 1.0
        for _ in 0..<e { v *= 10 }
        return v
    }

    @inline(__always)
    static func parse(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Double? {
        var i = start
        guard i < end else { return nil }
        var negative = false
        if p[i] == 0x2D { negative = true; i += 1 } else if p[i] == 0x2B { i += 1 }
        guard i < end else { return nil }
        if p[i] == 0x6E {   // nan
            return end - i == 3 && p[i + 1] == 0x61 && p[i + 2] == 0x6E ? .nan : nil
        }
        if p[i] == 0x69 {   // inf
            guard end - i == 3, p[i + 1] == 0x6E, p[i + 2] == 0x66 else { return nil }
            return negative ? -.infinity : .infinity
        }
        var mantissa: UInt64 = 0
        var significant = 0
        var exponent = 0
        var digits = 0
        while i < end {
            let d = p[i] &- 0x30
            if d > 9 { break }
            if significant < 19 {
                mantissa = mantissa * 10 + UInt64(d)
                if mantissa != 0 { significant += 1 }
            } else {
                exponent += 1
            }
            digits += 1
            i += 1
        }
        if i < end && p[i] == 0x2E {
            i += 1
            while i < end {
                let d = p[i] &- 0x30
                if d > 9 { break }
                if significant < 19 {
                    mantissa = mantissa * 10 + UInt64(d)
                    if mantissa != 0 { significant += 1 }
                    exponent -= 1
                }
                digits += 1
                i += 1
            }
        }
        guard digits > 0 else { return nil }
        if i < end && (p[i] == 0x65 || p[i] == 0x45) {
            i += 1
            var expNegative = false
            if i < end && (p[i] == 0x2D || p[i] == 0x2B) { expNegative = p[i] == 0x2D; i += 1 }
            var e = 0, expDigits = 0
            while i < end {
                let d = p[i] &- 0x30
                if d > 9 { break }
                if e < 100_000 { e = e * 10 + Int(d) }
                expDigits += 1
                i += 1
            }
            guard expDigits > 0 else { return nil }
            exponent += expNegative ? -e : e
        }
        guard i == end else { return nil }
        var value = Double(mantissa)
        if mantissa != 0 {
            if exponent < 0 {
                var e = -exponent
                while e > 308 { value /= 1e308; e -= 308 }
                value /= powers[e]
            } else if exponent > 0 {
                value = exponent > 308 ? .infinity : value * powers[exponent]
            }
        }
        return negative ? -value : value
    }
}
