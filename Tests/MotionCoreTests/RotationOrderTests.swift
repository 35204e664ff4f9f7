import Foundation
import Logging
import MotionCore
import MotionTestSupport
import Testing

/// The order of file operations at a rotation: a reader looking at the folder at any moment
/// while a recording goes on sees at least one of its files saying `recording`, never every
/// part finished with a stray CSV beside them; and a power cut at the one moment where both
/// parts say `recording` is recovered without mistakes.
@Suite("Rotation order")
struct RotationOrderTests {
    static let start = 1_763_735_405.0

    /// What a reader listing the folder sees: each CSV (in creation order) with the ending
    /// its metadata states, nil when it has no (readable) metadata.
    struct FolderView {
        var operation: String
        var endings: [(csv: String, ending: FileEnding?, index: Int?)]
        var somePartBeingWritten: Bool { endings.contains { $0.ending == .unfinished } }
        var anyMetadata: Bool { endings.contains { $0.ending != nil } }
    }

    func writer(_ dir: OutputDirectory) -> RotatingWriter {
        let d = RecordingDescription(id: "order", board: "t", boardDescription: nil, sensor: SensorInfo(model: "fake"), gps: nil,
                                     deviceMotion: nil, rateHz: 10, sources: "AG", label: "W", whenMode: .epoch,
                                     startEpoch: Self.start, started: "", clock: "simulated", rotateBytes: 1000,
                                     rotateSeconds: nil, fsyncIntervalSeconds: 1, bufferRows: 10, notes: [])
        return RotatingWriter(directory: dir, description: d,
                              configuration: .init(rotation: RotationPolicy(maxBytes: 1000), chunkBytes: 300, softwareVersion: "t"),
                              counters: RecorderCounters(bufferCapacity: 10), whenOffset: 0, log: Logger(label: "t"))
    }

    /// Ticks of A and G rows, handed over in batches with a sync after each, as the writer
    /// thread does (`WriterThread`).
    func record(_ w: RotatingWriter, ticks: Int) -> [Row] {
        var all: [Row] = []
        for batch in stride(from: 0, to: ticks, by: 5) {
            var rows: [Row] = []
            for i in batch..<min(batch + 5, ticks) {
                let t = (Self.start * 10 + Double(i)) / 10
                rows.append(row(.accelerometer, t, Double(i) * 0.001))
                rows.append(row(.gyroscope, t, -Double(i) * 0.37))
            }
            rows.withUnsafeBufferPointer { w.write($0) }
            w.flushChunk()
            w.sync()
            all += rows
        }
        return all
    }

    /// A part's final metadata (`rotated`, `stopped`) is written while the part is still
    /// open: closing it drops its lock, and a recovery that came in between (a second
    /// `record` starting in the folder) found it unlocked, still saying `recording`, and
    /// marked a live recording's part as recovered.
    @Test func aPartIsClosedOnlyAfterItsFinalMetadataIsWritten() throws {
        let memory = MemoryDirectory()
        var finalisedWhileClosed: [String] = []
        var finalised = 0
        let dir = ObservedDirectory(memory) { op in
            guard op.hasPrefix("replace "), op.hasSuffix(".json") else { return }
            let json = String(op.dropFirst("replace ".count))
            let csv = String(json.dropLast(5)) + ".csv"
            guard let m = try? RecordingMetadata.decode(memory.contents(json)), m.ending != .unfinished else { return }
            finalised += 1
            if memory.closed.withLock({ $0.contains(csv) }) { finalisedWhileClosed.append(csv) }
        }
        let w = writer(dir)
        try w.open(firstWhen: Self.start)
        _ = record(w, ticks: 120)
        w.finish(reason: "stopped")
        #expect(finalised == memory.csvFiles.count && finalised > 2, "\(finalised) of \(memory.csvFiles)")
        #expect(finalisedWhileClosed.isEmpty, "\(finalisedWhileClosed)")
        #expect(memory.closed.withLock { $0.count } == memory.csvFiles.count)
    }

    @Test func atEveryMomentOfARotationSomePartSaysItIsBeingWritten() throws {
        let memory = MemoryDirectory()
        var views: [FolderView] = []
        let dir = ObservedDirectory(memory) { views.append(Self.view(memory, after: $0)) }
        let w = writer(dir)
        try w.open(firstWhen: Self.start)
        let input = record(w, ticks: 120)
        let beforeFinish = views.count
        w.finish(reason: "stopped")

        #expect(memory.csvFiles.count >= 4, "the test needs several rotations")
        // From the first metadata on until the recording is finished, a reader always finds
        // a part that is being written.
        let during = views[..<beforeFinish].drop { !$0.anyMetadata }
        #expect(!during.isEmpty)
        for v in during where !v.somePartBeingWritten {
            Issue.record("after \(v.operation) every part looks finished: \(v.endings.map { "\($0.csv)=\(String(describing: $0.ending))" })")
        }
        // The new part is described (recording, its index) before the old one says rotated.
        for (k, name) in memory.csvFiles.enumerated().dropFirst() {
            let previous = memory.csvFiles[k - 1]
            let rotated = try #require(views.firstIndex { v in v.endings.contains { $0.csv == previous && $0.ending == .clean } })
            let described = try #require(views.firstIndex { v in v.endings.contains { $0.csv == name && $0.ending == .unfinished } })
            #expect(described < rotated, "\(name) described after \(previous) was finalised")
            #expect(views[described].endings.first { $0.csv == name }?.index == k + 1)
        }
        // Nothing lost or repeated; every part ends as before.
        var rows: [Row] = []
        for name in memory.csvFiles { rows += try readRows(memory.text(name)).rows }
        #expect(rows == input)
        let endReasons = try memory.csvFiles.map { try Self.metadata(memory, $0).endReason }
        #expect(endReasons == Array(repeating: "rotated", count: memory.csvFiles.count - 1) + ["stopped"])
    }

