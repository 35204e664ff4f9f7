import MotionCore
import MotionSystem

/// `RowScanner` on several processors: the file is read as blocks of complete lines
/// (`BlockStream`), the blocks are parsed at the same time into `RowBatch`es, and the
/// batches go to the sink in file order on the caller's thread — so the sink sees exactly
/// the rows, in exactly the order, that the one-thread scan gives it, and needs no locks.
///
/// Rounds overlap: while a round's blocks are parsed, the batches of the previous round go
/// to the sink and the next blocks are read into the previous round's buffers. Memory is
/// two rounds of 512 KiB blocks and their batches (about 7 MB on four processors), whatever
/// the file size.
enum ParallelRowScanner {
    /// Blocks per round: two per processor (at most eight), so that the pool's threads stay
    /// busy while one of them hands rows to the sink and reads the next round.
    static var blocksPerRound: Int { min(8, 2 * ParallelWork.processors) }
    /// Bytes per block (half the one-thread reader's: rounds hold many).
    static let blockBytes = 1 << 19

    static func scan<S: RowSink>(path: String, whenOffset: Double, into sink: inout S,
                                 counts: inout ScanCounts) throws(ScanError) {
        let stream = try BlockStream(path: path, blockBytes: blockBytes)
        let n = blocksPerRound
        let masks = Source.allCases.map { sink.valuesRead($0) }
        // Two rounds: blocks being parsed, and blocks whose batches are being handed on.
        let rounds = (0..<2).map { _ in (0..<n).map { _ in Slot(stream: stream, whenOffset: whenOffset, masks: masks) } }
        defer { for slot in rounds.joined() { slot.deallocate() } }
        var reading = ScanCounts()
        var failure: ScanError?
        func read(into round: [Slot]) {
            for slot in round {
                slot.block = nil
                guard failure == nil else { continue }
                do { slot.block = try stream.next(into: slot.buffer, counts: &reading) } catch { failure = error }
            }
        }
        read(into: rounds[0])
        var parsing = 0
        var handing: Int?   // the round parsed last time, whose rows go to the sink now
        while true {
            let hasWork = rounds[parsing].contains { $0.block != nil }
            guard hasWork || handing != nil else { break }
            let current = rounds[parsing], other = rounds[1 - parsing]
            ParallelWork.run(n + 1) { k in
                if k == 0 {
                    if handing != nil { for slot in other { slot.batch.replay(into: &sink) } }
                    if hasWork { read(into: other) } else { for slot in other { slot.block = nil } }
                } else if hasWork {
                    current[k - 1].parse()
                }
            }
            handing = hasWork ? parsing : nil
            parsing = 1 - parsing
        }
        for slot in rounds.joined() {
            counts.rows += slot.counts.rows; counts.headers += slot.counts.headers; counts.badLines += slot.counts.badLines
        }
        counts.bytes += reading.bytes; counts.badLines += reading.badLines; counts.tornLines += reading.tornLines
        if let failure { throw failure }
    }

    /// One block in flight: its buffer, where the block lies, and the rows parsed from it.
    final class Slot {
        let buffer: UnsafeMutablePointer<UInt8>
        var block: Range<Int>?
        let batch: RowBatch
        var parser: RowParser
        /// Rows, headers and bad lines of all the blocks this slot parsed.
        var counts = ScanCounts()

        init(stream: BlockStream, whenOffset: Double, masks: [UInt32]) {
            buffer = stream.allocateBuffer()
            parser = RowParser(whenOffset: whenOffset)
            batch = RowBatch(masks: masks)
        }

        func deallocate() { buffer.deallocate(); parser.deallocate(); batch.deallocate() }

        /// Parses the block (if any) into the batch, as `RowScanner` parses a block.
        func parse() {
            batch.removeAll()
            guard let block else { return }
            var sink = BatchSink(batch: batch)
            parser.parseBlock(UnsafePointer(buffer), block.lowerBound, block.upperBound, sink: &sink, counts: &counts)
        }
    }
}

/// The rows of one block, in order: for each, its source, When and values, packed.
final class RowBatch {
    let masks: [UInt32]
    private var sources: UnsafeMutablePointer<UInt8>
    private var numbers: UnsafeMutablePointer<Double>
    private var rowCapacity = 8_192
    private var numberCapacity = 8_192 * 5
    private(set) var count = 0
    private var used = 0

    init(masks: [UInt32]) {
        self.masks = masks
        sources = .allocate(capacity: rowCapacity)
        numbers = .allocate(capacity: numberCapacity)
    }

    func deallocate() { sources.deallocate(); numbers.deallocate() }

    func removeAll() { count = 0; used = 0 }

    @inline(__always)
    func append(_ source: Source, when: Double, values: UnsafeBufferPointer<Double>) {
        if count == rowCapacity { grow(rows: true) }
        if used + values.count + 1 > numberCapacity { grow(rows: false) }
        sources[count] = source.rawValue
        numbers[used] = when
        for k in 0..<values.count { numbers[used + 1 + k] = values[k] }
        count += 1
        used += values.count + 1
    }

    private func grow(rows: Bool) {
        if rows {
            let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: rowCapacity * 2)
            bigger.update(from: sources, count: count)
            sources.deallocate()
            sources = bigger
            rowCapacity *= 2
        } else {
            let bigger = UnsafeMutablePointer<Double>.allocate(capacity: numberCapacity * 2)
            bigger.update(from: numbers, count: used)
            numbers.deallocate()
            numbers = bigger
            numberCapacity *= 2
        }
    }

    /// Hands the rows to `sink` in order.
    func replay<S: RowSink>(into sink: inout S) {
        var at = 0
        for r in 0..<count {
            guard let source = Source(rawValue: sources[r]) else { continue }
            let n = source.valueCount
            sink.row(source, when: numbers[at], values: UnsafeBufferPointer(start: numbers + at + 1, count: n))
            at += n + 1
        }
    }
}

/// Collects a block's rows into a `RowBatch`, reading the values the real sink reads.
struct BatchSink: RowSink {
    let batch: RowBatch
    mutating func row(_ source: Source, when: Double, values: UnsafeBufferPointer<Double>) {
        batch.append(source, when: when, values: values)
    }
    func valuesRead(_ source: Source) -> UInt32 { batch.masks[source.order] }
}
