/// One recording file that recovery repaired.
public struct RecoveredFile: Sendable, Equatable, CustomStringConvertible {
    /// The CSV's file name.
    public var name: String
    /// Bytes cut from its end (a torn last line and whatever debris followed the last row).
    public var bytesCut: Int64
    /// Rows per source letter now in the file.
    public var rows: [String: Int]
    /// True when the metadata JSON was missing or unreadable and was rebuilt from the CSV.
    public var metadataRebuilt: Bool
    /// True when the file had no complete header and was reset to just the header.
    public var headerRewritten: Bool
    /// Where the metadata that could not be read was kept (`NAME.json.unreadable`).
    public var unreadableMetadataKeptAs: String? = nil

    public var description: String {
        var parts: [String] = []
        if headerRewritten { parts.append("header rewritten (the file was torn right after it was created)") }
        if bytesCut > 0 { parts.append("cut \(bytesCut) byte\(bytesCut == 1 ? "" : "s") after the last complete row") }
        let counted = Source.canonicalOrder.compactMap { s in rows[String(s.letter)].map { "\(s) \($0)" } }
        parts.append("rows " + (counted.isEmpty ? "none" : counted.joined(separator: ", ")))
        parts.append(metadataRebuilt ? "metadata rebuilt from the CSV" : "metadata completed")
        if let kept = unreadableMetadataKeptAs { parts.append("the metadata it had could not be read and is kept as \(kept)") }
        return name + ": " + parts.joined(separator: "; ")
    }
}

/// A file recovery could not repair, and why.
public struct RecoveryFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var message: String
    public var description: String { "\(path): \(message)" }
}

/// What recovery did in one output folder.
public struct RecoveryReport: Sendable, Equatable {
    public var folder: String
    public var recovered: [RecoveredFile] = []
    /// Files another running recording holds open (left alone).
    public var inUse: [String] = []
    public var failures: [RecoveryFailure] = []

    public init(folder: String) { self.folder = folder }

    public var isEmpty: Bool { recovered.isEmpty && inUse.isEmpty && failures.isEmpty }
}
