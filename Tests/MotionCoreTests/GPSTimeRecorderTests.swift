import Foundation
import Logging
@testable import MotionCore
import Testing

/// A GPS on a logger whose system clock is wrong: fixes carry true UTC; each arrives
/// 120 ms after its fix time, or 320 ms for two fixes out of three (any three consecutive
/// fixes hold the minimum, so the first estimate is already the final one). Like the gpsd client, it receives fixes
/// (and estimates GPS time) on its own, whether or not the recorder polls it.
final class TrueTimeGPS: LocationSource, GPSTimeSource {
    var health = LocationHealth()
    /// True UTC epoch ns minus monotonic ns.
    let theta: Int64
    let clock: TickClock
    private var nextSecond: Int64?
    private var estimator = GPSTimeEstimator()
    private var queue: [LocationFix] = []
    private(set) var emitted: [Double] = []
    private(set) var delays: [Int64] = []

    init(theta: Int64, clock: TickClock) { self.theta = theta; self.clock = clock }
    func start() {}

    static func delay(_ second: Int64) -> Int64 { second % 3 == 1 ? 120_000_000 : 320_000_000 }

    /// Receives every fix that has arrived by the clock's now.
    private func receive() {
        let trueNow = clock.monotonicNow() + theta
        var s = nextSecond ?? (trueNow / 1_000_000_000)
        while s * 1_000_000_000 + Self.delay(s) <= trueNow {
            let fixNanos = s * 1_000_000_000
            estimator.add(fixEpochNanos: fixNanos, arrivalNanos: fixNanos + Self.delay(s) - theta)
            queue.append(LocationFix(when: Double(s), latitude: 52.52, longitude: 13.405, mode: 3))
            delays.append(Self.delay(s))
            s += 1
        }
        nextSecond = s
    }

    func poll(at tick: Tick, _ emit: (LocationFix) -> Void) {
        receive()
        for f in queue { emit(f); emitted.append(f.when) }
        queue.removeAll()
    }

    func finish(_ emit: (LocationFix) -> Void) {}
    func gpsTimeEstimate() -> GPSTimeEstimate? {
        receive()
        return estimator.estimate
    }
}

@Suite("GPS time in the recorder")
struct GPSTimeRecorderTests {
    /// The logger's clock says 1970 (no RTC, no network); true time is 2025-11-21 14:30:05.5 UTC.
    static let trueStart: Int64 = 1_763_735_405_500_000_000
    static let monotonicStart: Int64 = 1_000_000_000

    func record(_ whenMode: WhenMode, directory: String) throws -> (RecordingSummary, TrueTimeGPS) {
        let clock = SimulatedClock(start: Self.monotonicStart, epoch: 100_000_000_000)
        let gps = TrueTimeGPS(theta: Self.trueStart - Self.monotonicStart, clock: clock)
        let cfg = RecorderConfiguration(rateHz: 100, sources: [.accelerometer, .location], whenMode: whenMode,
                                        duration: 10, boardName: "test", softwareVersion: "t")
        let base = GPSTimeBase(systemClockSynchronised: false, detail: "test: unsynchronised",
                               provisionalPrefix: "unsynced-test")
        let recorder = Recorder(configuration: cfg, clock: clock, sensor: ScriptedSensor(), location: gps,
                                estimator: nil, directory: try DiskDirectory(path: directory), log: Logger(label: "test"),
                                timeBase: base)
        return (try recorder.run(), gps)
    }

