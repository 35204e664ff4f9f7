import MotionCore
import MotionSystem

/// `RowScanner` on several processors: the file is cut into blocks of complete lines
/// (where it lies when it can be mapped, `MappedBlocks`; else read, `BlockStream`), the
/// blocks are parsed at the same time into `RowBatch`es on worker threads, and the
/// batches go to the sink in file order on the caller's thread — so the
/// sink sees exactly the rows, in exactly the order, that the one-thread scan gives it, and
/// needs no locks.
///
/// The blocks flow through a ring of slots (`OrderedPipeline`): as soon as the oldest block
/// is parsed, its rows go to the sink and its slot is filled with the next block, while the
/// workers parse the blocks behind it. Memory is the ring's 512 KiB blocks (mapped pages
/// are let go once their rows are handed on, `MappedFile.releaseStep` at a time) and their
/// batches (about 7 MB with two processors, 14 MB with four or more), whatever the file size.
enum ParallelRowScanner {
    /// Blocks in flight: four per worker (at most sixteen), so that the workers always have
    /// a block to parse while the caller hands rows to the sink and reads.
    static var slots: Int { min(16, 4 * ParallelWork.processors) }
    /// Bytes per block (half the one-thread reader's: the ring holds many).
    static let blockBytes = 1 << 19

    static func scan<S: RowSink>(path: String, whenOffset: Double, into sink: inout S, counts: inout ScanCounts,
                                 mapped inPlace: Bool = true, progress: ScanProgress? = nil) throws(ScanError) {
        let stream = try BlockStream(path: path, blockBytes: blockBytes, inPlace: inPlace)
        let masks = Source.allCases.map { sink.valuesRead($0) }
        // No more slots than the file has blocks, and one to find its end: a small file (a
        // folder of hundreds) does not allocate and clear the whole ring each time.
        let blocks = Int(min(Int64(slots), stream.size / Int64(blockBytes) + 1))
        let ring = (0..<min(slots, blocks + 1)).map { _ in
            Slot(buffer: stream.allocateBuffer(), whenOffset: whenOffset, masks: masks)
        }
        defer { for slot in ring { slot.deallocate() } }
        var reading = ScanCounts()
        var failure: ScanError?
        OrderedPipeline.run(slots: ring.count, workers: ParallelWork.processors, fill: { k in
            guard failure == nil else { return false }
            do throws(ScanError) {
                let next = try stream.next(into: ring[k].buffer, counts: &reading)
                ring[k].base = next?.base
                ring[k].block = next?.block
                progress?(reading.bytes)
            } catch {
                failure = error
                return false
            }
            return ring[k].block != nil
        }, process: { k in
            ring[k].parse()
        }, drain: { k in
            ring[k].batch.replay(into: &sink)
            if let block = ring[k].block { stream.release(before: block.upperBound) }
        })
        if failure == nil {
            do throws(ScanError) { try stream.finish() } catch { failure = error }
        }
        for slot in ring {
            counts.rows += slot.counts.rows; counts.headers += slot.counts.headers; counts.badLines += slot.counts.badLines
            counts.crlfLines += slot.counts.crlfLines; counts.otherHeaders += slot.counts.otherHeaders
        }
        counts.bytes += reading.bytes; counts.badLines += reading.badLines; counts.tornLines += reading.tornLines
        if let failure { throw failure }
    }

    /// One block in flight: where it lies (in the mapped file, or in the slot's buffer when
    /// the file is read: `BlockStream`), and the rows parsed from it.
    final class Slot {
        /// The slot's own buffer, where the file is read rather than mapped.
        let buffer: UnsafeMutablePointer<UInt8>?
        var base: UnsafePointer<UInt8>?
        var block: Range<Int>?
        let batch: RowBatch
        var parser: RowParser
        /// Rows, headers and bad lines of all the blocks this slot parsed.
        var counts = ScanCounts()

        init(buffer: UnsafeMutablePointer<UInt8>?, whenOffset: Double, masks: [UInt32]) {
            self.buffer = buffer
            parser = RowParser(whenOffset: whenOffset)
            batch = RowBatch(masks: masks)
        }

        func deallocate() { buffer?.deallocate(); parser.deallocate(); batch.deallocate() }

        /// Parses the block (if any) into the batch, as `RowScanner` parses a block.
        func parse() {
            batch.removeAll()
            guard let block, let base else { return }
            var sink = BatchSink(batch: batch)
            parser.parseBlock(base, block.lowerBound, block.upperBound, sink: &sink, counts: &counts)
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
        if count == rowCapacity || used + values.count + 1 > numberCapacity { grow() }
        sources[count] = source.rawValue
        let at = numbers + used
        at[0] = when
        if values.count == 3 {   // A, G and M rows, unrolled
            at[1] = values[0]; at[2] = values[1]; at[3] = values[2]
        } else {
            for k in 0..<values.count { at[1 + k] = values[k] }
        }
        count &+= 1
        used &+= values.count &+ 1
    }

    /// Room for twice as many rows and numbers (not inlined: it is rare).
    @inline(never)
    private func grow() {
        let moreSources = UnsafeMutablePointer<UInt8>.allocate(capacity: rowCapacity * 2)
        moreSources.update(from: sources, count: count)
        sources.deallocate()
        sources = moreSources
        rowCapacity *= 2
        let moreNumbers = UnsafeMutablePointer<Double>.allocate(capacity: numberCapacity * 2)
        moreNumbers.update(from: numbers, count: used)
        numbers.deallocate()
        numbers = moreNumbers
        numberCapacity *= 2
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
    @inline(__always)
    mutating func row(_ source: Source, when: Double, values: UnsafeBufferPointer<Double>) {
        batch.append(source, when: when, values: values)
    }
    func valuesRead(_ source: Source) -> UInt32 { batch.masks[source.order] }
}
