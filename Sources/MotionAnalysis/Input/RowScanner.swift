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
        // One pass: each number is parsed up to the comma that ends it.
        var field = 0
        var i = 4
        while true {
            guard field < expected, let (v, next) = FastNumber.parseField(p, i, end) else { counts.badLines += 1; return }
            values[field] = v
            field += 1
            if next == end { break }
            guard p[next] == 0x2C else { counts.badLines += 1; return }
            i = next + 1
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
    /// 10^e for 0 ≤ e ≤ 22 (exact in a Double), without a global table's lazy initialisation.
    @inline(__always)
    static func exactPower(_ e: Int) -> Double {
        switch e {
        case 0: return 1e0
        case 1: return 1e1
        case 2: return 1e2
        case 3: return 1e3
        case 4: return 1e4
        case 5: return 1e5
        case 6: return 1e6
        case 7: return 1e7
        case 8: return 1e8
        case 9: return 1e9
        case 10: return 1e10
        case 11: return 1e11
        case 12: return 1e12
        case 13: return 1e13
        case 14: return 1e14
        case 15: return 1e15
        case 16: return 1e16
        case 17: return 1e17
        case 18: return 1e18
        case 19: return 1e19
        case 20: return 1e20
        case 21: return 1e21
        default: return 1e22
        }
    }

    /// 10^e for any e ≥ 0 (products of exact powers beyond 22).
    @inline(__always)
    static func power(_ e: Int) -> Double {
        if e <= 22 { return exactPower(e) }
        var v = 1.0, k = e
        while k > 22 { v *= 1e22; k -= 22 }
        return v * exactPower(k)
    }

    /// The number filling `[start, end)` exactly.
    @inline(__always)
    static func parse(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Double? {
        guard let (v, stop) = parseField(p, start, end), stop == end else { return nil }
        return v
    }

    /// Parses the number starting at `start`, up to the first byte that cannot continue
    /// it (a comma, or `end`), in one pass; returns the value and where it stopped.
    @inline(__always)
    static func parseField(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> (Double, Int)? {
        var i = start
        guard i < end else { return nil }
        var negative = false
        if p[i] == 0x2D { negative = true; i += 1 } else if p[i] == 0x2B { i += 1 }
        guard i < end else { return nil }
        if p[i] == 0x6E {   // nan
            return end - i >= 3 && p[i + 1] == 0x61 && p[i + 2] == 0x6E ? (.nan, i + 3) : nil
        }
        if p[i] == 0x69 {   // inf
            guard end - i >= 3, p[i + 1] == 0x6E, p[i + 2] == 0x66 else { return nil }
            return (negative ? -.infinity : .infinity, i + 3)
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
        var value = Double(mantissa)
        if mantissa != 0 {
            if exponent < 0 {
                let e = -exponent
                value = e > 330 ? 0 : (e > 308 ? value / 1e308 / power(e - 308) : value / power(e))
            } else if exponent > 0 {
                value = exponent > 308 ? .infinity : value * power(exponent)
            }
        }
        return (negative ? -value : value, i)
    }
}
