import MotionSystem
import SystemPackage

/// A file read as blocks of complete lines, each into a buffer the caller provides (so
/// several blocks can be in use at once: `ParallelRowScanner`), in bounded memory.
///
/// A block is a run of whole lines, each ending with its LF. The part of a line a read cut
/// off is kept (at most `BlockReader.maxLineBytes`) and starts the next block. A line that
/// does not fit is skipped and counted as bad; a last line without its LF (torn by a power
/// cut) is counted as torn. The rules are `BlockReader`'s; it reads through this.
final class BlockStream {
    private let path: String
    private let fd: FileDescriptor
    /// Bytes read into a buffer at most (the buffer holds this plus `padding`).
    let blockBytes: Int
    private let carry = UnsafeMutablePointer<UInt8>.allocate(capacity: BlockReader.maxLineBytes)
    private var carried = 0
    private var skipping = false   // inside an over-long line: drop bytes up to the next LF
    private var badLines = 0
    private var finished = false

    init(path: String, blockBytes: Int = BlockReader.chunkBytes) throws(ScanError) {
        self.path = path
        self.blockBytes = max(blockBytes, 2 * BlockReader.maxLineBytes)
        do { fd = try FileSystem.openForReading(path) } catch {
            carry.deallocate()
            throw ScanError(path: path, errno: error)
        }
    }

    deinit {
        try? fd.close()
        carry.deallocate()
    }

    /// The file's size when asked (0 if unknown): how many blocks it will make, about.
    var size: Int64 { (try? fd.status().size) ?? 0 }

    /// The file mapped into memory, to read its blocks in place (`MappedBlocks`) instead of
    /// with `next`; nil where it cannot be mapped.
    func mapped() -> MappedFile? { MappedFile(fd) }

    /// Allocates a buffer for `next`: `blockBytes` plus `padding` readable bytes (zeroed, so
    /// a parser's 8-byte loads past a block's end read defined memory).
    func allocateBuffer() -> UnsafeMutablePointer<UInt8> {
        let p = UnsafeMutablePointer<UInt8>.allocate(capacity: blockBytes + BlockReader.padding)
        p.initialize(repeating: 0, count: blockBytes + BlockReader.padding)
        return p
    }

    /// Reads the next block of complete lines into `base` (from `allocateBuffer`) and
    /// returns where it lies; nil at the end of the file, when `counts` has its bad and
    /// torn lines.
    func next(into base: UnsafeMutablePointer<UInt8>, counts: inout ScanCounts) throws(ScanError) -> Range<Int>? {
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
