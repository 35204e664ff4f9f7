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

    /// Recordings (keys as `facts` has them) of which a part is being written now.
    private var beingRecorded: Set<String> = []

    public init() {}

    /// The index of the finished parts in a recordings folder; `recordingNow` are the
    /// recording ids of the parts being written (their finished parts are only a part).
    public init(_ parts: [FinishedPart], recordingNow: [String] = []) {
        beingRecorded = Set(recordingNow.map { "id " + $0 })
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

    /// A report's first line, e.g. `Copied 1 recording (10 files, 12.3 MB); 3 already there
    /// (16 files).`: `verb` and the recordings of the parts `done` (with the `fileCount`
    /// files and `bytes` of this run), `only in part` when a finished part of one is in
    /// neither `done` nor `before`; then the recordings wholly among `before` (parts there
    /// from an earlier run) and those only partly among them, `beforeText` saying where.
    ///
    /// A recording of which this run copied the parts an earlier one had not is one
    /// recording, not two: `Copied the rest of 1 recording (6 files, 2.6 MB; 4 files were
    /// already there).`; one still being recorded says its later parts come next time.
    public func summary(_ verb: String, done: [String], fileCount: Int, bytes: Int64,
                        before: [String], beforeText: String) -> String {
        let doneRecordings = recordings(done)
        // Recordings copied in this run whose other parts an earlier run copied.
        let continued = doneRecordings.intersection(recordings(before))
        let beforeOfDone = before.filter { continued.contains(recording(of: $0)) }
        let rest = !continued.isEmpty && continued == doneRecordings
        var text = verb + (rest ? " the rest of " : " ") + CountText.of(doneRecordings.count, "recording")
        if !done.isEmpty {
            text += " (" + CountText.of(fileCount, "file") + ", " + ByteText.describe(bytes)
            if !beforeOfDone.isEmpty {
                let n = files(beforeOfDone)
                let of = rest ? "" : " of " + (continued.count == 1 ? "1 of them" : "\(continued.count) of them")
                text += "; " + CountText.of(n, "file") + of + (n == 1 ? " was " : " were ") + beforeText
            }
            text += ")"
        }
        let partial = doneRecordings.subtracting(wholeRecordings(done + before)).count
        if partial > 0 { text += doneRecordings.count == 1 ? ", only in part" : ", \(partial) of them only in part" }
        let growing = doneRecordings.intersection(beingRecorded).count
        if growing > 0 {
            text += "; " + CountText.of(growing, "recording") + (growing == 1 ? " is" : " are")
                + " still being recorded: " + (growing == 1 ? "its" : "their") + " later parts are copied next time"
        }
        let earlier = before.filter { !continued.contains(recording(of: $0)) }
        let whole = wholeRecordings(earlier)
        let wholeParts = earlier.filter { whole.contains(recording(of: $0)) }
        let partly = earlier.filter { !whole.contains(recording(of: $0)) }
        if !wholeParts.isEmpty {
            text += "; \(whole.count) \(beforeText) (" + CountText.of(files(wholeParts), "file") + ")"
        }
        if !partly.isEmpty {
            text += "; part of " + CountText.of(recordings(partly).count, "recording") + " \(beforeText) ("
                + CountText.of(files(partly), "file") + ")"
        }
        return text + "."
    }

    /// What a stop on request left undone, and what to do: "Stopped by Ctrl-C (SIGINT): 3
    /// files of 1 recording not copied (20251121142005); run the offload again to copy them."
    func stoppedSentence(_ stopped: (reason: String, notCopied: [String]), verb: String, past: String) -> String {
        "Stopped by \(stopped.reason): \(filesOfRecordings(stopped.notCopied)) not \(past) "
            + "(\(stopped.notCopied.joined(separator: ", "))); run the offload again to \(verb) them."
    }

    /// `10 files of 1 recording`: the files of the parts `bases` and their recordings.
    public func filesOfRecordings(_ bases: [String]) -> String {
        CountText.of(files(bases), "file") + " of " + CountText.of(recordings(bases).count, "recording")
    }
}
