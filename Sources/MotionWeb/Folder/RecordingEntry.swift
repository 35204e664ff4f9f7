import Foundation
import MotionAnalysis
import MotionCore

/// One recording file as the list shows it, from its metadata JSON (the CSV is never read
/// for the list). Missing or unreadable metadata still gives an entry, marked as such.
public struct RecordingEntry: Sendable, Equatable, Encodable {
    /// The file's base name: `NAME.csv`, `NAME.json`.
    public var name: String
    /// Local start time, ISO 8601 with offset (from the metadata).
    public var start: String?
    public var startEpoch: Double?
    public var durationSeconds: Double?
    /// Size of the CSV in bytes.
    public var sizeBytes: Int64
    /// Filled by the summary (MotionAnalysis); nil until one exists.
    public var distanceMeters: Double?
    /// Source letters recorded, e.g. `AGMDL`.
    public var sources: String
    /// Rows per source letter (from the metadata).
    public var rows: [String: Int]
    public var label: String?
    /// Findings for the badge: `clean`, or e.g. `recovered`, `cut short`, `rows dropped`, `overruns`, `no GPS`.
    public var health: [String]
    public var endedCleanly: Bool
    /// `recording`, `rotated`, `stopped`, `duration`, `low-disk-space`, `recovered`; nil without metadata.
    public var endReason: String?
    /// Part number within a rotated recording (1 for the first file).
    public var part: Int?
    public var recordingID: String?
    public var metadata: RecordingMetadata?
    /// Seconds per activity (`cycling`, `walking`, ...) from the cached summary.
    public var activitySeconds: [String: Double]?
    /// Why `NAME.json` could not be read, in words; nil when it was read or is not there.
    var metadataProblem: String?
    var csvStamp: FileStamp
    var jsonStamp: FileStamp?
    var summaryStamp: FileStamp?
    /// This entry as a JSON object (the API's list item without `writing`), encoded once
    /// when the entry is read: a list of thousands is joined, not encoded, per request.
    var json: [UInt8] = []

    enum CodingKeys: String, CodingKey {
        case name, start, durationSeconds = "duration_s", sizeBytes = "size_bytes", distanceMeters = "distance_m"
        case sources, rows, label, health, endedCleanly = "ended_cleanly", endReason = "end_reason", part
        case recordingID = "recording_id", startEpoch = "start_epoch"
        case metadata, csvStamp, jsonStamp, activitySeconds = "activity_s"
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(start, forKey: .start)
        try c.encode(startEpoch, forKey: .startEpoch)
        // To the millisecond, as the summary gives it (the difference of two epoch Doubles
        // reads 1799.9990000724792).
        try c.encode(durationSeconds.map { MotionAnalysis.Text.round($0, 3) }, forKey: .durationSeconds)
        try c.encode(sizeBytes, forKey: .sizeBytes)
        try c.encode(distanceMeters, forKey: .distanceMeters)
        try c.encode(sources, forKey: .sources)
        try c.encode(rows, forKey: .rows)
        try c.encode(label, forKey: .label)
        try c.encode(health, forKey: .health)
        try c.encode(endedCleanly, forKey: .endedCleanly)
        try c.encode(endReason, forKey: .endReason)
        try c.encode(part, forKey: .part)
        try c.encode(recordingID, forKey: .recordingID)
        try c.encode(activitySeconds, forKey: .activitySeconds)
    }

