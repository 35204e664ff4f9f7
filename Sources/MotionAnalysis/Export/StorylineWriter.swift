import MotionCore

/// Writes the Moves-style storyline (`TimelineExport`) of a summary while the summary's
/// filtered fixes go past in time order (`add`): `export --format timeline` reads the
/// recording a second time for them instead of holding every fix of it.
///
/// A day is encoded with a placeholder point in each move's `trackPoints`; the text before
/// the first placeholder is written at once, and each move's points are written in its
/// place as its fixes arrive, 4096 at a time (each batch encoded as an array and indented
/// to the placeholder's depth), so a long move is not held either: a day at 1 Hz without
/// a stop took 122 MB encoded whole, at 10 Hz ten times that. The bytes are those of the
/// whole array encoded at once (`StorylineStreamTests` compare).
///
/// (`FixStreamWriter`: the timeline exports written from a second reading of the fixes.)
public final class StorylineWriter: FixStreamWriter {
    /// The sink, handed about 64 KiB at a time.
    private let out: JSONPieces
    private let order: [String]
    private let entries: [String: [TimelineEntry]]
    private let lastUpdate: Double
    private let encoder = TimelineExport.storylineEncoder
    /// The day being written (index into `order`), where its last entry ends, its moves in
    /// time order, the one fixes go to, and the day's text around its moves' points:
    /// `between[k]` follows move k - 1's points (`between[0]` is the day's start).
    private var index = 0
    private var dayEnd = -Double.infinity
    private var moves: [TimelineEntry] = []
    private var move = 0
    private var between: [[UInt8]] = []
    /// The move's points not yet written, whether any were, and the indentation of its
    /// points.
    private var pending: [TimelineExport.TrackPoint] = []
    private var wrote = false
    private var indent = 0
    private var ends = MoveEndFixes()
    /// The first error the sink or the encoder threw: nothing more is written, `finish`
    /// throws it.
    private var failure: Error?

    static let batch = 4096

    public init(_ summary: AnalysisSummary, sink: @escaping ([UInt8]) throws -> Void) {
        out = JSONPieces(sink)
        (order, entries) = TimelineExport.storylineDays(summary)
        lastUpdate = summary.end ?? 0
        startDay()
    }

    /// The next fix (after the one before in time).
    public func add(_ fix: Fix) {
        while failure == nil && index < order.count && fix.time > dayEnd { endDay() }
        while failure == nil && move < moves.count && moves[move].end < fix.time { endMove() }
        if move < moves.count && moves[move].start <= fix.time { point(fix) }
    }

    /// Writes the days left; throws what the sink or the encoder threw.
    public func finish() throws {
        if order.isEmpty {
            do { write(Array(try encoder.encode([TimelineExport.Day]())) + [0x0A]) } catch { failure = error }
        }
        while failure == nil && index < order.count { endDay() }
        if failure == nil {
            do { try out.flush() } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// A fix of the current move.
    private func point(_ fix: Fix) {
        ends.note(fix)
        pending.append(TimelineExport.trackPoint(fix))
        if pending.count >= Self.batch { writePending() }
    }

    /// Writes the pending points: encoded as an array, without its brackets, every line
    /// indented to the placeholder's depth.
    private func writePending() {
        guard failure == nil, !pending.isEmpty else { pending.removeAll(); return }
        do {
            let encoded = try encoder.encode(pending)   // "[\n  {…},\n  {…}\n]", elements at depth 2
            write((wrote ? Array(",\n".utf8) : []) + Self.indented(encoded.dropFirst(2).dropLast(2), by: indent - 2))
            wrote = true
        } catch {
            failure = error
        }
        pending.removeAll(keepingCapacity: true)
    }

    /// The current move is complete: its last points, then the day's text up to the next
    /// move's points (or the day's end); the next move takes the fixes carried over.
    private func endMove() {
        writePending()
        move += 1
        write(between[move])
        wrote = false
        ends.endMove(at: moves[move - 1].end)
        takeCarried()
    }

    private func takeCarried() {
        guard move < moves.count else { return }
        for f in ends.carried(into: moves[move]) { point(f) }
    }

    private func startDay() {
        guard index < order.count else { return }
        let date = order[index]
        let day = entries[date] ?? []
        dayEnd = day.map(\.end).max() ?? -.infinity
        moves = day.filter { $0.type == .move }
        move = 0
        wrote = false
        do {
            guard let parts = Self.split(try dayText(date, day), moves: moves.count) else { throw PlaceholderMissing() }
            (between, indent) = parts
        } catch {
            failure = error
            moves = []
            return
        }
        write((index == 0 ? Array("[\n".utf8) : []) + between[0])
        takeCarried()
    }

    /// Writes the day's moves left and its end, and starts the next day (also when
    /// writing failed); a fix at midnight, where a move is cut, is carried into the next
    /// day's first move by `endMove`.
    private func endDay() {
        while failure == nil && move < moves.count { endMove() }
        if failure == nil { write(Array((index + 1 < order.count ? ",\n" : "\n]\n").utf8)) }
        index += 1
        startDay()
    }

    /// The day encoded with one placeholder point per move (its time `placeholder(k)`), and
    /// indented one level as in the whole array, but not on an empty line (the inside of an
    /// empty array, `[\n\n  ]`: a day without a move has an empty summary).
    private func dayText(_ date: String, _ day: [TimelineEntry]) throws -> [UInt8] {
        Self.indented(try encoder.encode(TimelineExport.day(date, day, lastUpdate: lastUpdate) { k, _ in
            [TimelineExport.TrackPoint(lat: 0, lon: 0, time: Self.placeholder(k))]
        }), by: 2)
    }

    /// `text` with `spaces` spaces before every line but empty ones.
    static func indented(_ text: some Collection<UInt8>, by spaces: Int) -> [UInt8] {
        let pad = [UInt8](repeating: 0x20, count: max(0, spaces))
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count + text.count / 8)
        var lineStart = true
        for b in text {
            if lineStart && b != 0x0A { bytes += pad }
            lineStart = b == 0x0A
            bytes.append(b)
        }
        return bytes
    }

    /// A time no fix gives (Moves' times are digits, T, Z and a sign).
    static func placeholder(_ k: Int) -> String { "@motionlog-track-\(k)@" }

    /// The day's text cut around each move's placeholder point (from the indentation of its
    /// `{` to its `}`), and the indentation of those points.
    /// (Nil if a placeholder is not where the encoder is expected to put it.)
    static func split(_ text: [UInt8], moves: Int) -> (between: [[UInt8]], indent: Int)? {
        var parts: [[UInt8]] = []
        var from = 0, indent = 0
        for k in 0..<moves {
            let marker = Array(placeholder(k).utf8)
            guard let at = text[from...].firstRange(of: marker)?.lowerBound,
                  let open = text[from..<at].lastIndex(of: 0x7B),
                  let close = text[at...].firstIndex(of: 0x7D) else { return nil }
            var lineStart = open
            while lineStart > from && text[lineStart - 1] == 0x20 { lineStart -= 1 }
            indent = open - lineStart
            parts.append(Array(text[from..<lineStart]))
            from = close + 1
        }
        parts.append(Array(text[from...]))
        return (parts, indent)
    }

    /// The encoder did not write a placeholder point as expected (never seen: a program
    /// error, reported rather than writing a wrong file).
    struct PlaceholderMissing: Error, CustomStringConvertible {
        var description: String { "the storyline could not be written (a move's place in the day's text was not found)" }
    }

    private func write(_ bytes: [UInt8]) {
        guard failure == nil else { return }
        do { try out.bytes(bytes) } catch { failure = error }
    }
}
