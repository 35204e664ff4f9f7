import MotionSystem

/// A mapped file (`MappedFile`) cut into blocks of complete lines where it lies, by the
/// rules `BlockStream` applies to what it reads: a block ends with an LF; a last line
/// without its LF (torn by a power cut) is counted as torn and not handed out, or as bad
/// when it is longer than `BlockReader.maxLineBytes`. A line longer than a block makes a
/// longer block (the parser counts it as bad). Nothing is copied.
struct MappedBlocks {
    let file: MappedFile
    let blockBytes: Int
    private var at = 0

    init(file: MappedFile, blockBytes: Int) {
        self.file = file
        self.blockBytes = blockBytes
    }

    /// The next block, or nil at the end of the file, when `counts` has its bytes and a
    /// torn last line.
    mutating func next(counts: inout ScanCounts) -> Range<Int>? {
        let size = file.size
        guard at < size else { return nil }
        let end = min(size, at + blockBytes)
        guard let last = BlockReader.lastNewline(file.base, from: at, to: end)
                ?? BlockReader.nextNewline(file.base, from: end, to: size) else {
            if size - at > BlockReader.maxLineBytes { counts.badLines += 1 } else { counts.tornLines += 1 }
            counts.bytes += Int64(size - at)
            at = size
            return nil
        }
        let block = at..<(last + 1)
        counts.bytes += Int64(block.count)
        at = last + 1
        return block
    }
}