    @Test func aPowerCutBetweenTheTwoMetadataWritesIsRecoveredWithoutMistakes() throws {
        let memory = MemoryDirectory()
        var cut: [String: [UInt8]]?
        let dir = ObservedDirectory(memory) { operation in
            // The moment the second part's metadata exists and the first's is not final yet.
            guard cut == nil, operation.hasPrefix("replace "), memory.csvFiles.count == 2,
                  let second = try? Self.metadata(memory, memory.csvFiles[1]), second.ending == .unfinished else { return }
            var files: [String: [UInt8]] = [:]
            for csv in memory.csvFiles {
                files[csv] = memory.contents(csv)
                let json = RecordingFiles.metadataPath(for: String(csv.dropLast(4)))
                if !memory.contents(json).isEmpty { files[json] = memory.contents(json) }
            }
            cut = files
        }
        let w = writer(dir)
        try w.open(firstWhen: Self.start)
        _ = record(w, ticks: 40)
        w.finish(reason: "stopped")
        let files = try #require(cut)
        let first = memory.csvFiles[0], second = memory.csvFiles[1]
        #expect(try Self.metadata(files, first).ending == .unfinished)

        // The folder as the power cut left it, on disk; then recovery at the next start.
        let folder = ScratchFolder.make("rotation-cut")
        for (name, bytes) in files { try Data(bytes).write(to: URL(fileURLWithPath: folder + "/" + name)) }
        let report = RecordingRecovery.recover(folder: folder, softwareVersion: "t")
        #expect(report.failures.isEmpty)
        #expect(Set(report.recovered.map(\.name)) == [first, second])

        // The first part kept every row it had (it was fsync-ed before the second began) and
        // is counted from its rows; the second is the next part of the same recording.
        let a = try Self.metadata(folder, first), b = try Self.metadata(folder, second)
        let firstRows = try readRows(String(decoding: files[first] ?? [], as: UTF8.self)).rows
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + first)) == Data(files[first] ?? []))
        #expect(a.file.rows.values.reduce(0, +) == firstRows.count && !firstRows.isEmpty)
        #expect(a.ending == .recovered && b.ending == .recovered)
        #expect(b.recording.id == a.recording.id && b.file.index == 2 && b.file.previous == first)
        #expect(b.file.rows.values.reduce(0, +) == 0)
        #expect(RecordingRecovery.recover(folder: folder, softwareVersion: "t").recovered.isEmpty)
    }

    static func view(_ memory: MemoryDirectory, after operation: String) -> FolderView {
        FolderView(operation: operation, endings: memory.csvFiles.map { csv in
            let m = try? metadata(memory, csv)
            return (csv, m?.ending, m?.file.index)
        })
    }

    static func metadata(_ memory: MemoryDirectory, _ csv: String) throws -> RecordingMetadata {
        try RecordingMetadata.decode(memory.contents(RecordingFiles.metadataPath(for: String(csv.dropLast(4)))))
    }

    static func metadata(_ files: [String: [UInt8]], _ csv: String) throws -> RecordingMetadata {
        try RecordingMetadata.decode(files[RecordingFiles.metadataPath(for: String(csv.dropLast(4)))] ?? [])
    }

    static func metadata(_ folder: String, _ csv: String) throws -> RecordingMetadata {
        let path = RecordingFiles.metadataPath(for: folder + "/" + String(csv.dropLast(4)))
        return try RecordingMetadata.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    }
}

/// A `MemoryDirectory` whose every change to the folder (a file created, metadata replaced,
/// a file renamed or removed) is reported, with its description, right after it happened.
final class ObservedDirectory: OutputDirectory {
    let inner: MemoryDirectory
    let changed: (String) -> Void
    init(_ inner: MemoryDirectory, changed: @escaping (String) -> Void) { self.inner = inner; self.changed = changed }

    var path: String { inner.path }
    var missingReason: String? { inner.missingReason }

    func createExclusive(base: String, ext: String) throws(OutputError) -> (base: String, file: OutputFile) {
        let created = try inner.createExclusive(base: base, ext: ext)
        changed("create \(created.base)\(ext)")
        return created
    }

    func replace(name: String, contents: [UInt8]) throws(OutputError) {
        try inner.replace(name: name, contents: contents)
        changed("replace \(name)")
    }

    func rename(_ from: String, toBase base: String, ext: String) throws(OutputError) -> String {
        let to = try inner.rename(from, toBase: base, ext: ext)
        changed("rename \(from) to \(to)\(ext)")
        return to
    }

    func remove(name: String) throws(OutputError) {
        try inner.remove(name: name)
        changed("remove \(name)")
    }
}
