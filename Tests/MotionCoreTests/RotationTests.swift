import Logging
import MotionCore
import Testing
import MotionTestSupport

@Suite("Rotation at row boundaries")
struct RotationTests {
    func writer(_ dir: MemoryDirectory, _ rotation: RotationPolicy) -> (RotatingWriter, RecorderCounters) {
        let counters = RecorderCounters(bufferCapacity: 10)
        let d = RecordingDescription(id: "t", board: "t", boardDescription: nil, sensor: SensorInfo(model: "fake"), gps: nil,
                                     deviceMotion: nil, rateHz: 10, sources: "AGL", label: "W", whenMode: .epoch,
                                     startEpoch: 1_763_735_405, started: "", clock: "simulated", rotateBytes: rotation.maxBytes,
                                     rotateSeconds: rotation.maxSeconds, fsyncIntervalSeconds: 1, bufferRows: 10, notes: [])
        return (RotatingWriter(directory: dir, description: d, configuration: .init(rotation: rotation, chunkBytes: 300, softwareVersion: "t"),
                               counters: counters, whenOffset: 0, log: Logger(label: "t")), counters)
    }

    func allRows(_ dir: MemoryDirectory) throws -> [[Row]] {
        try dir.csvFiles.map { name in
            let text = dir.text(name)
            #expect(text.hasPrefix(CSVFormat.headerLine + "\n"))
            let (rows, problems) = try readRows(text)
            #expect(problems.isEmpty)
            return rows
        }
    }

    @Test func bySizeNoFileExceedsTheLimitAndNothingIsLostOrRepeated() throws {
        let dir = MemoryDirectory()
        let (w, _) = writer(dir, RotationPolicy(maxBytes: 1000))
        var input: [Row] = []
        for i in 0..<400 {
            let t = 1_763_735_405 + Double(i) / 10
            input.append(row(.accelerometer, t, Double(i) * 0.001))
            input.append(row(.gyroscope, t, -Double(i) * 0.37))
        }
        input.withUnsafeBufferPointer { w.write($0) }
        w.finish(reason: "stopped")
        #expect(dir.csvFiles.count > 10)
        for name in dir.csvFiles { #expect(dir.contents(name).count <= 1000) }
        let files = try allRows(dir)
        #expect(files.flatMap { $0 } == input)
        // Every file's metadata counts exactly its rows, and links to the previous file.
        var previous: String?
        for (name, rows) in zip(dir.csvFiles, files) {
            let meta = try RecordingMetadata.decode(dir.contents(String(name.dropLast(4)) + ".json"))
            #expect(meta.file.rows.values.reduce(0, +) == rows.count)
            #expect(meta.file.bytes == Int64(dir.contents(name).count))
            #expect(meta.file.previous == previous)
            #expect(meta.endedCleanly)
            previous = name
        }
    }

    @Test func byTimeBoundariesCountFromTheFirstSampleAcrossGaps() throws {
        let dir = MemoryDirectory()
        let (w, _) = writer(dir, RotationPolicy(maxSeconds: 3))
        let start = 1_763_735_405.0
        // 10 Hz for 10 s with a gap from 4.0 s to 7.1 s (a whole period skipped).
        let gapStart: Double = start + 4, gapEnd: Double = start + 7.1
        let all: [Double] = (0..<100).map { (i: Int) -> Double in start + Double(i) / 10 }
        let times: [Double] = all.filter { (t: Double) -> Bool in t < gapStart || t >= gapEnd }
        let input = times.map { row(.accelerometer, $0) }
        input.withUnsafeBufferPointer { w.write($0) }
        w.finish(reason: "duration")
        let files = try allRows(dir)
        // Boundaries at 3, 6, 9 s: [0, 3), [3, 4) then the gap, [7.1, 9), [9, 10).
        #expect(files.count == 4)
        #expect(files.flatMap { $0 } == input)
        #expect(files[0].count == 30 && files[0].last?.when == start + 2.9)
        #expect(files[1].first?.when == start + 3 && files[1].last?.when == start + 3.9)
        #expect(files[2].first?.when == start + 7.1 && files[2].count == 19)
        #expect(files[3].first?.when == start + 9 && files[3].count == 10)
        let metas = try dir.csvFiles.map { try RecordingMetadata.decode(dir.contents(String($0.dropLast(4)) + ".json")) }
        #expect(metas.map(\.endReason) == ["rotated", "rotated", "rotated", "duration"])
    }

    @Test func takenNamesGetSuffixes() throws {
        let dir = MemoryDirectory()
        let (w, _) = writer(dir, RotationPolicy(maxBytes: 4096))
        // Rows within one second land in files named by the same second.
        let big = (0..<300).map { row(.accelerometer, 1_763_735_405 + Double($0) / 1000, 0.123456789) }
        big.withUnsafeBufferPointer { w.write($0) }
        w.finish(reason: "stopped")
        let names = dir.csvFiles
        #expect(names.count >= 3)
        #expect(names[1] == String(names[0].dropLast(4)) + "-1.csv")
        #expect(names[2] == String(names[0].dropLast(4)) + "-2.csv")
    }
}
