import Foundation
import MotionSystem

/// What recovery can still take from metadata it cannot read as a whole: JSON that parses
/// but holds a number no recorder writes, or a field of the wrong type. Only the
/// recording's identity and time base, each checked on its own, so that a rebuilt part of
/// a rotated recording stays part of it (a new random id made it a recording of its own)
/// and relative When keeps its start. Everything else is rebuilt from the CSV as before.
struct MetadataSalvage: Equatable {
    var recordingID: String?
    var index: Int?
    var previous: String?
    var startEpoch: Double?

    /// The salvage of the metadata file at `path`; nil when it is not a JSON object at all.
    static func read(_ path: String) -> MetadataSalvage? {
        guard case .success(let data)? = RecordingFiles.metadataBytes(at: path),
              let doc = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return nil }
        let recording = doc["recording"] as? [String: Any] ?? [:]
        let file = doc["file"] as? [String: Any] ?? [:]
        var s = MetadataSalvage()
        if let id = recording["id"] as? String, isPlausibleID(id) { s.recordingID = id }
        if let n = file["index"] as? NSNumber, let i = Int(exactly: n.doubleValue), i >= 1, Int64(i) <= RecordingMetadata.maxCount { s.index = i }
        if let p = file["previous"] as? String, RecordingRecovery.isRecordingName(p) { s.previous = p }
        if let n = recording["startEpoch"] as? NSNumber, n.doubleValue.isFinite, abs(n.doubleValue) <= CSVFormat.maxWhen {
            s.startEpoch = n.doubleValue
        }
        return s
    }

    /// A recorder's id: a UUID's letters, digits and dashes, at most 64 of them.
    static func isPlausibleID(_ id: String) -> Bool {
        (1...64).contains(id.utf8.count) && id.utf8.allSatisfy { $0 == 0x2D || ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) }
    }

    /// `doc` (rebuilt from the CSV) with what was salvaged; the note says which fields.
    func apply(to doc: inout RecordingMetadata) {
        var taken: [String] = []
        if let recordingID { doc.recording.id = recordingID; taken.append("recording.id") }
        if let index { doc.file.index = index; taken.append("file.index") }
        if let previous { doc.file.previous = previous; taken.append("file.previous") }
        if let startEpoch, doc.recording.whenMode == .relative {
            doc.recording.startEpoch = startEpoch
            doc.recording.started = TimeText.isoUTC(epochSeconds: startEpoch)
            taken.append("recording.startEpoch")
        }
        if !taken.isEmpty { doc.recording.notes.append("taken from the metadata that could not be read: " + taken.joined(separator: ", ")) }
    }
}
