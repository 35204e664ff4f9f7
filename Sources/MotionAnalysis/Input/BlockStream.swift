import MotionSystem
import SystemPackage

/// A file as blocks of complete lines, in bounded memory: where they lie when the file can
/// be mapped (`MappedBlocks`), else each read into a buffer the caller provides (so several
/// blocks can be in use at once: `ParallelRowScanner`).
///
/// A block is a run of whole lines, each ending with its LF. The part of a line a read cut
/// off is kept (at most `BlockReader.maxLineBytes`) and starts the next block. A line that
/// does not fit is skipped and counted as bad; a last line without its LF (torn by a power
/// cut) is counted as torn. The rules are `BlockReader`'s; it reads through this.
final class BlockStream {
    private let path: String
    private let fd: FileDescriptor
    /// The file mapped into memory, its blocks handed out where they lie (nil: read).
    private var mapped: MappedBlocks?
    /// Bytes read into a buffer at most (the buffer holds this plus `padding`).
    let blockBytes: Int
    private let carry = UnsafeMutablePointer<UInt8>.allocate(capacity: BlockReader.maxLineBytes)
    private var carried = 0
    private var skipping = false   // inside an over-long line: drop bytes up to the next LF
    private var badLines = 0
    private var finished = false

    /// Opens `path`; with `inPlace` (and where the file can be mapped, `MappedFile`) its
    /// blocks are handed out where they lie in memory instead of read into buffers.
    init(path: String, blockBytes: Int = BlockReader.chunkBytes, inPlace: Bool = true) throws(ScanError) {
        self.path = path
        self.blockBytes = max(blockBytes, 2 * BlockReader.maxLineBytes)
        do { fd = try FileSystem.openForReading(path) } catch {
            carry.deallocate()
            throw ScanError(path: path, errno: error)
        }
        if inPlace, let file = MappedFile(fd) { mapped = MappedBlocks(file: file, blockBytes: self.blockBytes) }
    }

    deinit {
        try? fd.close()
        carry.deallocate()
    }

    /// The file's size when asked (0 if unknown): how many blocks it will make, about.
    var size: Int64 { (try? fd.status().size) ?? 0 }

    /// Allocates a buffer for `next`: `blockBytes` plus `padding` readable bytes (zeroed, so
    /// a parser's 8-byte loads past a block's end read defined memory). Nil for a mapped
    /// file, whose blocks need none.
    func allocateBuffer() -> UnsafeMutablePointer<UInt8>? {
        guard mapped == nil else { return nil }
        let p = UnsafeMutablePointer<UInt8>.allocate(capacity: blockBytes + BlockReader.padding)
        p.initialize(repeating: 0, count: blockBytes + BlockReader.padding)
        return p
    }

    /// The next block of complete lines: where it lies in the mapped file, or read into
    /// `buffer` (from `allocateBuffer`); nil at the end of the file, when `counts` has its
    /// bad and torn lines.
    func next(into buffer: UnsafeMutablePointer<UInt8>?,
              counts: inout ScanCounts) throws(ScanError) -> (base: UnsafePointer<UInt8>, block: Range<Int>)? {
        if mapped != nil {
            guard let block = mapped?.next(counts: &counts), let base = mapped?.file.base else { return nil }
            return (base, block)
        }
        guard let buffer, let block = try read(into: buffer, counts: &counts) else { return nil }
        return (UnsafePointer(buffer), block)
    }

    /// The blocks before byte `offset` are done with: a mapped file's pages may go
    /// (`MappedFile.release`).
    func release(before offset: Int) { mapped?.file.release(before: offset) }

    /// After the last block: an error if the mapped file shrank while it was read.
    func finish() throws(ScanError) {
        if mapped?.file.changedWhileRead == true { throw ScanError.changed(path) }
    }

    /// Reads the next block of complete lines into `base` and returns where it lies.
    private func read(into base: UnsafeMutablePointer<UInt8>, counts: inout ScanCounts) throws(ScanError) -> Range<Int>? {
        guard !finished else { return nil }
        base.update(from: carry, count: carried)
        var filled = carried
        carried = 0
        while true {
            let n: Int
            do {
                n = try fd.readSome(into: UnsafeMutableRawBufferPointer(start: base + filled,
                                                                        count: blockBytes - filled))
            } catch {
                throw ScanError(path: path, errno: error)
            }
            if n == 0 {
                finished = true
                counts.badLines += badLines
                if filled > 0 && !skipping { counts.tornLines += 1 }
                return nil
            }
            counts.bytes += Int64(n)
            let total = filled + n
            var blockStart = 0
            if skipping, let nl = BlockReader.nextNewline(base, from: filled, to: total) {
                skipping = false
                blockStart = nl + 1
            }
            var rest = total - blockStart
            var block: Range<Int>?
            if !skipping, let last = BlockReader.lastNewline(base, from: max(filled, blockStart), to: total) {
                if last >= blockStart { block = blockStart..<(last + 1) }
                rest = total - (last + 1)
            }
            if rest > BlockReader.maxLineBytes {
                if !skipping { badLines += 1 }
                skipping = true
                filled = 0
            } else {
                filled = rest
            }
            if let block {
                // The cut-off line starts the next block.
                carry.update(from: base + (total - filled), count: filled)
                carried = filled
                return block
            }
            if filled > 0 && filled < total { base.update(from: base + (total - filled), count: filled) }
        }
    }
}
