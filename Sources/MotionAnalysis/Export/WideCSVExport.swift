import MotionCore
import SystemPackage

/// `export --format wide-csv`: one row per tick with named columns, the form pandas and
/// spreadsheets want. Rows of one tick (same When) share a line; an `L` row joins the tick
/// with exactly its When or gets a line of its own, in time order. Every value is copied
/// as written in the recording (nothing is re-formatted) except the time of IMU rows stamped
/// before a clock step, which is placed by GPS time as the summary places it (`ClockStep`),
/// and relative When, made epoch time with the metadata's start;
/// a value a row does not have is an empty cell. Streaming: memory is a 2 s reorder window.
public struct WideCSVExport {
    public static let columns = ["time", "label", "ax", "ay", "az", "gx", "gy", "gz", "mx", "my", "mz",
                                 "rx", "ry", "rz", "uax", "uay", "uaz", "pitch", "roll", "yaw",
                                 "lat", "lon", "alt", "speed", "course", "climb", "eph", "epv", "mode"]
    /// First value column of each source.
    static func firstColumn(_ s: Source) -> Int {
        switch s {
        case .accelerometer: return 2
        case .gyroscope: return 5
        case .magnetometer: return 8
        case .deviceMotion: return 11
        case .location: return 20
        }
    }
    static let reorderSeconds = 2.0

    struct Line {
        var when: Double
        var cells: [ArraySlice<UInt8>?]
    }

    private var pending: [Line] = []
    private var latest = -Double.infinity
    private let emit: ([UInt8]) throws -> Void
    private var out: [UInt8] = []
    public private(set) var rowsIn = 0
    /// The files without readable metadata whose When looks relative (their first When,
    /// below `RecordingAnalyzer.relativeLooking`): their time column stays seconds since an
    /// unknown start.
    public private(set) var relativeWithoutMetadata: [(path: String, firstWhen: Double)] = []
    /// The first When of the file being converted, as written.
    private var firstWhen: Double?
    public private(set) var linesOut = 0
    public private(set) var skipped = 0

    /// `emit` receives the output in chunks of about 1 MiB.
    public init(emit: @escaping ([UInt8]) throws -> Void) {
        self.emit = emit
        out = Array((Self.columns.joined(separator: ",") + "\n").utf8)
    }

    /// Converts `paths` in order; `progress` as for `RecordingAnalyzer.summarize`.
    public mutating func convert(_ paths: [String], progress: RecordingAnalyzer.FilesProgress? = nil) throws {
        let metas = paths.map { RecordingFiles.readMetadata(besides: $0) }
        let steps = ClockStep.assign(metas)
        var bytesBefore: Int64 = 0
        for (k, path) in paths.enumerated() {
            let step = steps.perFile[k].map { steps.steps[$0] }
            // Relative When becomes epoch time with the metadata's start: two relative
            // recordings exported together were interleaved as if they ran at once.
            let offset = metas[k].map { $0.recording.whenMode == .relative ? $0.recording.startEpoch : 0 } ?? 0
            let rate = metas[k]?.recording.rateHz ?? 0
            var failure: Error?
            var read: Int64 = 0
            let told = progress.map { told in { (bytes: Int64) in read = bytes; told(path, bytesBefore, bytes) } }
            try RowScanner.scanLines(path: path, progress: told) { line in
                guard failure == nil else { return }
                do { try self.add(line, step: step, offset: offset, rateHz: rate) } catch { failure = error }
            }
            if let failure { throw failure }
            if metas[k] == nil, let first = firstWhen, first < RecordingAnalyzer.relativeLooking {
                relativeWithoutMetadata.append((path, first))
            }
            firstWhen = nil
            bytesBefore += read
        }
        try finish()
    }

