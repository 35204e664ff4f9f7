/// Binary data inside a recording (a control character other than TAB and CR, e.g. the
/// zeros a crash or power cut can leave) and the lines after it up to the next valid row:
/// one defect, after which `RecordingReader` goes on reading, as `summary` and recovery do.
/// A run longer than `maxBytes` is no damage to a recording but a file that is not one
/// (random bytes): reading stops there, so such a file is never read line by line.
struct BinaryRun: Equatable {
    /// The most bytes from the first binary byte without a valid row before reading stops.
    static let maxBytes: Int64 = 1 << 20
    /// Byte offsets (from 0) of the first and the last binary byte.
    var start: Int64
    var last: Int64
    /// The line the first binary byte is on.
    var firstLine: Int

    func isTooLong(at offset: Int64) -> Bool { offset - start > Self.maxBytes }
}

extension LineParser {
    /// Binary data that ends reading at byte `offset`: before the header (not a recording),
    /// or `run` went on for more than `BinaryRun.maxBytes` without a valid row.
    func binaryStop(at offset: Int64, run: BinaryRun?, _ handle: (RecordingItem) -> Void) {
        let line = run?.firstLine ?? lineNumber + 1
        let message = run == nil
            ? "not a recording (binary data at byte \(offset))"
            : "binary data at byte \(offset), and more than \(BinaryRun.maxBytes >> 20) MiB after it without a valid row: "
                + "the rest of the file is not a recording; reading stopped"
        handle(.problem(.init(line: line, severity: .error, message: message)))
    }

    /// The end of `run`: at the valid row on line `resumedAt`, or (nil) at the end of the file.
    func binary(_ run: BinaryRun, resumedAt: Int?, _ handle: (RecordingItem) -> Void) {
        let bytes = run.last - run.start + 1
        let lastLine = (resumedAt ?? lineNumber + 1) - 1
        let lines = lastLine > run.firstLine ? "lines \(run.firstLine)–\(lastLine)" : "line \(run.firstLine)"
        let range = bytes == 1 ? "binary data at byte \(run.start)" : "binary data at byte \(run.start) up to byte \(run.last) (\(bytes) bytes)"
        let end = resumedAt.map { "; reading went on at line \($0)" } ?? " to the end of the file"
        handle(.problem(.init(line: run.firstLine, severity: .error,
                              message: "\(range): \(lines) skipped, not a recording (a crash or power cut can leave zeros)\(end)")))
    }

    /// A line in a binary run (or after its end) without binary data: the items it gives
    /// when it is a valid row, which ends the run; nil, having counted it, when it is not.
    mutating func resume<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> [RecordingItem]? {
        var items: [RecordingItem] = []
        parse(bytes) { items.append($0) }
        return items.contains { if case .row = $0 { true } else { false } } ? items : nil
    }
}
