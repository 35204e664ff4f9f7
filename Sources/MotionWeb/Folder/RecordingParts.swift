import MotionCore

/// One recording as the list and its page show it: the files (parts) of a recording that
/// rotation split into several (same recording id in their metadata, in part order), or a
/// single file. Parts that are gone (deleted, offloaded) are simply not among `parts`;
/// `missingParts` says which are known to be missing.
public struct RecordingParts: Sendable, Equatable {
    /// The files present, in part order (never empty).
    public let parts: [RecordingEntry]
    /// Distance of the whole recording: its cached summary's, the sum of the parts' cached
    /// summaries when each has one, or nil.
    public var distanceMeters: Double?
    /// Seconds per activity over the whole recording (same sources as `distanceMeters`).
    public var activitySeconds: [String: Double]?
    /// Whether a fresh summary of the recording (all its parts together) is cached beside
    /// its first file.
    public var hasWholeSummary = false

    /// nil for an empty list of parts.
    init?(_ parts: [RecordingEntry]) {
        guard let first = parts.first else { return nil }
        self.parts = parts
        if parts.count == 1 {
            distanceMeters = first.distanceMeters
            activitySeconds = first.activitySeconds
            hasWholeSummary = first.distanceMeters != nil     // the entry read a fresh one
        } else if parts.allSatisfy({ $0.distanceMeters != nil }) {
            distanceMeters = parts.reduce(0) { $0 + ($1.distanceMeters ?? 0) }
            var seconds: [String: Double] = [:]
            for p in parts { for (k, v) in p.activitySeconds ?? [:] { seconds[k, default: 0] += v } }
            activitySeconds = seconds.isEmpty ? nil : seconds
        }
    }

    /// The first file present: its name names the recording (`/recordings/NAME`).
    public var first: RecordingEntry { parts[0] }
    public var name: String { first.name }
    public var startEpoch: Double? { first.startEpoch }
    /// Whether this is (part of) a rotated recording rather than one whole file.
    public var isRotated: Bool { parts.count > 1 || (first.part ?? 1) > 1 || lastPartMissing }

    /// The recorded time of the parts present, added up.
    public var durationSeconds: Double? {
        let known = parts.compactMap(\.durationSeconds)
        return known.isEmpty ? nil : known.reduce(0, +)
    }

    /// From the start of the first part present to the end of the last (missing parts
    /// included): the time axis of the charts.
    var spanSeconds: Double? {
        guard parts.count > 1, let a = first.startEpoch, let last = parts.last, let b = last.startEpoch,
              let d = last.durationSeconds, b + d >= a else { return durationSeconds }
        return b + d - a
    }

    public var sizeBytes: Int64 { parts.reduce(0) { $0 + $1.sizeBytes } }

    /// Source letters recorded by any part, in the order first seen.
    public var sources: String {
        var letters = ""
        for p in parts { for c in p.sources where !letters.contains(c) { letters.append(c) } }
        return letters
    }

    public var hasLocation: Bool { parts.contains(where: \.hasLocation) }

    /// The GPS rows of all the parts, as their metadata counts them; nil when a part has
    /// no metadata (nothing counted them).
    public var locationRows: Int? {
        guard parts.allSatisfy({ $0.metadata != nil }) else { return nil }
        return parts.reduce(0) { $0 + ($1.rows["L"] ?? 0) }
    }

    /// The parts' badge findings together (`clean` only when every part is clean), and
    /// which parts are missing.
    public var health: [String] {
        var h: [String] = []
        // The clock: as the last part says it (GPS time may have set it after earlier parts closed).
        for p in parts { for f in p.health where f != "clean" && f != RecordingEntry.clockNotSet && !h.contains(f) { h.append(f) } }
        if parts.last?.health.contains(RecordingEntry.clockNotSet) == true { h.append(RecordingEntry.clockNotSet) }
        if !missingParts.isEmpty || lastPartMissing { h.append("parts missing") }
        return h.isEmpty ? ["clean"] : h
    }

