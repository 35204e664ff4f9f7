/// A file that is shorter on disk than its metadata says it was when the writer closed it
/// (docs/FORMAT.md, "Metadata"): fewer bytes than `file.bytes`, or fewer rows of a source
/// than `file.rows`, while the metadata says it ended cleanly. Cut short after recording,
/// e.g. by an interrupted copy. A file longer than its metadata says is normal while it is
/// being recorded, and a file that did not end cleanly is recovery's business: neither is
/// one of these.
public struct CutShortFile: Sendable, Equatable {
    /// `file.bytes` in the metadata, and the file's size.
    public var metadataBytes: Int64
    public var fileBytes: Int64
    /// Rows per source in the metadata, and those the file has (nil: not counted).
    public var metadataRows: [Source: Int]
    public var fileRows: [Source: Int]?

    /// Nil unless `metadata` says the file ended cleanly and the file has fewer bytes than
    /// it says, or, with `fileRows` (the valid rows a scan counted), fewer rows of a source.
    /// Where the rows were counted, fewer bytes with every row there is not "cut short" (a
    /// header taken off, an edit): a cut takes at least the last row with it.
    /// `fileLastWhen`: the When of the file's last row, as written (where it was read): when
    /// it is the metadata's last, the file was not cut short, whatever its size (a row with a
    /// field missing made it "cut short … an interrupted copy?").
    public init?(metadata: RecordingMetadata, fileBytes: Int64, fileRows: [Source: Int]? = nil, fileLastWhen: Double? = nil) {
        guard metadata.endedCleanly else { return nil }
        var expected: [Source: Int] = [:]
        for (key, n) in metadata.file.rows {
            guard key.count == 1, let letter = key.first, let s = Source(letter: letter) else { continue }
            expected[s] = n
        }
        let fewerRows = fileRows.map { rows in expected.contains { (rows[$0.key] ?? 0) < $0.value } } ?? false
        guard fileRows == nil ? fileBytes < metadata.file.bytes : fewerRows else { return nil }
        metadataBytes = metadata.file.bytes
        self.fileBytes = fileBytes
        metadataRows = expected
        self.fileRows = fileRows
        if let read = fileLastWhen, let written = metadata.file.lastWhen, read >= written { lastRowThere = true }
    }

    /// The file still ends with the row it was closed with (known only where it was read).
    public var lastRowThere = false

    /// Fewer bytes than when it was closed, and not ending with its last row: cut short (not
    /// only rows damaged inside it).
    public var isShorter: Bool { fileBytes < metadataBytes && !lastRowThere }

    /// "X.csv is shorter than when it was closed: the metadata says 1000 A rows and
    /// 444 571 bytes, the file has 499 A rows and 222 285 bytes — …".
    public func sentence(subject: String) -> String {
        // The sources that are short (all the metadata's when only the bytes are known).
        let sources = Source.canonicalOrder.filter { s in
            guard let want = metadataRows[s] else { return false }
            guard let rows = fileRows else { return true }
            return (rows[s] ?? 0) < want || !isShorter
        }
        func rows(_ counts: [Source: Int]) -> String {
            sources.map { "\(Self.grouped(Int64(counts[$0] ?? 0))) \($0) rows" }.joined(separator: ", ")
        }
        let bytes = { (n: Int64) in "\(Self.grouped(n)) bytes" }
        let said = sources.isEmpty ? bytes(metadataBytes) : "\(rows(metadataRows)) and \(bytes(metadataBytes))"
        let has = fileRows.map { sources.isEmpty ? bytes(fileBytes) : "\(rows($0)) and \(bytes(fileBytes))" } ?? bytes(fileBytes)
        if isShorter {
            return "\(subject) is shorter than when it was closed: the metadata says \(said), the file has \(has)"
                + " — it was cut short after recording (an interrupted copy?); the original may still be on the logger"
        }
        return "\(subject) has fewer rows than when it was closed: the metadata says \(said), the file has \(has)"
            + " — rows were damaged after recording (or the metadata was edited); the original may still be on the logger"
    }

    /// `444 571`: digits in groups of three from five digits on (`1000` stays), as people
    /// read byte and row counts.
    static func grouped(_ n: Int64) -> String {
        let digits = Array(String(n.magnitude))
        guard digits.count > 4 else { return String(n) }
        var out = ""
        for (k, d) in digits.enumerated() {
            if k > 0 && (digits.count - k) % 3 == 0 { out.append(" ") }
            out.append(d)
        }
        return (n < 0 ? "-" : "") + out
    }
}
