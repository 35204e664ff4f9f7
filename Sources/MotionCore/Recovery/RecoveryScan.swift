import MotionSystem
import SystemPackage

/// What a pass over a CSV found: where its last complete, valid row ends (everything after
/// it is a torn line or debris of a power cut) and how many rows each source has before it.
struct RecoveryScan: Equatable {
    /// The first line is the format's header.
    var headerValid = false
    /// The file starts like the header but ends before it is complete (or is all NUL bytes /
    /// empty): a file torn right after it was created.
    var headerTorn = false
    /// Bytes to keep: the end of the last valid row (or of the header).
    var keepBytes: Int64 = 0
    var fileBytes: Int64 = 0
    /// Valid rows per source, all of them before `keepBytes`.
    var rows: [Source: Int] = [:]
    var firstWhen: Double?
    var lastWhen: Double?
    var firstLabel: UInt8?
    /// Invalid lines before `keepBytes` (left alone: `check` reports them).
    var invalidLinesKept = 0
    /// Lines (complete or torn) after the last valid row: these are cut.
    var linesCut = 0
    /// Ticks without a row between consecutive rows of each IMU source (with a rate given).
    var absentTicks: [Source: Int64] = [:]
    /// The shortest step of When between consecutive rows of each IMU source: one period.
    var shortestInterval: [Source: Double] = [:]

    /// The source that has a row every tick: A, else G, else D, else M (which may run slower).
    var mainSource: Source? {
        [Source.accelerometer, .gyroscope, .deviceMotion, .magnetometer].first { (rows[$0] ?? 0) > 0 }
    }

    /// Ticks of the main source without a row (nil: not counted).
    var ticksWithoutRows: Int64? {
        guard let s = mainSource, let n = absentTicks[s] else { return nil }
        return n
    }

    var bytesToCut: Int64 { fileBytes - keepBytes }

    /// Reads the file behind `fd` from the start, with the shared format parser.
    static func scan(fd: FileDescriptor, path: String, rateHz: Int? = nil) throws(RecoveryFailure) -> RecoveryScan {
        var result = RecoveryScan()
        var lastWhen: [Source: Double] = [:]
        var absent: [Source: Int64] = [:]
        var parser = LineParser()
        var lineNumber = 0
        var lineStart: Int64 = 0
        var pending: [UInt8] = []
        var pendingOverflow = false
        var pendingAllNUL = true
        var invalidSinceKeep = 0
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        var offset: Int64 = 0
        let maxLine = CSVFormat.maxRowBytes + 1

        func finishLine(_ bytes: ArraySlice<UInt8>, end: Int64, overflow: Bool) {
            lineNumber += 1
            var row: Row?
            var failed = overflow
            if !overflow {
                parser.parse(bytes) { item in
                    switch item {
                    case .row(_, let r): row = r
                    case .problem(let p): if p.severity == .error { failed = true }
                    }
                }
            }
            if lineNumber == 1 {
                result.headerValid = !failed
                if result.headerValid { result.keepBytes = end }
                return
            }
            if let row, !failed, result.headerValid {
                if row.source != .location {
                    if let last = lastWhen[row.source] {
                        let delta = row.when - last
                        if delta > 0 && delta < (result.shortestInterval[row.source] ?? .infinity) {
                            result.shortestInterval[row.source] = delta
                        }
                        if let rate = rateHz {
                            let steps = (delta * Double(rate)).rounded()
                            if steps.isFinite, steps > 1, steps < 1e15 { absent[row.source, default: 0] += Int64(steps) - 1 }
                        }
                    }
                    lastWhen[row.source] = row.when
                }
                result.rows[row.source, default: 0] += 1
                if result.firstWhen == nil { result.firstWhen = row.when; result.firstLabel = row.label }
                result.lastWhen = row.when
                result.keepBytes = end
                result.invalidLinesKept += invalidSinceKeep
                invalidSinceKeep = 0
            } else {
                invalidSinceKeep += 1
            }
        }

        while true {
            let n: Int
            do {
                n = try chunk.withMutableBytes { (raw) throws(Errno) -> Int in try fd.readSome(into: raw) }
            } catch {
                throw RecoveryFailure(path: path, message: "cannot read: \(error)")
            }
            if n == 0 { break }
            var start = 0
            for i in 0..<n where chunk[i] == CSVFormat.newline {
                let end = offset + Int64(i) + 1
                if pending.isEmpty && !pendingOverflow {
                    finishLine(chunk[start..<i], end: end, overflow: i - start > maxLine)
                } else {
                    let overflow = pendingOverflow || pending.count + (i - start) > maxLine
                    if !overflow { pending.append(contentsOf: chunk[start..<i]) }
                    finishLine(pending[...], end: end, overflow: overflow)
                    pending.removeAll(keepingCapacity: true)
                    pendingOverflow = false
                }
                lineStart = end
                pendingAllNUL = true
                start = i + 1
            }
            if start < n {
                let tail = chunk[start..<n]
                if pendingAllNUL && tail.contains(where: { $0 != 0 }) { pendingAllNUL = false }
                if pendingOverflow || pending.count + tail.count > maxLine {
                    pendingOverflow = true
                    pending.removeAll(keepingCapacity: true)
                } else {
                    pending.append(contentsOf: tail)
                }
            }
            offset += Int64(n)
        }
        result.fileBytes = offset
        if rateHz != nil {
            for s in result.rows.keys where s != .location { result.absentTicks[s] = absent[s] ?? 0 }
        }
        let tornTail = offset > lineStart
        if lineNumber == 0 {
            // No complete line at all: empty, all NULs, or a header cut short.
            let header = CSVFormat.headerBytes
            let prefixOfHeader = !pendingOverflow && pending.count < header.count && Array(header.prefix(pending.count)) == pending
            result.headerTorn = offset == 0 || pendingAllNUL || prefixOfHeader
            result.keepBytes = 0
        }
        result.linesCut = invalidSinceKeep + (tornTail && lineNumber > 0 ? 1 : 0)
        return result
    }
}
