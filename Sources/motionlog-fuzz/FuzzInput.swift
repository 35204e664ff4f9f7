import Foundation
import MotionAnalysis
import MotionConfig
import MotionCore
import MotionSystem

/// Feeds one arbitrary input to everything that reads a recording: `check`, `summary`
/// (the analysis, its report and its JSON), the timeline exports and the wide CSV. The
/// input is the CSV; after a line `@@metadata@@`, the rest is the metadata JSON written
/// beside it. The same bytes are read as a GPX track too (`import`), and as the config file
/// and a board file.
///
/// Built two ways (`make fuzz`; docs/ANALYSIS.md, "Bad input"): with `-DFUZZING` and
/// `-sanitize=fuzzer,address` it is a libFuzzer target, which reports any crash, trap
/// (overflow, index out of range, force unwrap) or memory error, and any input taking more
/// than its time limit (a hang); without, `motionlog-fuzz FILE...` runs the same on saved
/// inputs (a crash the fuzzer found, or its corpus).
enum FuzzInput {
    static let separator = Array("\n@@metadata@@\n".utf8)

    /// The file names this process uses (one folder per process: fuzzers may run in parallel).
    static let folder: String = {
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let path = base + "/motionlog-fuzz-\(CurrentProcess.id)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    /// Removes the process's folder (left behind after a crash, with the input in it).
    static func removeFolder() { try? FileManager.default.removeItem(atPath: folder) }

    static func run(_ input: UnsafeBufferPointer<UInt8>) {
        let csv = folder + "/20261128120000.csv"
        let metadata = folder + "/20261128120000.json"
        let bytes = Array(input)
        let split = bytes.firstRange(of: separator)
        let csvBytes = split.map { Array(bytes[..<$0.lowerBound]) } ?? bytes
        _ = FileManager.default.createFile(atPath: csv, contents: Data(csvBytes))
        if let split {
            _ = FileManager.default.createFile(atPath: metadata, contents: Data(bytes[split.upperBound...]))
        } else {
            try? FileManager.default.removeItem(atPath: metadata)
        }
        _ = try? RecordingCheck.check(path: csv)
        _ = try? GPXReader.read(path: csv) { _ in }
        let text = String(decoding: csvBytes, as: UTF8.self)
        _ = try? RecorderSettings.parse(text: text, file: csv)
        _ = try? BoardDefinition.parse(text: text, file: csv)
        var wide = WideCSVExport { _ in }
        try? wide.convert([csv])
        guard let result = try? RecordingAnalyzer.analyze([csv]) else { return }
        _ = SummaryReport.text(result.summary, title: csv)
        _ = SummaryJSON.encode(result.summary, pretty: true)
        _ = try? TimelineExport.storyline(result)
        _ = try? TimelineExport.geoJSON(result)
    }
}

/// The entry point: with `-DFUZZING`, libFuzzer's driver (`LLVMFuzzerRunDriver`, which
/// takes libFuzzer's own options); without, a replay of saved inputs.
@main
struct FuzzMain {
    static func main() {
        #if FUZZING
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        let status = LLVMFuzzerRunDriver(&argc, &argv) { data, size in
            FuzzInput.run(UnsafeBufferPointer(start: data, count: size))
            return 0
        }
        FuzzInput.removeFolder()
        CurrentProcess.exit(status)
        #else
        let paths = CommandLine.arguments.dropFirst()
        guard !paths.isEmpty else {
            print("usage: motionlog-fuzz FILE...   (runs saved fuzzer inputs; `make fuzz` fuzzes)")
            CurrentProcess.exit(2)
        }
        for path in paths {
            guard let data = FileManager.default.contents(atPath: path) else {
                print("\(path): cannot read it"); CurrentProcess.exit(2)
            }
            data.withUnsafeBytes { FuzzInput.run($0.bindMemory(to: UInt8.self)) }
            print("\(path): read without a crash")
        }
        FuzzInput.removeFolder()
        #endif
    }
}

#if FUZZING
/// libFuzzer's driver for programs with their own `main` (in the runtime `-sanitize=fuzzer` links).
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt
#endif
