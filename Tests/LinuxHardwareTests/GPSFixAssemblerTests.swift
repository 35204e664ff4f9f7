import MotionCore
import Testing
@testable import LinuxHardware

/// The pure fix assembly: one fix per fix time, latest values, hold-off, backwards dropped.
struct GPSFixAssemblerTests {
    static let t0 = GPSFixTime(seconds: 2_048_272_000, nanoseconds: 0)!
    static func t(_ plusMillis: Int64) -> GPSFixTime {
        let total = t0.epochNanoseconds + plusMillis * 1_000_000
        return GPSFixTime(seconds: total / 1_000_000_000, nanoseconds: total % 1_000_000_000)!
    }
    static func rmc(_ time: GPSFixTime, lat: Double = 44.0688, lon: Double = -121.3141) -> TPVReport {
        TPVReport(time: time, mode: 3, latitude: lat, longitude: lon, speed: 0.5, track: 225.97, eph: 4.6)
    }

    @Test func severalReportsForOneTimeBecomeOneFixWithTheLatestValues() throws {
        var a = FixAssembler()
        // A receiver's cycle: RMC (speed, track), GGA (altitude), GSA (error estimates).
        #expect(a.add(Self.rmc(Self.t0), arrivalNanos: 100).outcome == .newTime)
        var gga = Self.rmc(Self.t0, lat: 44.0689)
        gga.altitudeMSL = 1127.7; gga.speed = .nan; gga.track = .nan
        #expect(a.add(gga, arrivalNanos: 200) == (.merged, nil))
        var gsa = TPVReport(time: Self.t0, mode: 3, latitude: 44.0689, longitude: -121.3141, eph: 3.9, epv: 7.5)
        gsa.climb = -0.2
        #expect(a.add(gsa, arrivalNanos: 300).released == nil)
        // The next fix time releases the merged fix.
        let next = a.add(Self.rmc(Self.t(1000)), arrivalNanos: 1_000_000_100)
        #expect(next.outcome == .newTime)
        let fix = try #require(next.released)
        #expect(fix == LocationFix(when: 2_048_272_000, latitude: 44.0689, longitude: -121.3141, altitudeMSL: 1127.7,
                                   speed: 0.5, course: 225.97, climb: -0.2, eph: 3.9, epv: 7.5, mode: 3))
        #expect(a.heldTime == Self.t(1000))
    }

    /// Values the format does not allow never reach a row (a gpsd sending latitude 95,
    /// speed −3 and eph −1 had the recorder write rows its own `check` called invalid): a
    /// position out of range is no fix; a negative speed or error estimate is unknown.
    @Test func valuesOutOfTheFormatsRangesAreNotTaken() throws {
        var a = FixAssembler()
        #expect(a.add(Self.rmc(Self.t0, lat: 95), arrivalNanos: 100).outcome == .noFix)
        #expect(a.add(Self.rmc(Self.t0, lon: 200), arrivalNanos: 100).outcome == .noFix)
        let odd = TPVReport(time: Self.t0, mode: 3, latitude: 52.5, longitude: 13.4, speed: -3, track: 90, climb: -0.5, eph: -1, epv: -2)
        #expect(a.add(odd, arrivalNanos: 200).outcome == .newTime)
        let flushed = a.flush()
        let fix = try #require(flushed)
        #expect(fix.speed.isNaN && fix.eph.isNaN && fix.epv.isNaN && fix.course == 90 && fix.climb == -0.5, "\(fix)")
        for (k, v) in [fix.latitude, fix.longitude, fix.altitudeMSL, fix.speed, fix.course, fix.climb, fix.eph, fix.epv].enumerated() {
            #expect(CSVFormat.rangeProblem(.location, 3 + k, v) == nil)
        }
    }

    @Test func holdOffReleasesAQuietFixAndNotBefore() {
        var a = FixAssembler(holdOffNanos: 1_000)
        _ = a.add(Self.rmc(Self.t0), arrivalNanos: 10_000)
        _ = a.add(Self.rmc(Self.t0), arrivalNanos: 10_500)
        #expect(a.expire(nowNanos: 11_499) == nil)  // 999 ns after the latest report
        #expect(a.expire(nowNanos: 11_500)?.when == 2_048_272_000)
        #expect(a.expire(nowNanos: 99_999) == nil)
        #expect(a.flush() == nil)
    }

    @Test func aReportForAnAlreadyReleasedTimeIsDroppedAsLate() {
        var a = FixAssembler(holdOffNanos: 1_000)
        _ = a.add(Self.rmc(Self.t0), arrivalNanos: 0)
        #expect(a.expire(nowNanos: 2_000) != nil)
        #expect(a.add(Self.rmc(Self.t0), arrivalNanos: 2_100) == (.droppedLate, nil))
        #expect(a.lateDropped == 1)
        #expect(a.backwardsDropped == 0)
        #expect(a.flush() == nil)
    }

    @Test func fixTimesGoingBackwardsAreDroppedAndCounted() {
        var a = FixAssembler()
        var out: [LocationFix] = []
        func add(_ r: TPVReport) -> FixAssembler.Outcome {
            let (o, f) = a.add(r, arrivalNanos: 0)
            if let f { out.append(f) }
            return o
        }
        #expect(add(Self.rmc(Self.t(0))) == .newTime)
        #expect(add(Self.rmc(Self.t(1000))) == .newTime)
        #expect(add(Self.rmc(Self.t(500))) == .droppedBackwards)   // older than the held one
        #expect(add(Self.rmc(Self.t(0))) == .droppedBackwards)     // older than the held one
        if let f = a.flush() { out.append(f) }
        #expect(add(Self.rmc(Self.t(900))) == .droppedBackwards)   // older than the released one
        #expect(add(Self.rmc(Self.t(1200))) == .newTime)
        if let f = a.flush() { out.append(f) }
        #expect(a.backwardsDropped == 3)
        #expect(out.map(\.when) == [2_048_272_000, 2_048_272_001, 2_048_272_001.2])
    }

    @Test func reportsWithoutAFixGiveNoRowsButModesAreTracked() {
        var a = FixAssembler()
        #expect(a.add(TPVReport(time: nil, mode: 1), arrivalNanos: 0) == (.noFix, nil))
        #expect(a.add(TPVReport(time: Self.t0, mode: 1, latitude: 1, longitude: 2), arrivalNanos: 0).outcome == .noFix)
        #expect(a.add(TPVReport(time: nil, mode: 3, latitude: 1, longitude: 2), arrivalNanos: 0).outcome == .noFix)
        #expect(a.add(TPVReport(time: Self.t0, mode: 3), arrivalNanos: 0).outcome == .noFix)  // no position
        #expect(a.add(TPVReport(time: Self.t0, mode: 2, latitude: 1, longitude: 2), arrivalNanos: 0).outcome == .newTime)
        #expect(a.add(TPVReport(time: Self.t(1000), mode: 1), arrivalNanos: 0).outcome == .noFix)
        #expect(a.lastMode == 1)
        #expect(a.modeChanges == 3)  // 1 → 3 → 2 → 1
        // A 2-D fix: altitude and climb stay nan.
        let fix = a.flush()
        #expect(fix?.mode == 2)
        #expect(fix?.altitudeMSL.isNaN == true && fix?.climb.isNaN == true)
    }
}

