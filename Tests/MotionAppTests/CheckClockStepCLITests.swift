import Foundation
import MotionCore
import Testing

/// `check` reports spans of When as written; for a recording whose clock was stepped to GPS
/// time it says that the IMU spans include the step (a logger booted without network).
@Suite("motionlog check: clock steps")
struct CheckClockStepCLITests {
    @Test func aSteppedRecordingSaysItsSpansIncludeTheStep() throws {
        let out = Binary.temporaryDirectory()
        let r = try Binary.run(["record", "--board", "simulator", "--fast", "--duration", "2", "--sources", "AG",
                                "--out", out, "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let csv = try #require(Binary.csvFiles(in: out).first)
        let plain = try Binary.run(["check", csv])
        #expect(plain.status == 0 && !plain.stdout.contains("clock stepped"), "\(plain.stdout)")
        // What the recorder writes when GPS time set a clock 3 days behind, 1 s in.
        let jsonPath = RecordingFiles.metadataPath(for: csv)
        var meta = try RecordingMetadata.decode(Array(try Data(contentsOf: URL(fileURLWithPath: jsonPath))))
        var time = GPSTimeRecord(clock: "gps", systemClockSynchronised: false)
        time.steps = 1
        time.firstCorrectedWhen = meta.recording.startEpoch + 1
        time.firstStepSeconds = 3 * 86_400
        meta.counters.time = time
        try Data(meta.encoded()).write(to: URL(fileURLWithPath: jsonPath))
        let stepped = try Binary.run(["check", csv])
        #expect(stepped.status == 0)
        #expect(stepped.stdout.contains("clock stepped to GPS time at ") && stepped.stdout.contains(" by +3 d 0 h: the IMU spans"),
                "\(stepped.stdout)")
    }
}
