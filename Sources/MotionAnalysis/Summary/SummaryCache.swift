import Foundation
import MotionCore
import MotionSystem
import SystemPackage

/// A per-recording summary cached beside the recording, so a listing of thousands of
/// recordings (the web page) reads one small JSON per recording instead of the CSVs.
///
/// The cache file is `NAME.summary.json` beside the recording's first CSV `NAME.csv`.
/// It records the size and modification time of every CSV it was computed from and the
/// analysis version; `load` returns nil when any of them changed (the cache is stale), so
/// a recording that is still growing, or was cut back by recovery, is recomputed.
/// `store` writes a temporary file in the same folder and moves it into place, so a reader
/// never sees a partial cache; it never replaces anything but an older cache file.
///
/// Typical use (cheap when the cache is fresh, one streaming pass when not):
///
///     let summary = try SummaryCache.summary(for: ["/data/20261123174000.csv",
///                                                   "/data/20261123175000.csv"])
///
/// All functions are safe to call from any thread; two processes racing to store the
/// same cache both write a complete file and the last rename wins.
public enum SummaryCache {
    /// The cache file for a recording whose (first) CSV is `csvPath`.
    public static func cachePath(for csvPath: String) -> String {
        let base = csvPath.hasSuffix(".csv") ? String(csvPath.dropLast(4)) : csvPath
        return base + RecordingFiles.summaryCacheSuffix
    }

    /// The cached summary of the recording made of `csvPaths` (in time order), or nil
    /// when there is none, it is unreadable, or any CSV changed since it was computed.
    public static func load(for csvPaths: [String]) -> AnalysisSummary? {
        guard let first = csvPaths.first,
              let data = FileManager.default.contents(atPath: cachePath(for: first)),
              SummaryJSON.numbersArePlausible(data), let summary = try? SummaryJSON.decode(Array(data)) else { return nil }
        guard summary.analysisVersion == RecordingAnalyzer.version,
              let current = try? RecordingInputs.stamps(csvPaths),
              current == summary.files else { return nil }
        return summary
    }

    /// What a listing shows from a cached summary: distance (nil without a usable GPS fix:
    /// not "0 m" for a night in bed) and time per activity.
    public struct Brief: Sendable, Equatable {
        public var distanceM: Double?
        public var activitySeconds: [String: Double]
        /// First and last When of the rows (for a listing of files without metadata).
        public var start: Double?
        public var end: Double?
        public init(distanceM: Double?, activitySeconds: [String: Double], start: Double? = nil, end: Double? = nil) {
            self.distanceM = distanceM; self.activitySeconds = activitySeconds; self.start = start; self.end = end
        }
    }

    /// The distance and activity times of the cached summary, under the same freshness
    /// rules as `load`, without building the rest of it (a listing of thousands of
    /// recordings reads only these).
    public static func loadBrief(for csvPaths: [String]) -> Brief? {
        struct Slim: Decodable {
            var analysisVersion: Int
            var files: [AnalysisSummary.SourceFile]
            var distanceM: Double
            var fixesUsed: Int
            var activitySeconds: [String: Double]
            var start: Double?
            var end: Double?
        }
        guard let first = csvPaths.first,
              let data = FileManager.default.contents(atPath: cachePath(for: first)) else { return nil }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        guard let slim = try? decoder.decode(Slim.self, from: data), slim.analysisVersion == RecordingAnalyzer.version,
              ([slim.distanceM, slim.start ?? 0, slim.end ?? 0] + slim.activitySeconds.values).allSatisfy(SummaryJSON.isPlausible),
              let current = try? RecordingInputs.stamps(csvPaths), current == slim.files else { return nil }
        return Brief(distanceM: slim.fixesUsed > 0 ? slim.distanceM : nil, activitySeconds: slim.activitySeconds,
                     start: slim.start, end: slim.end)
    }

