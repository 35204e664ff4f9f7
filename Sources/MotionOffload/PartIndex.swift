import MotionCore

/// Which recording each finished file (part) belongs to, and how many files it has: lets a
/// report count recordings as recordings and files as files. The parts of a rotated
/// recording share the recording id in their metadata; a part without one is a recording
/// of its own. Copies go part by part, so a report keeps lists of part names (CSV bases)
/// and asks the index how many recordings and files they are.
public struct PartIndex: Sendable, Equatable {
    struct Facts: Sendable, Equatable {
        /// The recording the part belongs to: `id …`, or `file …` without an id.
        var recording: String
        /// The CSV and the files beside it.
        var files: Int
    }

    private var facts: [String: Facts] = [:]
    /// How many finished parts each recording has in the folder.
    private var partsPerRecording: [String: Int] = [:]

    public init() {}

    /// The index of the finished parts in a recordings folder.
    public init(_ parts: [FinishedPart]) {
        for p in parts {
            let key = p.recordingID.map { "id " + $0 } ?? "file " + p.base
            facts[p.base] = Facts(recording: key, files: p.files.count)
            partsPerRecording[key, default: 0] += 1
        }
    }

    /// The recording `base` belongs to (a part the index does not know is its own).
    func recording(of base: String) -> String { facts[base]?.recording ?? "file " + base }

    /// The distinct recordings the parts `bases` belong to.
    public func recordings(_ bases: [String]) -> Set<String> { Set(bases.map(recording(of:))) }

    /// The files (CSVs and the files beside them) of the parts `bases`.
    public func files(_ bases: [String]) -> Int { bases.reduce(0) { $0 + (facts[$1]?.files ?? 1) } }

    /// The recordings whose every finished part is among `bases`.
    public func wholeRecordings(_ bases: [String]) -> Set<String> {
        var seen: [String: Set<String>] = [:]
        for b in bases { seen[recording(of: b), default: []].insert(b) }
        return Set(seen.filter { $0.value.count >= (partsPerRecording[$0.key] ?? 1) }.keys)
    }

    /// `1 recording`, `3 files`: a count and its noun, plural when not 1.
    public static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

    /// A report's first line, e.g. `Copied 1 recording (10 files, 12.3 MB); 3 already there
    /// (16 files).`: `verb` and the recordings of the parts `done` (with the `fileCount`
    /// files and `bytes` of this run), `only in part` when a finished part of one is in
    /// neither `done` nor `before`; then the recordings wholly among `before` (parts there
    /// from an earlier run) and those only partly among them, `beforeText` saying where.
    public func summary(_ verb: String, done: [String], fileCount: Int, bytes: Int64,
                        before: [String], beforeText: String) -> String {
        let doneRecordings = recordings(done)
        var text = verb + " " + Self.count(doneRecordings.count, "recording")
        if !done.isEmpty { text += " (" + Self.count(fileCount, "file") + ", " + ByteText.describe(bytes) + ")" }
        let partial = doneRecordings.subtracting(wholeRecordings(done + before)).count
        if partial > 0 { text += doneRecordings.count == 1 ? ", only in part" : ", \(partial) of them only in part" }
        let whole = wholeRecordings(before)
        let wholeParts = before.filter { whole.contains(recording(of: $0)) }
        let partly = before.filter { !whole.contains(recording(of: $0)) }
        if !wholeParts.isEmpty {
            text += "; \(whole.count) \(beforeText) (" + Self.count(files(wholeParts), "file") + ")"
        }
        if !partly.isEmpty {
            text += "; part of " + Self.count(recordings(partly).count, "recording") + " \(beforeText) ("
                + Self.count(files(partly), "file") + ")"
        }
        return text + "."
    }

    /// `10 files of 1 recording`: the files of the parts `bases` and their recordings.
    public func filesOfRecordings(_ bases: [String]) -> String {
        Self.count(files(bases), "file") + " of " + Self.count(recordings(bases).count, "recording")
    }
}
