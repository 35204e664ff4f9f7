/// Writes the Moves-style storyline (`TimelineExport`) of a summary a day at a time while
/// the summary's filtered fixes go past in time order (`add`), holding only the fixes of
/// the day being written that lie in its moves: `export --format timeline` reads the
/// recording a second time for them instead of holding every fix of it. A day is encoded
/// and handed to `sink` once a fix after its last move (or the end) arrives.
///
/// (`FixStreamWriter`: the timeline exports written from a second reading of the fixes.)
public final class StorylineWriter: FixStreamWriter {
    private let sink: ([UInt8]) throws -> Void
    private let order: [String]
    private let entries: [String: [TimelineEntry]]
    private let lastUpdate: Double
    private let encoder = TimelineExport.storylineEncoder
    /// The day being collected (index into `order`), where its last entry ends, its moves
    /// (start, end) in time order, the next of them a fix may fall in, and the fixes that
    /// fell in one.
    private var index = 0
    private var dayEnd = -Double.infinity
    private var moves: [(start: Double, end: Double)] = []
    private var move = 0
    private var fixes: [Fix] = []
    /// The first error `sink` threw: nothing more is written, `finish` throws it.
    private var failure: Error?

    public init(_ summary: AnalysisSummary, sink: @escaping ([UInt8]) throws -> Void) {
        self.sink = sink
        (order, entries) = TimelineExport.storylineDays(summary)
        lastUpdate = summary.end ?? 0
        startDay()
    }

    /// The next fix (after the one before in time).
    public func add(_ fix: Fix) {
        guard failure == nil else { return }
        while failure == nil && index < order.count && fix.time > dayEnd { endDay() }
        while move < moves.count && moves[move].end < fix.time { move += 1 }
        if move < moves.count && moves[move].start <= fix.time { fixes.append(fix) }
    }

    /// Writes the days left; throws what `sink` or the encoder threw.
    public func finish() throws {
        if order.isEmpty {
            do { write(Array(try encoder.encode([TimelineExport.Day]())) + [0x0A]) } catch { failure = error }
        }
        while failure == nil && index < order.count { endDay() }
        if let failure { throw failure }
    }

    private func startDay() {
        guard index < order.count else { return }
        let day = entries[order[index]] ?? []
        dayEnd = day.map(\.end).max() ?? -.infinity
        moves = day.filter { $0.type == .move }.map { ($0.start, $0.end) }
        move = 0
    }

    /// Encodes and hands on the day being collected, and starts the next (also when
    /// writing failed); the fixes that also lie in the next day's moves (one at midnight)
    /// are kept for it.
    private func endDay() {
        let date = order[index]
        defer {
            index += 1
            startDay()
            let from = moves.first?.start ?? .infinity
            fixes.removeAll { $0.time < from }
        }
        if index == 0 { write(Array("[\n".utf8)) }
        // Indented one level as in the whole array, but not on an empty line (the inside
        // of an empty array, `[\n\n  ]`: a day without a move has an empty summary).
        var bytes: [UInt8] = [0x20, 0x20]
        do {
            let day = TimelineExport.day(date, entries[date] ?? [], fixes: fixes, lastUpdate: lastUpdate)
            var lineStart = false
            for b in try encoder.encode(day) {
                if lineStart && b != 0x0A { bytes += [0x20, 0x20] }
                lineStart = b == 0x0A
                bytes.append(b)
            }
        } catch {
            failure = error
            return
        }
        bytes += Array((index + 1 < order.count ? ",\n" : "\n]\n").utf8)
        write(bytes)
    }

    private func write(_ bytes: [UInt8]) {
        guard failure == nil else { return }
        do { try sink(bytes) } catch { failure = error }
    }
}