    mutating func add(_ line: UnsafeBufferPointer<UInt8>, step: ClockStep? = nil, offset: Double = 0, rateHz: Int = 0) throws {
        guard line.count >= 6, line[1] == 0x2C, line[3] == 0x2C, let source = Source(rawValue: line[0]) else {
            if !(line.count >= 6 && line[0] == 0x53 && line[1] == 0x6F) { skipped += 1 }   // header lines are not skipped rows
            return
        }
        // Split the fields, keeping their text.
        var fields: [ArraySlice<UInt8>] = []
        fields.reserveCapacity(12)
        let bytes = Array(line)
        var start = 0
        for i in 0...bytes.count where i == bytes.count || bytes[i] == 0x2C {
            fields.append(bytes[start..<i]); start = i + 1
        }
        guard fields.count == source.fieldCount,
              var when = fields[2].withUnsafeBufferPointer({ b in b.baseAddress.flatMap { FastNumber.parse($0, 0, b.count) } }),
              when.isFinite else { skipped += 1; return }
        rowsIn += 1
        if firstWhen == nil { firstWhen = when }
        if offset != 0 {
            when += offset
            // A fix goes back on the tick it was rounded from, and joins its line.
            if source == .location { when = RelativeWhen.placedOnTicks(when, start: offset, rateHz: rateHz) }
            fields[2] = ArraySlice("\(when)".utf8)
        }
        if let step, step.isBefore(source, when) {
            when += step.seconds
            fields[2] = ArraySlice("\(when)".utf8)
        }
        // The line with this exact When, searching back from the newest.
        var index = pending.count - 1
        while index >= 0 && pending[index].when > when { index -= 1 }
        let first = Self.firstColumn(source)
        if index >= 0 && pending[index].when == when && pending[index].cells[first] == nil {
            for k in 0..<source.valueCount { pending[index].cells[first + k] = fields[3 + k] }
        } else {
            var cells = [ArraySlice<UInt8>?](repeating: nil, count: Self.columns.count)
            cells[0] = fields[2]; cells[1] = fields[1]
            for k in 0..<source.valueCount { cells[first + k] = fields[3 + k] }
            pending.insert(Line(when: when, cells: cells), at: index + 1)
        }
        latest = max(latest, when)
        // Flush in batches: removing from the front of the window row by row would cost
        // the window's length per row.
        guard pending.count >= 1024 else { return }
        var flush = 0
        while flush < pending.count && pending[flush].when < latest - Self.reorderSeconds { flush += 1 }
        if flush > 0 {
            for l in pending[0..<flush] { write(l) }
            pending.removeFirst(flush)
            if out.count >= 1 << 20 { try emit(out); out.removeAll(keepingCapacity: true) }
        }
    }

    private mutating func write(_ line: Line) {
        for (i, cell) in line.cells.enumerated() {
            if i > 0 { out.append(0x2C) }
            if let cell { out.append(contentsOf: cell) }
        }
        out.append(0x0A)
        linesOut += 1
    }

    mutating func finish() throws {
        for l in pending { write(l) }
        pending.removeAll()
        try emit(out)
        out.removeAll()
    }
}

extension RowScanner {
    /// Calls `handle` with every complete line of `path` (without its LF, CR removed); a
    /// torn last line and lines longer than `BlockReader.maxLineBytes` are left out.
    /// `progress` is told the bytes read so far, about every MiB and at the end.
    public static func scanLines(path: String, progress: ScanProgress? = nil,
                                 _ handle: (UnsafeBufferPointer<UInt8>) -> Void) throws(ScanError) {
        var counts = ScanCounts()
        var done: Int64 = 0, told: Int64 = 0
        try BlockReader.forEachLine(path: path, counts: &counts) { p, count in
            var end = count
            if end > 0 && p[end - 1] == 0x0D { end -= 1 }
            handle(UnsafeBufferPointer(start: p, count: end))
            done += Int64(count) + 1
            if let progress, done - told >= 1 << 20 { told = done; progress(done) }
        }
        if done != told { progress?(done) }
    }
}
