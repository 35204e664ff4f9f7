import Foundation

/// The files of one recording: `NAME.csv` and its metadata `NAME.json` beside it. The one
/// place that derives one name from the other.
public enum RecordingFiles {
    /// `X.csv` → `X.json`; a name without `.csv` (a recording's base name) gets `.json` appended.
    public static func metadataPath(for csv: String) -> String {
        (csv.hasSuffix(".csv") ? String(csv.dropLast(4)) : csv) + ".json"
    }

    /// The metadata beside `csv`, or nil when it is missing or unreadable.
    public static func readMetadata(besides csv: String) -> RecordingMetadata? {
        guard let data = FileManager.default.contents(atPath: metadataPath(for: csv)) else { return nil }
        return try? RecordingMetadata.decode(Array(data))
    }
}
