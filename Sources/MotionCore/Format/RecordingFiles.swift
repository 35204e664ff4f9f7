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
        guard case .read(let metadata)? = loadMetadata(besides: csv) else { return nil }
        return metadata
    }

    /// The metadata beside `csv` or why it cannot be read; nil when there is none.
    public static func loadMetadata(besides csv: String) -> LoadedMetadata? {
        guard let data = FileManager.default.contents(atPath: metadataPath(for: csv)) else { return nil }
        do { return .read(try RecordingMetadata.decode(Array(data))) } catch let e as ImplausibleMetadata {
            return .unreadable("it holds \(e.what), which no recorder writes")
        } catch {
            return .unreadable("it is not motionlog metadata (damaged, or another program's JSON)")
        }
    }

    /// A metadata file, read or not.
    public enum LoadedMetadata: Sendable {
        case read(RecordingMetadata)
        /// Why not, in words.
        case unreadable(String)
    }
}