    /// Names the folder can hold: no path separators, no NUL, not hidden, not too long.
    static func isPlausibleName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count < 250 && !name.hasPrefix(".")
            && !name.utf8.contains(where: { $0 == 0x2F || $0 == 0 || $0 == 0x5C })
    }

    /// Reads `NAME.json` beside the CSV; the entry says what is missing when it cannot.
    static func read(name: String, folder: String, csv: FileStamp, json: FileStamp?, summary: FileStamp?) -> RecordingEntry {
        var e = RecordingEntry(name: name, start: nil, startEpoch: nil, durationSeconds: nil, sizeBytes: csv.size,
                               distanceMeters: nil, sources: "", rows: [:], label: nil, health: [],
                               endedCleanly: false, endReason: nil, part: nil, recordingID: nil, metadata: nil,
                               activitySeconds: nil, metadataProblem: nil, csvStamp: csv, jsonStamp: json, summaryStamp: summary)
        // The summary cached beside the recording (MotionAnalysis), when it is fresh.
        let brief = summary == nil ? nil : SummaryCache.loadBrief(for: [folder + "/" + name + ".csv"])
        if let s = brief {
            e.distanceMeters = s.distanceM
            e.activitySeconds = s.activitySeconds.isEmpty ? nil : s.activitySeconds
        }
        let path = RecordingFiles.metadataPath(for: folder + "/" + name)
        var meta: RecordingMetadata?
        if json != nil {
            switch RecordingFiles.loadMetadata(at: path) {
            case .read(let m)?: meta = m
            case .unreadable(let why)?: e.metadataProblem = why
            case nil: e.metadataProblem = "it was removed while being read"
            }
        }
        guard let meta else {
            e.health = [json == nil ? "no metadata" : "unreadable metadata"]
            // Without metadata the rows' own times, from the summary, or, where none is
            // cached (a folder the server may not write), from the file's first and last rows
            // (epoch When only: a relative one would read as 1970): the card said "unknown
            // time" and "–".
            let fromRows = brief == nil ? RowSpan.whens(ofFileAt: folder + "/" + name + ".csv") : nil
            if let a = brief?.start ?? fromRows?.first, let b = brief?.end ?? fromRows?.last,
               a >= RecordingAnalyzer.relativeLooking, b >= a {
                e.startEpoch = a
                e.start = TimeText.isoLocal(epochSeconds: a)
                e.durationSeconds = b - a
            }
            e.json = e.encodedJSON()
            return e
        }
        e.metadata = meta
        e.start = meta.file.startLocal ?? meta.recording.started
        // A file whose clock was stepped to GPS time starts with IMU rows stamped by the wrong
        // clock: its start is placed by the step, as the summary places those rows.
        e.startEpoch = meta.firstRowEpoch ?? meta.placedByStep(meta.recording.startEpoch)
        if let a = meta.file.firstWhen, let b = meta.file.lastWhen {
            let start = meta.placedByStep(a)   // a step implies epoch When: start == startEpoch
            if b >= start { e.durationSeconds = b - start }
        }
        e.sources = meta.recording.sources
        e.rows = meta.file.rows
        e.label = meta.recording.label
        e.endedCleanly = meta.endedCleanly
        e.endReason = meta.endReason
        e.part = meta.file.index
        e.recordingID = meta.recording.id
        e.health = health(meta, csvBytes: csv.size)
        // Cut short after it was closed: the metadata's last row is not in the file; the
        // rows' own span, from the summary, when there is one.
        if CutShortFile(metadata: meta, fileBytes: csv.size) != nil {
            e.durationSeconds = nil
            if let a = brief?.start, let b = brief?.end, b >= a { e.durationSeconds = b - a }
        }
        e.json = e.encodedJSON()
        return e
    }

    /// The entry encoded as the API lists it (sorted keys, without `writing`).
    func encodedJSON() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return (try? encoder.encode(self)).map(Array.init) ?? Array("{}".utf8)
    }

    /// The badge findings from the metadata's counters, and `cut short` when the CSV
    /// (`csvBytes`) is shorter than the metadata says it was when it was closed.
    /// The badge of times from a clock nobody set.
    static let clockNotSet = "clock not set"

    static func health(_ meta: RecordingMetadata, csvBytes: Int64) -> [String] {
        var h: [String] = []
        let c = meta.counters
        switch meta.ending {
        case .unfinished: h.append("unfinished")
        case .recovered: h.append("recovered")
        case .clean, .abandoned, .closedAfterWriteErrors: break   // `write errors` comes from the counters below
        }
        if CutShortFile(metadata: meta, fileBytes: csvBytes) != nil { h.append("cut short") }
        if meta.endReason.hasPrefix(FreeSpaceGuard.endReason) { h.append("card full") }
        if c.droppedRows > 0 { h.append("rows dropped") }
        if c.overruns > 0 { h.append("overruns") }
        if c.writeErrors > 0 { h.append("write errors") }
        if meta.recording.sources.contains("L") && (meta.file.rows["L"] ?? 0) == 0 { h.append("no GPS") }
        // Times from a clock no time service and no GPS time set: shown as plain dates, they
        // looked known (the summary's finding says "may be off by hours or days").
        if meta.recording.clock == GPSTimeRecord.unsynchronisedClock { h.append(Self.clockNotSet) }
        return h.isEmpty ? ["clean"] : h
    }

    /// `cycling 80% · walking 20%` from the summary's activity seconds.
    public var activityMix: String? { Self.activityMix(activitySeconds) }

    /// `cycling 80% · walking 20%` from seconds per activity (shares under 5% left out).
    static func activityMix(_ seconds: [String: Double]?) -> String? {
        guard let a = seconds else { return nil }
        let total = a.values.reduce(0, +)
        guard total > 0 else { return nil }
        return a.filter { $0.value / total >= 0.05 }.sorted { $0.value > $1.value }
            .map { "\($0.key) \(Int(($0.value / total * 100).rounded()))%" }.joined(separator: " · ")
    }

    /// Whether GPS rows exist (the track and speed charts need them).
    public var hasLocation: Bool { (rows["L"] ?? 0) > 0 }
}
