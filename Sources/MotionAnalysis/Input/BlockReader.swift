import MotionSystem
import SystemPackage

/// Reads a file 1 MiB at a time and hands out its complete lines, a block at a time, in
/// bounded memory (one buffer, whatever the file size), through a `BlockStream`; or, where
/// the file can be mapped, where the blocks lie in the mapping (`MappedBlocks`).
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
    /// (`base[end - 1]` is an LF), all in one buffer or in the mapped file (unless `mapped`
    /// is false). Counts bytes, over-long lines and a torn last line.
    @inline(__always)
    static func forEachBlock(path: String, mapped: Bool = true, counts: inout ScanCounts,
                             _ body: (UnsafePointer<UInt8>, Int, Int) -> Void) throws(ScanError) {
        let stream = try BlockStream(path: path, inPlace: mapped)
        let buffer = stream.allocateBuffer()
        defer { buffer?.deallocate() }
        while let (base, block) = try stream.next(into: buffer, counts: &counts) {
            body(base, block.lowerBound, block.upperBound)
            stream.release(before: block.upperBound)
        }
        try stream.finish()
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