    /// Writes `summary` as the cache of the recording whose first CSV is `summary.files[0]`
    /// (atomically: temporary file, then rename; a cache torn by a power cut fails to decode and is recomputed). Throws when the folder is not writable.
    public static func store(_ summary: AnalysisSummary) throws {
        guard let first = summary.files.first else { return }
        let path = cachePath(for: first.path)
        try AtomicFile.write(SummaryJSON.encode(summary, pretty: false), to: path)
    }

    /// The summary of the recording made of `csvPaths`: the cached one when it is fresh,
    /// otherwise computed in one streaming pass and cached (a read-only folder is not an
    /// error: the summary is returned uncached).
    /// `heldFixLimit`: as `RecordingAnalyzer.summarize`'s.
    public static func summary(for csvPaths: [String], options: AnalysisOptions = AnalysisOptions(),
                               heldFixLimit: Int? = nil) throws -> AnalysisSummary {
        if options == AnalysisOptions(), let cached = load(for: csvPaths) { return cached }
        let summary = try RecordingAnalyzer.summarize(csvPaths, options: options, heldFixLimit: heldFixLimit)
        if options == AnalysisOptions() { try? store(summary) }
        return summary
    }
}

/// JSON coding of summaries: snake_case keys, no non-finite numbers.
public enum SummaryJSON {
    public static func encode(_ summary: AnalysisSummary, pretty: Bool) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(summary.sanitized()) else { return Array("{}\n".utf8) }
        return Array(data) + [0x0A]
    }

    /// The largest magnitude of a number in a summary this program writes: its times end in
    /// the year 9999 (2.5e11 s), its counts, bytes and metres are far below.
    static let largestNumber = 1e15

    static func isPlausible(_ x: Double) -> Bool { x.isFinite && abs(x) <= largestNumber }

    /// Whether every number in a stored summary is one this program writes. A cache damaged
    /// or edited past that is recomputed, not shown: a duration of 2^63 s or a time of −1e19
    /// trapped the web page's process as it formatted them. (`files` is left out: its
    /// nanosecond times are large, and a cache is used only when they match the files'.)
    static func numbersArePlausible(_ data: Data) -> Bool {
        guard var document = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return false }
        document["files"] = nil
        func plausible(_ value: Any) -> Bool {
            switch value {
            case let object as [String: Any]: return object.values.allSatisfy(plausible)
            case let array as [Any]: return array.allSatisfy(plausible)
            case let number as NSNumber: return isPlausible(number.doubleValue)
            case is String, is NSNull: return true
            default: return false
            }
        }
        return plausible(document)
    }

    public static func decode(_ bytes: [UInt8]) throws -> AnalysisSummary {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(AnalysisSummary.self, from: Data(bytes))
    }
}

/// Writes a file atomically: a temporary file beside it (created exclusively), then rename.
enum AtomicFile {
    struct WriteError: Error, CustomStringConvertible {
        var path: String, reason: String
        var description: String { "cannot write \(path): \(reason)" }
    }

    static func write(_ bytes: [UInt8], to path: String) throws {
        let url = URL(fileURLWithPath: path)
        let temp = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(UInt32.random(in: 0...UInt32.max)).tmp")
        do {
            let fd = try FileSystem.open(temp.path, .writeOnly, options: [.create, .exclusiveCreate, .closeOnExec],
                                         permissions: [.ownerReadWrite, .groupRead, .otherRead])
            defer { try? fd.close() }
            try fd.writeAll(bytes)
        } catch {
            try? FileManager.default.removeItem(at: temp)
            throw WriteError(path: path, reason: "\(error)")
        }
        do {
            // Readers see the old cache, none (and recompute), or the new one; never a
            // partial file. (Foundation on Linux has no replace-by-rename that keeps the
            // original on failure, and this module makes no C calls.)
            if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
            try FileManager.default.moveItem(at: temp, to: url)
        } catch {
            try? FileManager.default.removeItem(at: temp)
            throw WriteError(path: path, reason: "\(error.localizedDescription)")
        }
    }
}
