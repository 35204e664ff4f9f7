import MotionSystem
import SystemPackage

/// Reads a file 1 MiB at a time and hands out its complete lines, a block at a time, in
/// bounded memory (one buffer, whatever the file size).
///
/// A block is a run of whole lines, each ending with its LF, in the buffer. The buffer has
/// `padding` readable bytes after the last byte read, so a parser may load 8 bytes at any
/// position up to a block's last LF. A line that does not fit (longer than `maxLineBytes`
/// when it straddles the end of a chunk) is skipped and counted as bad; a last line
/// without its LF (torn by a power cut) is counted as torn.
enum BlockReader {
    static let chunkBytes = 1 << 20
    /// Lines longer than this are defective (the longest valid row is about 300 bytes).
    static let maxLineBytes = 4096
    /// Readable bytes after the end of the data in the buffer.
    static let padding = 16

    /// Calls `body(base, start, end)` for each block `[start, end)` of complete lines
    /// (`base[end - 1]` is an LF). Counts bytes, over-long lines and a torn last line.
    @inline(__always)
    static func forEachBlock(path: String, counts: inout ScanCounts,
                             _ body: (UnsafePointer<UInt8>, Int, Int) -> Void) throws(ScanError) {
        let fd: FileDescriptor
        do { fd = try FileSystem.open(path, .readOnly, options: [.closeOnExec]) } catch {
            throw ScanError(path: path, errno: error)
        }
        defer { try? fd.close() }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkBytes + padding, alignment: 8)
        defer { buffer.deallocate() }
        buffer.initializeMemory(as: UInt8.self, repeating: 0)   // the padding is read, never used
        let base = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
        var filled = 0
        var skipping = false   // inside an over-long line: drop bytes up to the next LF
        var badLines = 0
        while true {
            let n: Int
            do {
                n = try fd.readSome(into: UnsafeMutableRawBufferPointer(start: base + filled, count: chunkBytes - filled))
            } catch {
                throw ScanError(path: path, errno: error)
            }
            if n == 0 { break }
            counts.bytes += Int64(n)
            let total = filled + n
            var blockStart = 0
            if skipping, let nl = nextNewline(base, from: filled, to: total) {
                skipping = false
                blockStart = nl + 1
            }
            var rest = total - blockStart
            if !skipping, let last = lastNewline(base, from: max(filled, blockStart), to: total) {
                if last >= blockStart { body(base, blockStart, last + 1) }
                rest = total - (last + 1)
            }
            if rest > maxLineBytes {
                if !skipping { badLines += 1 }
                skipping = true
                filled = 0
            } else {
                if rest > 0 && rest < total { base.update(from: base + (total - rest), count: rest) }
                filled = rest
            }
        }
        counts.badLines += badLines
        if filled > 0 && !skipping { counts.tornLines += 1 }
    }

    /// Calls `body` with each complete line (without its LF), as `forEachBlock` reads them.
    @inline(__always)
    static func forEachLine(path: String, counts: inout ScanCounts,
                            _ body: (UnsafePointer<UInt8>, Int) -> Void) throws(ScanError) {
        try forEachBlock(path: path, counts: &counts) { base, start, end in
            var lineStart = start
            while lineStart < end {
                let nl = nextNewline(base, from: lineStart, to: end) ?? end - 1
                body(base + lineStart, nl - lineStart)
                lineStart = nl + 1
            }
        }
    }

    /// Index of the next LF in `[from, to)`, eight bytes at a time.
    @inline(__always)
    static func nextNewline(_ p: UnsafePointer<UInt8>, from: Int, to: Int) -> Int? {
        var i = from
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        let pattern: UInt64 = 0x0A0A_0A0A_0A0A_0A0A
        while i + 8 <= to {
            let word = UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self).littleEndian ^ pattern
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

    /// Index of the last LF in `[from, to)`.
    @inline(__always)
    static func lastNewline(_ p: UnsafePointer<UInt8>, from: Int, to: Int) -> Int? {
        var i = to - 1
        while i >= from {
            if p[i] == 0x0A { return i }
            i -= 1
        }
        return nil
    }
}