    @Test func whenStepsForwardToGPSTimeOnceAndNamesTheFileByIt() throws {
        let dir = temporaryDirectory()
        let (summary, gps) = try record(.epoch, directory: dir)
        let files = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        // One CSV and its metadata, named by the true (GPS) time of the first sample minus
        // the receiver's minimum latency (0.12 s): 14:30:05.4 → ...143005 in local time.
        let expected = TimeText.fileBase(epochSeconds: Double(Self.trueStart) / 1e9 - 0.1)
        #expect(files == [expected + ".csv", expected + ".json"])
        #expect(summary.files == [expected + ".csv"])

        let (rows, problems) = try RecordingReader(path: dir + "/" + expected + ".csv").readAll()
        #expect(problems.isEmpty)
        let a = rows.filter { $0.source == .accelerometer }.map(\.when)
        #expect(a.count == 1000)
        #expect(zip(a, a.dropFirst()).allSatisfy { $0 < $1 })
        #expect(a[0] < 200)  // before GPS time: the wrong clock (1970), no invention
        // After the step, When is GPS time less the minimum report delay (0.12 s), ±1 µs.
        let lastTrue = Double(Self.trueStart + 20_000_000 + 999 * 10_000_000) / 1e9
        #expect(abs(a[999] - (lastTrue - 0.12)) < 1e-6, "\(a[999]) vs \(lastTrue - 0.12)")
        // L rows carry the fix times exactly.
        let l = rows.filter { $0.source == .location }.map(\.when)
        #expect(l == gps.emitted && l.count >= 9)

        let meta = try RecordingMetadata.decode(Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/" + expected + ".json"))))
        let time = try #require(meta.counters.time)
        #expect(time.clock == "gps" && time.systemClockSynchronised == false && time.steps == 1)
        let correction = Double(Self.trueStart - Self.monotonicStart - (100_000_000_000 - Self.monotonicStart)) / 1e9 - 0.12
        #expect(abs(time.correctionSeconds - correction) < 1e-6)
        #expect(abs((time.gpsMinusSystemSeconds ?? 0) - correction) < 1e-6)
        #expect(abs((time.gpsDelaySpreadSeconds ?? 0) - 0.2) < 1e-6)  // the jitter the estimate ignored
        #expect(time.firstCorrectedWhen.map { $0 > 1.7e9 } == true)
        // The step is recorded: the rows before it plus the step continue the tick grid.
        let step = try #require(time.firstStepSeconds)
        let first = try #require(time.firstCorrectedWhen)
        let k = try #require(a.firstIndex(of: first))
        #expect(k > 0 && a[k - 1] < 200)
        #expect(abs(a[k - 1] + step + 0.01 - first) < 1e-6, "\(a[k - 1]) + \(step) vs \(first)")
    }

    @Test func relativeWhenCountsLocationRowsFromTheTrueStart() throws {
        let dir = temporaryDirectory()
        let (summary, gps) = try record(.relative, directory: dir)
        let (rows, _) = try RecordingReader(path: dir + "/" + summary.files[0]).readAll()
        #expect(!summary.files[0].hasPrefix("unsynced"))
        let a = rows.filter { $0.source == .accelerometer }.map(\.when)
        #expect(a.first == 0 && a.last == 9.99)
        let l = rows.filter { $0.source == .location }
        #expect(l.count >= 8)
        let firstTickTrue = Double(Self.trueStart + 20_000_000) / 1e9
        for (row, fixTime) in zip(l, gps.emitted) {
            // Seconds since the first sample by GPS time (with the 0.12 s latency bias).
            #expect(abs(row.when - (fixTime - firstTickTrue + 0.12)) < 1e-6, "\(row.when) for fix \(fixTime)")
        }
    }

    @Test func aSynchronisedClockIsOnlyMeasuredNeverCorrected() throws {
        let dir = temporaryDirectory()
        let clock = SimulatedClock(start: Self.monotonicStart, epoch: Self.trueStart + 2_000_000_000)  // 2 s ahead
        let gps = TrueTimeGPS(theta: Self.trueStart - Self.monotonicStart, clock: clock)
        let cfg = RecorderConfiguration(rateHz: 100, sources: [.accelerometer, .location], duration: 5,
                                        boardName: "test", softwareVersion: "t")
        let base = GPSTimeBase(systemClockSynchronised: true, detail: "test: synchronised")
        let summary = try Recorder(configuration: cfg, clock: clock, sensor: ScriptedSensor(), location: gps, estimator: nil,
                                   directory: try DiskDirectory(path: dir), log: Logger(label: "test"), timeBase: base).run()
        let (rows, _) = try RecordingReader(path: dir + "/" + summary.files[0]).readAll()
        let a = rows.filter { $0.source == .accelerometer }.map(\.when)
        #expect(a.first == Double(Self.trueStart + 2_020_000_000) / 1e9 && a.count == 500)
        #expect(zip(a, a.dropFirst()).allSatisfy { abs($1 - $0 - 0.01) < 1e-6 })  // untouched
        let time = try #require(base.snapshot.gpsMinusSystemSeconds)
        let minimumDelay = Double(gps.delays.min() ?? 0) / 1e9
        #expect(abs(time - (-2 - minimumDelay)) < 1e-6, "\(time)")
        #expect(base.snapshot.clock == "system" && base.snapshot.correctionSeconds == 0)
    }
}

/// The writer's side: a file started before GPS time is known gets a provisional name and
/// is renamed (CSV and metadata) once it is known; rows from before the step still name
/// later files by their true time.
struct GPSTimeFileNamingTests {
    static func rows(_ whens: [Double]) -> [Row] {
        whens.map { Row(source: .accelerometer, label: Label.defaultLetter, when: $0, 0, 0, -1) }
    }

