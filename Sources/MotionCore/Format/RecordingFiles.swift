import Foundation
import MotionSystem

/// The files of one recording: `NAME.csv` and its metadata `NAME.json` beside it. The one
/// place that derives one name from the other.
public enum RecordingFiles {
    /// The start of a file's name before GPS time was known: `unsynced-<boot id>-<seconds
    /// since boot>.csv`, renamed to `yyyyMMddHHmmss.csv` once it is (docs/GPS.md).
    public static let provisionalStem = "unsynced"

    /// The cached summary beside a recording's first CSV (`NAME.summary.json`): derived
    /// data anyone reading the recording rebuilds; offload does not copy it.
    public static let summaryCacheSuffix = ".summary.json"

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
        loadMetadata(at: metadataPath(for: csv))
    }

    /// The metadata file at `json` or why it cannot be read; nil when there is none. A file
    /// that is there but cannot be opened (its permissions, a folder of that name) is
    /// unreadable, not missing: nothing may take it for absent and write a new one over it.
    public static func loadMetadata(at json: String) -> LoadedMetadata? {
        switch metadataBytes(at: json) {
        case nil: return nil
        case .failure(let e)?: return .unreadable(e.why)
        case .success(let data)?: return decodeMetadata(data)
        }
    }

    /// The list of verified copies `offload` keeps in a target folder (docs/OFFLOAD.md),
    /// beside the recordings it copied there: a CSV, but no recording.
    public static let offloadManifestName = "manifest.csv"
    public static let offloadManifestHeader = "file,size_bytes,sha256,copied_at"

    /// Whether `name` in `folder` is an offload's manifest (its name and its first line): a
    /// copied folder's `check` said "manifest.csv: INVALID", `summary` counted its lines as
    /// defective rows, and the web list showed a recording called "manifest".
    public static func isOffloadManifest(_ name: String, in folder: String) -> Bool {
        name == offloadManifestName && fileAt(folder + "/" + name, startsWith: Array((offloadManifestHeader + "\n").utf8))
    }

    /// What `path` is, when it is part of a recording: no command's `--force` replaces it (an
    /// `export -o OTHER.csv --force` wrote a GPX over another recording, and its JSON over
    /// that recording's metadata). A recording is a CSV whose first line is the format's
    /// header, or one with metadata beside it; its metadata a JSON that reads as metadata.
    public static func recordingPart(_ path: String) -> String? {
        guard FileSystem.isReachable(path) else { return nil }
        if path.hasSuffix(".csv"), startsWithHeader(path) || readMetadata(besides: path) != nil { return "a recording" }
        if path.hasSuffix(".json"), case .read? = loadMetadata(at: path) { return "a recording's metadata" }
        return nil
    }

    /// Whether the file at `path` begins with the format's header line.
    static func startsWithHeader(_ path: String) -> Bool {
        fileAt(path, startsWith: Array(CSVFormat.headerBytes.dropLast()))   // without its line end (CR LF or LF)
    }

    /// Whether the regular file at `path` begins with `prefix` (false when it cannot be read).
    static func fileAt(_ path: String, startsWith prefix: [UInt8]) -> Bool {
        guard let fd = try? FileSystem.openForReading(path) else { return false }
        defer { try? fd.close() }
        var bytes = [UInt8](repeating: 0, count: prefix.count)
        let n = (try? bytes.withUnsafeMutableBytes { try fd.read(into: $0) }) ?? 0
        return n == prefix.count && bytes == prefix
    }

    /// Why a metadata file's bytes could not be had, in words.
    struct NotRead: Error { var why: String }

    /// The bytes of the metadata file at `json` (at most `maxMetadataBytes`), or why they
    /// cannot be read; nil when there is no such file.
    static func metadataBytes(at json: String) -> Result<Data, NotRead>? {
        guard FileSystem.isReachable(json) else { return nil }
        if let size = try? FileSystem.status(json).size, size > maxMetadataBytes {
            return .failure(NotRead(why: "it is larger than any recorder writes (\(size) bytes)"))
        }
        guard let data = FileManager.default.contents(atPath: json) else { return .failure(NotRead(why: whyNotOpened(json))) }
        return .success(data)
    }

    /// Metadata files larger than this are not read (a recorder writes a few KiB; a huge
    /// file named like metadata must not fill a Pi Zero's memory).
    public static let maxMetadataBytes: Int64 = 4 << 20

    /// Metadata from the bytes of its file, or why they are not metadata, in words.
    static func decodeMetadata(_ data: Data) -> LoadedMetadata {
        do { return .read(try RecordingMetadata.decode(Array(data))) } catch let e as ImplausibleMetadata {
            return .unreadable("it holds \(e.what), which no recorder writes")
        } catch {
            return .unreadable("it is not motionlog metadata (damaged, or another program's JSON)")
        }
    }

    /// Why a file that exists could not be read, in words.
    static func whyNotOpened(_ path: String) -> String {
        do {
            let fd = try FileSystem.openForReading(path)
            try? fd.close()
            return "it could not be read"
        } catch {
            return "it cannot be opened (\(error))"
        }
    }

    /// A metadata file, read or not.
    public enum LoadedMetadata: Sendable {
        case read(RecordingMetadata)
        /// Why not, in words.
        case unreadable(String)
    }
}
