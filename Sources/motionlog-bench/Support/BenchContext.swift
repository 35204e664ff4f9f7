import Foundation

/// Where things are and what tools a run has: the repository, a scratch folder inside
/// `.build`, the compiled C baselines, and the external programs.
struct BenchContext {
    var plan: BenchPlan
    var repo: String
    /// Scratch folder (recordings, row files); removed at the end of the run.
    var work: String
    var selfPath: String
    var motionlogPath: String?
    var python: String
    var valgrind: String
    var baselines: Baselines

    /// A progress line on stderr (the table and the JSON are the results).
    func progress(_ text: String) {
        let stamp = TimeFormat.clock(Date())
        FileHandle.standardError.write(Data("[\(stamp)] \(text)\n".utf8))
    }

    /// A fresh subfolder of the scratch folder.
    func folder(_ name: String) throws(BenchError) -> String {
        let path = work + "/" + name
        do {
            try? FileManager.default.removeItem(atPath: path)
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw BenchError("cannot create the scratch folder \(path): \(error)")
        }
        return path
    }

    func remove(_ path: String) { try? FileManager.default.removeItem(atPath: path) }

    /// The repository root: `--repo`, else the current folder if it holds bench/baselines,
    /// else the checkout this program was built from.
    static func locateRepo(explicit: String?) throws(BenchError) -> String {
        let fm = FileManager.default
        var candidates: [String] = []
        if let explicit { candidates.append(explicit) }
        candidates.append(fm.currentDirectoryPath)
        let source = URL(fileURLWithPath: #filePath)  // <repo>/Sources/motionlog-bench/Support/BenchContext.swift
        candidates.append(source.deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().path)
        for c in candidates where fm.fileExists(atPath: c + "/bench/baselines/tick_loop.c") {
            return URL(fileURLWithPath: c).standardizedFileURL.path
        }
        throw BenchError("cannot find the repository (bench/baselines/tick_loop.c) in \(candidates.joined(separator: ", ")): run from the repository root or pass --repo PATH")
    }
}

/// Short time texts for progress lines and the report.
enum TimeFormat {
    static func clock(_ date: Date) -> String {
        let f = DateFormatter()
        f.dateFormat = "HH:mm:ss"
        return f.string(from: date)
    }

    static func iso(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }
}