    static func writer(_ dir: String, _ base: GPSTimeBase, rotation: RotationPolicy = .none) throws -> RotatingWriter {
        let description = RecordingDescription(
            id: "t", board: "t", boardDescription: nil, sensor: SensorInfo(model: "t"), gps: "test", deviceMotion: nil,
            rateHz: 10, sources: "A", label: "W", whenMode: .epoch, startEpoch: 100, started: "", clock: "system",
            rotateBytes: nil, rotateSeconds: rotation.maxSeconds, fsyncIntervalSeconds: 1, bufferRows: 256, notes: [])
        return RotatingWriter(directory: try DiskDirectory(path: dir), description: description,
                              configuration: .init(rotation: rotation, softwareVersion: "t"), counters: RecorderCounters(bufferCapacity: 256),
                              whenOffset: 0, log: Logger(label: "test"), nowNanos: { 4_242_000_000_000 }, timeBase: base)
    }

    static func write(_ w: RotatingWriter, _ rows: [Row]) {
        rows.withUnsafeBufferPointer { w.write($0) }
        w.flushChunk()
    }

    @Test func aProvisionalFileIsRenamedWhenGPSTimeIsKnown() throws {
        let dir = temporaryDirectory()
        let base = GPSTimeBase(systemClockSynchronised: false, detail: "test", provisionalPrefix: "unsynced-abcd1234")
        let w = try Self.writer(dir, base)
        Self.write(w, Self.rows([100.0, 100.1, 100.2]))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
            == ["unsynced-abcd1234-0004242.csv", "unsynced-abcd1234-0004242.json"])
        // GPS time: the clock was 1_763_735_305 s behind; the step came after When 100.2.
        base.endProvisional(correctionNanos: 1_763_735_305_000_000_000, stepBoundaryWhen: 100.2)
        Self.write(w, Self.rows([1_763_735_405.3, 1_763_735_405.4]))
        w.finish(reason: "stopped")
        let name = TimeText.fileBase(epochSeconds: 1_763_735_405.0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == [name + ".csv", name + ".json"])
        #expect(w.files == [name + ".csv"])
        let meta = try RecordingMetadata.decode(Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/" + name + ".json"))))
        #expect(meta.file.name == name + ".csv" && meta.file.renamedFrom == "unsynced-abcd1234-0004242.csv")
        #expect(meta.file.rows["A"] == 5 && meta.endedCleanly)
        let (rows, problems) = try RecordingReader(path: dir + "/" + name + ".csv").readAll()
        #expect(problems.isEmpty && rows.map(\.when) == [100.0, 100.1, 100.2, 1_763_735_405.3, 1_763_735_405.4])
    }

    @Test func rowsFromBeforeTheStepNameTheirFileByTheirTrueTime() throws {
        let dir = temporaryDirectory()
        let base = GPSTimeBase(systemClockSynchronised: false, detail: "test")
        // The writer sees the rows only after the step (it lags the sampling thread).
        base.endProvisional(correctionNanos: 1_763_735_305_000_000_000, stepBoundaryWhen: 100.2)
        let w = try Self.writer(dir, base)
        Self.write(w, Self.rows([100.0, 100.1, 100.2, 1_763_735_405.3]))
        w.finish(reason: "stopped")
        let name = TimeText.fileBase(epochSeconds: 1_763_735_405.0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == [name + ".csv", name + ".json"])
    }

    /// A file rotated by time is as long as the interval in the time that passed, across
    /// the step to GPS time: counted on When, the step (here 55 years) ended the first file
    /// at once, 3 s into a 5 s interval.
    @Test func theRotationIntervalIsCountedAcrossTheStepToGPSTime() throws {
        let dir = temporaryDirectory()
        let base = GPSTimeBase(systemClockSynchronised: false, detail: "test", provisionalPrefix: "unsynced-abcd1234")
        let w = try Self.writer(dir, base, rotation: RotationPolicy(maxSeconds: 5))
        let step = 1_763_735_305.0
        Self.write(w, Self.rows(stride(from: 100.0, through: 103.0, by: 0.5).map { $0 }))
        base.endProvisional(correctionNanos: Int64(step * 1e9), stepBoundaryWhen: 103.0)
        Self.write(w, Self.rows(stride(from: 103.5, through: 111.5, by: 0.5).map { $0 + step }))
        w.finish(reason: "stopped")
        // True times 100 + step … 111.5 + step: files from 100, 105 and 110.
        let names = [100.0, 105.0, 110.0].map { TimeText.fileBase(epochSeconds: $0 + step) + ".csv" }
        #expect(w.files == names, "\(w.files)")
        let (first, _) = try RecordingReader(path: dir + "/" + names[0]).readAll()
        #expect(first.count == 10, "\(first.map(\.when))")   // 100.0 … 104.5 in true time
    }

    @Test func aSynchronisedClockNamesFilesAsAlways() throws {
        let dir = temporaryDirectory()
        let w = try Self.writer(dir, GPSTimeBase(systemClockSynchronised: true, detail: "test"))
        Self.write(w, Self.rows([1_763_735_405.0, 1_763_735_405.1]))
        w.finish(reason: "stopped")
        #expect(w.files == [TimeText.fileBase(epochSeconds: 1_763_735_405.0) + ".csv"])
    }
}