/// Fix times as When: exact, and printed as the shortest decimal.
struct GPSFixTimeTests {
    @Test(arguments: [
        (Int64(2_048_272_000), Int64(200_000_000), "2048272000.2"),
        (1_584_538_099, 600_000_000, "1584538099.6"),
        (1_700_000_000, 123_000_000, "1700000000.123"),
        (2_034_567_890, 987_654_321, "2034567890.9876542"),  // Python: float("2034567890.987654321")
        (1_763_735_405, 0, "1763735405.0"),
    ])
    func epochSecondsIsTheNearestDouble(seconds: Int64, nanos: Int64, printed: String) throws {
        let t = try #require(GPSFixTime(seconds: seconds, nanoseconds: nanos))
        #expect("\(t.epochSeconds)" == printed)
    }

    @Test func timesThatAreNotTimesAreRejected() {
        #expect(GPSFixTime(seconds: 0, nanoseconds: 0) == nil)  // gpsd's "no time"
        #expect(GPSFixTime(seconds: -5, nanoseconds: 0) == nil)
        #expect(GPSFixTime(seconds: 5, nanoseconds: 1_000_000_000) == nil)
        #expect(GPSFixTime(seconds: 5, nanoseconds: -1) == nil)
    }

    @Test func orderIsExact() throws {
        let a = try #require(GPSFixTime(seconds: 10, nanoseconds: 999_999_999))
        let b = try #require(GPSFixTime(seconds: 11, nanoseconds: 0))
        #expect(a < b)
        #expect(b.epochNanoseconds - a.epochNanoseconds == 1)
    }
}

/// `--gpsd` / board `gps.gpsd` addresses.
struct GPSDAddressTests {
    @Test func parsesHostPortForms() {
        #expect(GPSDAddress(parsing: "localhost:2947") == GPSDAddress(host: "localhost", port: 2947))
        #expect(GPSDAddress(parsing: " 192.168.1.5:3000 ") == GPSDAddress(host: "192.168.1.5", port: 3000))
        #expect(GPSDAddress(parsing: "gps.local") == GPSDAddress(host: "gps.local", port: 2947))
        #expect(GPSDAddress(parsing: "[::1]:2948") == GPSDAddress(host: "::1", port: 2948))
        #expect(GPSDAddress(parsing: "[::1]")?.description == "[::1]:2947")
    }

    @Test(arguments: ["", ":2947", "host:", "host:0", "host:70000", "host:x", "::1", "[::1", "[::1]x", "a b:1"])
    func rejectsMalformed(text: String) {
        #expect(GPSDAddress(parsing: text) == nil)
    }
}
