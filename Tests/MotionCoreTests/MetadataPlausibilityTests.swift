import Foundation
import MotionCore
import Testing

/// `RecordingMetadata.decode` refuses numbers no recorder writes, naming the field, and
/// reads what recorders write (negative time corrections included).
@Suite struct MetadataPlausibilityTests {
    func metadata() -> RecordingMetadata {
        let description = RecordingDescription(
            id: "id", board: "simulator", boardDescription: nil, sensor: SensorInfo(model: "fake"), gps: nil, deviceMotion: nil,
            rateHz: 100, sources: "A", label: "W", whenMode: .epoch, startEpoch: 1_790_000_000, started: "2026-09-21T12:53:20Z",
            clock: "system", rotateBytes: nil, rotateSeconds: 600, fsyncIntervalSeconds: 1, bufferRows: 1024, notes: [])
        var file = RecordingMetadata.FileSection(name: "a.csv", index: 1, previous: nil)
        file.firstWhen = 1_790_000_000
        file.lastWhen = 1_790_000_010
        file.rows = ["A": 1000]
        var counters = CounterSnapshot()
        var time = GPSTimeRecord(clock: "gps", systemClockSynchronised: false)
        time.correctionSeconds = -3.5
        counters.time = time
        return RecordingMetadata(software: .init(version: "test"), recording: description, file: file, counters: counters,
                                 endedCleanly: true, endReason: "stopped", ended: nil)
    }

    @Test func whatARecorderWritesIsRead() throws {
        let m = metadata()
        #expect(m.implausibility == nil)
        let read = try RecordingMetadata.decode(m.encoded())
        #expect(read.file == m.file && read.counters.time?.correctionSeconds == -3.5)
    }

    @Test func numbersNoRecorderWritesAreRefusedByName() {
        var cases: [(String, RecordingMetadata)] = []
        var m = metadata(); m.file.firstWhen = 1e19; cases.append(("file.firstWhen", m))
        m = metadata(); m.file.lastWhen = .infinity; cases.append(("file.lastWhen", m))
        m = metadata(); m.recording.startEpoch = -3e11; cases.append(("recording.startEpoch", m))
        m = metadata(); m.file.rows["L"] = Int.max; cases.append(("file.rows.L", m))
        m = metadata(); m.counters.droppedRows = -1; cases.append(("counters.droppedRows", m))
        m = metadata(); m.recording.fsyncIntervalSeconds = .nan; cases.append(("recording.fsyncIntervalSeconds", m))
        m = metadata(); m.counters.time?.correctionSeconds = 1e300; cases.append(("counters.time.correctionSeconds", m))
        for (field, doc) in cases {
            #expect(doc.implausibility?.hasPrefix(field + " ") == true, "\(field): \(doc.implausibility ?? "nil")")
            #expect(throws: ImplausibleMetadata.self, "\(field)") { try RecordingMetadata.decode(doc.encoded()) }
        }
    }
}