    /// The first `listedMissing` part numbers before the last one present that are not in
    /// the folder (`missingCount` says how many there are in all). None when the numbers
    /// cannot be a recording's (metadata comes from outside: repeated, or below 1).
    public var missingParts: [Int] {
        guard let (numbers, last) = validNumbers else { return [] }
        var missing: [Int] = []
        var k = 1
        while k < last && missing.count < Self.listedMissing {   // at most parts + listedMissing steps
            if !numbers.contains(k) { missing.append(k) }
            k += 1
        }
        return missing
    }

    /// How many part numbers before the last one present are not in the folder.
    public var missingCount: Int {
        guard let (numbers, last) = validNumbers else { return 0 }
        return last - numbers.count
    }

    static let listedMissing = 20

    /// The part numbers present and the largest, when each part has a distinct number ≥ 1.
    private var validNumbers: (Set<Int>, Int)? {
        let numbers = Set(parts.compactMap(\.part))
        guard numbers.count == parts.count, let first = numbers.min(), first >= 1, let last = numbers.max() else { return nil }
        return (numbers, last)
    }

    /// Whether the last part present was closed for a next one (by rotation or at the file
    /// system's size limit), so a later part existed. (The part being written is the
    /// last: its metadata still says `recording`.)
    public var lastPartMissing: Bool { parts.last?.endReason.map(FileEnding.wasFollowedByNextFile) ?? false }

    /// `3 files`, `3 files (parts 1–4, 1 missing)` or `2 files (parts 1–2, a later one
    /// missing)` when some are missing ("3 files (parts 1–4)" read as if all four were
    /// there), `part 2` for a lone later part (as a single file always showed it); nil for a
    /// recording of one file.
    public var partsText: String? {
        guard isRotated else { return nil }
        if parts.count == 1 { return first.part.map { "part \($0)" } }
        let numbers = parts.compactMap(\.part)
        let text = "\(parts.count) files"
        guard !missingParts.isEmpty || lastPartMissing, let a = numbers.min(), let b = numbers.max() else { return text }
        let missing = missingParts.isEmpty ? "a later one missing"
            : "\(missingCount) missing" + (lastPartMissing ? ", and a later one" : "")
        return text + " (parts \(a)–\(b), \(missing))"
    }

    /// `cycling 80% · walking 20%` over the whole recording.
    public var activityMix: String? { RecordingEntry.activityMix(activitySeconds) }

    /// The CSV paths of the parts in `folder`, in the order they were written.
    func csvPaths(in folder: String) -> [String] { parts.map { folder + "/" + $0.name + ".csv" } }

    /// Every file's stamp: a new version of any part is a new version of the recording.
    var stamps: [FileStamp] { parts.map(\.csvStamp) }

    /// Gathers the files of each recording: entries with the same recording id become one,
    /// in part order (then name); a file without metadata is a recording of its own. The
    /// recordings keep the order of their first parts in `entries` (newest first).
    static func grouping(_ entries: [RecordingEntry]) -> [RecordingParts] {
        var byID: [String: [RecordingEntry]] = [:]
        for e in entries { if let id = e.recordingID { byID[id, default: []].append(e) } }
        var out: [RecordingParts] = []
        var done = Set<String>()
        for e in entries {
            guard let id = e.recordingID else {
                if let r = RecordingParts([e]) { out.append(r) }
                continue
            }
            guard done.insert(id).inserted, let parts = byID[id] else { continue }
            // Two files of one part number are no parts of one recording: two `fuse`
            // outputs of one recording (its id + "-fused", part 1 each) were one card of
            // twice its length. Each of those is a recording of its own; the parts whose
            // number is theirs alone stay together.
            var seen: [Int: Int] = [:]
            for p in parts.compactMap(\.part) { seen[p, default: 0] += 1 }
            let repeated = parts.filter { $0.part.map { (seen[$0] ?? 0) > 1 } ?? false }
            out += repeated.compactMap { RecordingParts([$0]) }
            let apart = Set(repeated.map(\.name))
            let together = parts.filter { !apart.contains($0.name) }
            guard !together.isEmpty else { continue }
            let ordered = together.sorted { a, b in
                let pa = a.part ?? Int.max, pb = b.part ?? Int.max
                return pa != pb ? pa < pb : a.name < b.name
            }
            if let r = RecordingParts(ordered) { out.append(r) }
        }
        return out.sorted { RecordingFolder.isNewer($0.first, $1.first) }
    }
}
