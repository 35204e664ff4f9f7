import Foundation
import MotionAnalysis
import MotionCore
import Testing

/// Bad input: a clear result where nothing can be said, a partial summary where something
/// can, never a crash or a hang.
@Suite struct BadInputTests {
    static let header = "Source, Label, When, X, Y, Z, UA_X, UA_Y, UA_Z, Pitch, Roll, Yaw\n"
    let t0 = 1_763_700_000.0

    func summarize(_ text: String, name: String = "20251121044000.csv") throws -> AnalysisSummary {
        try ScenarioRecording.summarize(text, name: name)
    }

    func fix(_ t: Double, _ lat: Double, _ lon: Double, speed: String = "nan") -> String {
        "L,W,\(t),\(lat),\(lon),34.0,\(speed),0.0,0.0,3.0,4.0,3\n"
    }

    /// The largest numbers a Double holds, in every field of the fixes and the IMU rows:
    /// a summary, not a crash (an eph of 1e308 made the eph histogram's log(v / 0.01)
    /// infinite, and converting it to a bin index ended the process).
    @Test func theLargestNumbersInAnyFieldAreNoCrash() throws {
        for huge in ["1e308", "-1e308", "1.7976931348623157e308", "4.9e-324"] {
            for field in 0..<9 {
                var text = Self.header
                for k in 0..<120 {
                    let t = t0 + Double(k)
                    var values = ["\(52.52 + Double(k) * 1e-5)", "13.405", "34.0", "1.5", "90.0", "0.0", "3.0", "4.0", "3"]
                    if k % 7 == 3 { values[field] = huge }
                    text += "L,W,\(t),\(values.joined(separator: ","))\n"
                    var imu = ["0.01", "0.02", "-1.0"]
                    if k % 7 == 3 { imu[field % 3] = huge }
                    for source in ["A", "G", "M"] { text += "\(source),W,\(t),\(imu.joined(separator: ","))\n" }
                }
                let s = try summarize(text)
                #expect(s.rows["L"] == 120, "\(huge) in field \(field)")
            }
        }
        // An eph beyond the histogram's range is not reported as its top bin's edge.
        let far = try summarize(Self.header + "L,W,\(t0),52.5,13.4,34.0,1.5,90.0,0.0,1e308,4.6,3\n")
        #expect(far.health.gps?.medianEphM == 1e308, "\(String(describing: far.health.gps))")
    }

    @Test func emptyFileHasNoRows() throws {
        let s = try summarize("")
        #expect(s.start == nil && s.rows.isEmpty && s.timeline.isEmpty)
        // No rows is no news about GPS ("the timeline comes from the accelerometer alone").
        #expect(!s.messages.contains { $0.contains("GPS") }, "\(s.messages)")
        let gyroOnly = try summarize(Self.header + "G,W,\(t0),0.1,0.2,0.3\nG,W,\(t0 + 0.01),0.1,0.2,0.3\n")
        #expect(gyroOnly.messages.contains("No GPS (L) rows: no track or places."), "\(gyroOnly.messages)")
        let h = try summarize(Self.header)
        #expect(h.start == nil)
    }

    /// A source silent at the start or the end while others recorded: no gap between its
    /// rows shows it (an accelerometer that stopped answering after 10 minutes of 3 days
    /// read "nothing needs your attention").
    @Test func aSourceSilentAtTheStartOrTheEndIsAFinding() throws {
        var text = Self.header
        for k in 0..<6000 {   // 10 minutes at 10 Hz of A; G for the first minute only
            let t = t0 + Double(k) / 10
            text += "A,W,\(t),0.01,0.02,-1.0\n"
            if k < 600 { text += "G,W,\(t),0.001,0.002,0.003\n" }
            if k % 10 == 0 && (2000..<4000).contains(k) { text += fix(t, 52.52 + Double(k) * 1e-7, 13.405) }
        }
        let s = try summarize(text)
        let clock = { (t: Double) in LocalDay.clock(t) }
        #expect(s.messages.contains("GPS had no fix for 3 min 20 s from \(clock(t0)), the start of the recording."), "\(s.messages)")
        #expect(s.messages.contains("GPS had no fix for 3 min 21 s from \(clock(t0 + 399)) to the end of the recording."),
                "\(s.messages)")
        #expect(s.messages.contains("Gyroscope rows stopped at \(clock(t0 + 59.9)), 9 min before the recording ended "
            + "(the sensor stopped answering, or was disconnected)."), "\(s.messages)")
        #expect(!s.messages.contains { $0.hasPrefix("Accelerometer") }, "\(s.messages)")
        // A first fix within two minutes of the start (a cold start) is no news.
        var cold = Self.header
        for k in 0..<3000 {
            let t = t0 + Double(k) / 10
            cold += "A,W,\(t),0.01,0.02,-1.0\n"
            if k % 10 == 0 && k >= 900 { cold += fix(t, 52.52, 13.405) }
        }
        #expect(!(try summarize(cold)).messages.contains { $0.contains("GPS") }, "cold start")
        // Two recordings, GPS in the first only: the second was recorded without it, and
        // the logger was off between them; no sentence says GPS was lost.
        let dir = try ScenarioRecording.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var withGPS = Self.header, without = Self.header
        for k in 0..<600 {
            let t = t0 + Double(k) / 10
            withGPS += "A,W,\(t),0.01,0.02,-1.0\n" + (k % 10 == 0 ? fix(t, 52.52, 13.405) : "")
            without += "A,W,\(t + 7200),0.01,0.02,-1.0\n"
        }
        try withGPS.write(toFile: dir + "/" + TimeTextName.of(t0), atomically: true, encoding: .utf8)
        try without.write(toFile: dir + "/" + TimeTextName.of(t0 + 7200), atomically: true, encoding: .utf8)
        let two = try RecordingAnalyzer.summarize(try RecordingInputs.resolve([dir]))
        #expect(two.rows["A"] == 1200 && !two.messages.contains { $0.contains("GPS had no fix") }, "\(two.messages)")
    }

    @Test func absurdTimesAreDefectiveLinesNotATrap() throws {
        var text = Self.header
        for k in 0..<100 { text += "A,W,\(t0 + Double(k) / 50),0.01,0.02,-1.0\n" }
        // Each of these once trapped in the IMU windows or the movement intervals.
        for when in ["1e300", "-1e300", "253402300800.5", "1e20"] {
            text += "A,W,\(when),1,2,3\n"
            text += "D,W,\(when),0.1,0.2,0.3,0.01,0.02,0.03,0.1,0.2,0.3\n"
        }
        let s = try summarize(text)
        #expect(s.rows["A"] == 100)
        #expect(s.health.badLines == 8)
    }

    @Test func onlyIMURowsGetMovementAndHealth() throws {
        var text = Self.header
        for k in 0..<3000 {   // 60 s at 50 Hz, walking-like bounce
            let t = t0 + Double(k) / 50
            let z = -1 + 0.3 * sin(2 * Double.pi * 1.8 * Double(k) / 50)
            text += "A,W,\(t),0.01,0.02,\(z)\n"
        }
        let s = try summarize(text)
        #expect(s.rows["A"] == 3000)
        #expect(s.distanceM == 0 && s.fixesUsed == 0)
        #expect(!s.movement.sums.isEmpty && s.movement.sums.reduce(0, +) > 1)
        #expect(s.messages.contains { $0.contains("No GPS (L) rows") })
        #expect(s.timeline.contains { $0.activity == .walking })
    }

    /// A walk whose receiver reported 250 m/s (and once 1e300 m/s) for half a minute read
    /// "max 900 km/h" (and "3.6e+300 km/h", a `vehicle`): Doppler speeds above the speed limit
    /// are not used, the positions give the speed there, and a finding says so.
    @Test func impossibleDopplerSpeedsAreNotUsed() throws {
        var text = Self.header
        for k in 0..<300 {
            let speed = k == 150 ? "1e300" : (100..<130).contains(k) ? "250.0" : "1.4"
            text += fix(t0 + Double(k), 52.52 + Double(k) * 1.4 / 111_200, 13.405, speed: speed)
        }
        let s = try summarize(text)
        #expect((s.maxSpeedMps ?? 99) < 2, "max \(s.maxSpeedMps ?? -1)")
        #expect(s.timeline.allSatisfy { $0.type != .move || $0.activity == .walking }, "\(s.timeline)")
        #expect(s.messages.contains { $0.hasPrefix("31 GPS fixes reported a speed above 360 km/h") }, "\(s.messages)")
    }

    /// Metadata that is there but cannot be read is named in a finding (it was dropped in
    /// silence: "nothing needs your attention", no rate, no ending).
    @Test func damagedMetadataIsNamed() throws {
        let dir = try ScenarioRecording.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var text = Self.header
        for k in 0..<100 { text += "A,W,\(t0 + Double(k) / 50),0.01,0.02,-1.0\n" }
        try text.write(toFile: dir + "/20251121044000.csv", atomically: true, encoding: .utf8)
        try "{\"software\": {\"name\": \"motionlog\", \"vers".write(toFile: dir + "/20251121044000.json", atomically: true, encoding: .utf8)
        let s = try RecordingAnalyzer.summarize([dir + "/20251121044000.csv"])
        #expect(s.messages.contains { $0.hasPrefix("20251121044000.json could not be read") }, "\(s.messages)")
    }

    /// A relative-When file without its .json: the summary says why it reads 1970.
    @Test func relativeWhenWithoutMetadataIsNamed() throws {
        var text = Self.header
        for k in 0..<200 { text += "A,W,\(Double(k) / 50),0.01,0.02,-1.0\n" }
        let s = try summarize(text, name: "20251121044000.csv")
        #expect(s.messages.contains { $0.hasPrefix("When starts at 0.0 s, which looks like seconds since the start") && $0.contains("(20251121044000.csv)") },
                "\(s.messages)")
        let absolute = try summarize(Self.header + "A,W,\(t0),0.01,0.02,-1.0\n")
        #expect(!absolute.messages.contains { $0.contains("relative When") })
    }

    @Test func oneFix() throws {
        let s = try summarize(Self.header + fix(t0, 52.52, 13.405))
        #expect(s.fixesUsed == 1 && s.distanceM == 0 && s.timeline.isEmpty)
    }

    /// One value a format allows but no sensor gives (1e200: its square overflows) once
    /// turned a whole interval's movement, every later actigraphy count and the
    /// magnetometer statistics into NaN — printed as 0 in JSON and a crash in the text report.
    @Test func impossibleSensorValuesAreLeftOutAndCounted() throws {
        func recording(spoiled: Bool) -> String {
            var text = Self.header
            for k in 0..<3000 {   // 60 s at 50 Hz
                let t = t0 + Double(k) / 50
                let bounce = 0.3 * sin(2 * Double.pi * 1.8 * Double(k) / 50)
                let bad = spoiled && k == 1500
                text += "A,W,\(t),\(bad ? "1e200" : "0.01"),0.02,\(-1 + bounce)\n"
                text += "G,W,\(t),0.01,\(bad ? "-1e200" : "0.02"),0.03\n"
                text += "M,W,\(t),\(bad ? "inf" : "20.0"),5.0,-40.0\n"
                text += "D,W,\(t),0.01,0.02,0.03,\(bad ? "3e180" : "0.01"),0.0,\(bounce),0.1,0.2,0.3\n"
            }
            return text
        }
        let clean = try summarize(recording(spoiled: false))
        let spoiled = try summarize(recording(spoiled: true))
        #expect(spoiled.health.impossibleRows == 4)
        #expect(spoiled.health.gyroClipped == 0 && spoiled.health.accelClipped == 0)
        #expect(spoiled.messages.contains { $0.contains("4 IMU rows had values no sensor gives") })
        #expect(spoiled.rows == clean.rows)
        // What the four rows would have added is one sample in 3000: the results barely move.
        #expect(spoiled.movement.sums.count == clean.movement.sums.count && !clean.movement.sums.isEmpty)
        #expect(zip(spoiled.movement.sums, clean.movement.sums).allSatisfy { $0.isFinite && abs($0 - $1) <= 0.01 * $1 })
        #expect(zip(spoiled.movement.counts, clean.movement.counts).allSatisfy { $0.isFinite && abs($0 - $1) <= 0.02 * $1 + 1 })
        let field = try #require(spoiled.health.magnetometer)
        #expect(abs(field.meanUT - (clean.health.magnetometer?.meanUT ?? 0)) < 0.01)
        let report = SummaryReport.text(spoiled, title: "spoiled")
        #expect(report.contains("Movement per"))
    }

    @Test func nanEverywhere() throws {
        var text = Self.header
        for k in 0..<20 {
            text += "L,W,\(t0 + Double(k)),nan,nan,nan,nan,nan,nan,nan,nan,2\n"
            text += "A,W,\(t0 + Double(k)),nan,nan,nan\n"
        }
        let s = try summarize(text)
        #expect(s.rows["L"] == 20 && s.fixesUsed == 0)
        #expect(s.health.gps?.noPosition == 20)
        #expect(s.messages.contains { $0.contains("20 GPS rows had no usable position") })
        #expect(SummaryJSON.encode(s, pretty: false).count > 100)   // encodable: no NaN in JSON
    }

    @Test func thousandKilometreJumpIsDropped() throws {
        var text = Self.header
        for k in 0..<60 {
            let lat = k == 30 ? 61.52 : 52.52 + Double(k) * 0.00001   // one fix 1000 km north
            text += fix(t0 + Double(k), lat, 13.405)
        }
        let s = try summarize(text)
        #expect(s.fixesRejected == 1)
        #expect(s.distanceM < 100, "distance \(s.distanceM)")
        #expect(s.maxSpeedMps ?? 0 < 5)
    }

    @Test func persistentJumpContinuesWithoutAddingTheJump() throws {
        var text = Self.header
        for k in 0..<60 { text += fix(t0 + Double(k), 52.52 + Double(k) * 0.00001, 13.405) }
        for k in 60..<120 { text += fix(t0 + Double(k), 61.52 + Double(k) * 0.00001, 13.405) }
        let s = try summarize(text)
        #expect(s.fixesUsed == 120)
        #expect(s.distanceM < 200, "distance \(s.distanceM)")
        #expect(s.maxSpeedMps ?? 0 < 5)
    }

    /// One row whose When is a year ahead (a damaged row, a receiver's glitch) in a ride:
    /// found by `make fuzz`. Every fix after it was dropped as out of order (620 of 720), and
    /// the recording read as a year long with a year's gap.
    @Test func oneRowAYearAheadLosesNothingElse() throws {
        let year = 365 * 86400.0
        func ride(spoiled: Bool) -> String {
            var text = Self.header
            for k in 0..<720 {   // 12 minutes at 1 Hz, 5 m/s north; A at 10 Hz
                let t = t0 + Double(k)
                for j in 0..<10 {
                    let ahead = spoiled && k == 200 && j == 3 ? year : 0
                    text += "A,W,\(t + Double(j) / 10 + ahead),0.01,0.02,-1.0\n"
                }
                text += fix(spoiled && k == 100 ? t + year : t, 52.52 + Double(k) * 4.5e-5, 13.405)
            }
            return text
        }
        let clean = try summarize(ride(spoiled: false))
        let s = try summarize(ride(spoiled: true))
        #expect(s.fixesUsed == 719 && s.fixesRejected == 1, "\(s.fixesUsed) used, \(s.fixesRejected) rejected")
        #expect(abs(s.distanceM - clean.distanceM) < 1, "\(s.distanceM) against \(clean.distanceM)")
        #expect(s.durationS == clean.durationS, "\(s.durationS)")
        #expect(s.timeline.map(\.type) == clean.timeline.map(\.type))
        for source in s.health.sources {
            #expect((source.longestGaps.first?.durationS ?? 0) <= 2, "\(source.source): \(source.longestGaps.prefix(2))")
        }
        #expect(s.messages.contains("1 GPS fix was not used: its time was ahead of the fixes after it, which went on from the fix before (a damaged row, or a receiver's glitch)."), "\(s.messages)")
        #expect(s.messages.contains { $0.contains("time went backwards or repeated 1 time") }, "\(s.messages)")
        // A row behind both its neighbours (a GPS week rollover: 1024 weeks back; an A row
        // a year back): the same span, gaps and movement intervals as without it.
        let rollover = 1024 * 7 * 86400.0
        let behind = try summarize(ride(spoiled: false).split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { k, line in
            guard k == 1001 || k == 1003, let when = line.split(separator: ",").dropFirst(2).first, let t = Double(when) else { return String(line) }
            return line.replacingOccurrences(of: ",\(when),", with: ",\(t - (line.hasPrefix("L") ? rollover : year)),")
        }.joined(separator: "\n"))
        #expect(behind.durationS == clean.durationS, "\(behind.durationS)")
        #expect(behind.movement.starts == clean.movement.starts, "\(behind.movement.starts)")
        #expect(behind.fixesUsed == 719, "\(behind.fixesUsed)")
        for source in behind.health.sources {
            #expect((source.longestGaps.first?.durationS ?? 0) <= 2, "\(source.source): \(source.longestGaps.prefix(2))")
        }
        // Fixes that really go back in time (files out of order) are still dropped as before.
        var back = Self.header
        for k in 0..<60 { back += fix(t0 + Double(k), 52.52 + Double(k) * 4.5e-5, 13.405) }
        for k in 0..<30 { back += fix(t0 + 10 + Double(k), 52.53, 13.405) }
        let b = try summarize(back)
        #expect(b.fixesUsed == 60 && b.fixesRejected == 30, "\(b.fixesUsed) used, \(b.fixesRejected) rejected")
    }

    /// A row stamped outside the When range its metadata says the recorder wrote (the last
    /// fix of a ride damaged to the year 9999, an A row a year back) is left out and named:
    /// no other row can outvote the last one, which made the ride 7973 years long.
    @Test func aRowOutsideWhatTheRecorderWroteIsLeftOut() throws {
        let dir = try ScenarioRecording.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let name = "20251121044000", path = dir + "/" + name + ".csv"
        func write(endedCleanly: Bool) throws {
            var csv = CSVFormat.headerLine + "\n"
            for k in 0..<600 {
                let t = t0 + Double(k)
                csv += "A,W,\(k == 300 ? t - 365 * 86400 : t),0.01,0.02,-1.0\n"
                csv += fix(k == 599 ? 253_402_300_000 : t, 52.52 + Double(k) * 4.5e-5, 13.405)
            }
            try csv.write(toFile: path, atomically: false, encoding: .utf8)
            try ScenarioRecording.writeMetadata(for: path, id: "id", start: t0, rateHz: 1, sources: "AL", rows: ["A": 600, "L": 600],
                                                bytes: Int64(csv.utf8.count), firstWhen: t0, lastWhen: t0 + 599,
                                                endedCleanly: endedCleanly, endReason: endedCleanly ? "stopped" : "writing")
        }
        try write(endedCleanly: true)
        let r = try RecordingAnalyzer.analyze([path])
        let s = r.summary
        #expect(s.start == t0 && s.end == t0 + 599, "\(s.start ?? 0)–\(s.end ?? 0)")
        #expect(s.rows["A"] == 599 && s.rows["L"] == 599, "\(s.rows)")
        #expect(s.messages.contains { $0.hasPrefix("2 rows of \(name).csv are stamped outside the times the recorder wrote into it") }, "\(s.messages)")
        #expect(!s.messages.contains { $0.contains("shorter than") }, "\(s.messages)")
        #expect((try JSONSerialization.jsonObject(with: Data(TimelineExport.storyline(r))) as? [Any])?.count == 1)
        // A file still being written grows past its metadata: nothing is left out for it.
        try write(endedCleanly: false)
        let writing = try RecordingAnalyzer.summarize([path])
        #expect(writing.rows["L"] == 600 && writing.end == 253_402_300_000, "\(writing.rows)")
    }

    @Test func tornLastLineAndDefectiveLines() throws {
        var text = Self.header
        for k in 0..<10 { text += fix(t0 + Double(k), 52.52, 13.405) }
        text += "X,W,1,2,3\nA,W,notanumber,1,2,3\nA,W,1.0,1,2\n"
        text += "L,W,\(t0 + 11),52.5"
        let s = try summarize(text)
        #expect(s.rows["L"] == 10)
        #expect(s.health.badLines == 3 && s.health.tornLines == 1)
        #expect(s.messages.contains { $0.contains("torn") })
    }

    @Test func binaryJunkDoesNotHang() throws {
        let junk = String(repeating: "\u{01}binary", count: 200_000)   // 1.4 MB without a line end
        let s = try summarize(Self.header + junk + "\n" + fix(t0, 52.52, 13.405))
        #expect(s.rows["L"] == 1 && s.health.badLines == 1)
    }

    @Test func sourcesMissingTheSameSamplesShareOneSentence() throws {
        // A and G of one tick miss the same 5 s: one sentence, not one per source.
        var text = Self.header
        for k in 0..<300 where k < 100 || k >= 150 {
            let t = t0 + Double(k) / 10
            text += "A,W,\(t),0.01,-0.02,1.0\nG,W,\(t),0.001,0.002,-0.001\n"
        }
        let s = try summarize(text)
        let missing = s.messages.filter { $0.contains("rows were missing") }
        #expect(missing.count == 1 && missing.first?.hasPrefix("Accelerometer and gyroscope rows were missing for 5.1 s") == true,
                "\(s.messages)")
    }

    /// Two minutes of walking north from `at` in a file named by its local start time in
    /// `dir`; returns its path and text.
    func walk(_ dir: String, at start: Double, lat: Double, lon: Double) throws -> (String, String) {
        var text = Self.header
        for k in 0..<120 { text += fix(start + Double(k), lat + Double(k) * 0.0001, lon, speed: "1.1") }
        let path = dir + "/" + TimeTextName.of(start)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return (path, text)
    }

    @Test func filesFromDifferentDaysAndTheDayFilter() throws {
        let dir = try ScenarioRecording.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let day1 = t0, day2 = t0 + 3 * 86400
        let (pa, _) = try walk(dir, at: day1, lat: 52.52, lon: 13.405)
        let (pb, _) = try walk(dir, at: day2, lat: 48.85, lon: 2.35)
        let files = try RecordingInputs.resolve([dir])
        #expect(files == [pa, pb])
        let both = try RecordingAnalyzer.summarize(files)
        #expect(both.timeline.contains { $0.type == .gap })
        #expect(both.distanceM > 2000 && both.distanceM < 3000, "distance \(both.distanceM)")
        // The report puts each day's entries under its date: "15:31:10–12:35:35" alone
        // does not say which day either end is on. The days between the two files are no
        // GPS outage (the logger was off): no finding, and the rate is the files' own.
        let report = SummaryReport.text(both, title: dir)
        let lines = report.split(separator: "\n").map(String.init)
        #expect(lines.contains("  \(LocalDay.date(day1))") && lines.contains("  \(LocalDay.date(day2))"), "\(report)")
        // The gap from day 1 into day 3 names the day it ends on.
        #expect(lines.contains { $0.contains("–\(LocalDay.date(day2)) \(LocalDay.clock(day2))") && $0.contains("no data") }, "\(report)")
        #expect(!both.messages.contains { $0.contains("GPS had no fix") }, "\(both.messages)")
        #expect(abs((both.health.sources.first?.achievedHz ?? 0) - 1) < 0.01)
        // One file with a loss of GPS across midnight: its sentence carries the date.
        var night = Self.header
        let midnight = try #require(LocalDay.bounds(LocalDay.date(day2))).start
        for k in 0..<60 { night += fix(midnight - 600 + Double(k), 52.52 + Double(k) * 0.00001, 13.405, speed: "1.1") }
        for k in 0..<60 { night += fix(midnight + 900 + Double(k), 52.5206 + Double(k) * 0.00001, 13.405, speed: "1.1") }
        let across = try summarize(night, name: TimeTextName.of(midnight - 600))
        #expect(across.messages.contains { $0.contains("GPS had no fix for 24 min 1 s from \(LocalDay.date(midnight - 600)) ") },
                "\(across.messages)")
        var options = AnalysisOptions()
        let day = LocalDay.date(day2)
        let bounds = try #require(LocalDay.bounds(day))
        options.from = bounds.start; options.to = bounds.end
        let one = try RecordingAnalyzer.summarize(RecordingInputs.onDay(files, day: day), options: options)
        #expect(one.rows["L"] == 120 && one.start == day2)
    }

    /// Two healthy recordings at 100 and 25 Hz: the rate they should have is each one's over
    /// its own time ("came at 62.6 Hz of the configured 100 Hz" took the fastest for both).
    @Test func recordingsAtDifferentRatesAreNotSlow() throws {
        let dir = try ScenarioRecording.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var paths: [String] = []
        for (k, rate) in [100, 25].enumerated() {
            let start = t0 + Double(k) * 600
            var text = Self.header
            for i in 0..<(60 * rate) { text += "A,W,\(start + Double(i) / Double(rate)),0.0,0.0,1.0\n" }
            let path = dir + "/" + TimeTextName.of(start)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            try ScenarioRecording.writeMetadata(for: path, id: "r\(k)", start: start, rateHz: rate, sources: "A", rows: ["A": 60 * rate],
                                                bytes: Int64(text.utf8.count), firstWhen: start, lastWhen: start + 60 - 1 / Double(rate))
            paths.append(path)
        }
        let s = try RecordingAnalyzer.summarize(paths)
        #expect(!s.health.findings.contains { $0.contains("Hz of the configured") }, "\(s.health.findings)")
        let a = try #require(s.health.sources.first { $0.source == "A" })
        #expect(abs((a.configuredHz ?? 0) - 62.5) < 0.1 && abs((a.achievedHz ?? 0) - 62.5) < 0.5, "\(a)")
        // A recording slower than its own rate is still found, beside one at its rate.
        let slow = dir + "/" + TimeTextName.of(t0 + 1200)
        var text = Self.header
        for i in 0..<3000 { text += "A,W,\(t0 + 1200 + Double(i) / 50),0.0,0.0,1.0\n" }
        try text.write(toFile: slow, atomically: true, encoding: .utf8)
        try ScenarioRecording.writeMetadata(for: slow, id: "slow", start: t0 + 1200, rateHz: 100, sources: "A", rows: ["A": 3000],
                                            bytes: Int64(text.utf8.count), firstWhen: t0 + 1200, lastWhen: t0 + 1260 - 0.02)
        let mixed = try RecordingAnalyzer.summarize([paths[1], slow])
        #expect(mixed.health.findings.contains { $0.contains("Hz of the configured") }, "\(mixed.health.findings)")
    }

    /// A recording across midnight summarised for one day counts that day's rows only: it
    /// is not "cut short" for having fewer rows than its metadata (a night was reported as
    /// "rows were damaged after recording"); one that is shorter on disk still is.
    @Test func aDayOfARecordingAcrossMidnightIsNotCutShort() throws {
        let dir = try ScenarioRecording.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let midnight = try #require(LocalDay.bounds(LocalDay.date(t0 + 86_400))).start
        var text = Self.header
        for k in 0..<120 { text += fix(midnight - 60 + Double(k), 52.52 + Double(k) * 0.00001, 13.405, speed: "1.1") }
        let path = dir + "/" + TimeTextName.of(midnight - 60)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        try ScenarioRecording.writeMetadata(for: path, id: "night", start: midnight - 60, rateHz: 1, sources: "L",
                                            rows: ["L": 120], bytes: Int64(text.utf8.count))
        var options = AnalysisOptions()
        let bounds = try #require(LocalDay.bounds(LocalDay.date(midnight)))
        options.from = bounds.start; options.to = bounds.end
        let day = try RecordingAnalyzer.summarize([path], options: options)
        #expect(day.rows["L"] == 60)
        #expect(!day.health.findings.contains { $0.contains("than when it was closed") }, "\(day.health.findings)")
        // Cut by a bad copy: the bytes still say so.
        try String(text.dropLast(200)).write(toFile: path, atomically: true, encoding: .utf8)
        let cut = try RecordingAnalyzer.summarize([path], options: options)
        #expect(cut.health.findings.contains { $0.contains("than when it was closed") }, "\(cut.health.findings)")
    }

    /// Two recordings 30 min and 6 km apart: the logger was off between them, so that time
    /// is a gap, not the "vehicle, 30 min" move a loss of signal that fast inside one
    /// recording is. The same fixes in one file still bridge the loss.
    @Test func nothingIsInferredBetweenRecordings() throws {
        let dir = try ScenarioRecording.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let t1 = t0 + 600 + 1800
        var a = Self.header, b = Self.header
        for k in 0..<600 { a += fix(t0 + Double(k), 52.52 + Double(k) * 1.4 / 111_200, 13.405, speed: "1.4") }
        for k in 0..<600 { b += fix(t1 + Double(k), 52.58 + Double(k) * 1.4 / 111_200, 13.405, speed: "1.4") }
        let pa = dir + "/" + TimeTextName.of(t0), pb = dir + "/" + TimeTextName.of(t1)
        try a.write(toFile: pa, atomically: true, encoding: .utf8)
        try b.write(toFile: pb, atomically: true, encoding: .utf8)
        let two = try RecordingAnalyzer.summarize(try RecordingInputs.resolve([dir]))
        #expect(!two.timeline.contains { $0.activity == .vehicle }, "\(two.timeline)")
        #expect(two.timeline.contains { $0.type == .gap && $0.start == t0 + 599 && $0.end == t1 }, "\(two.timeline)")
        let one = try summarize(a + b.dropFirst(Self.header.count))
        #expect(one.timeline.contains { $0.basis == .gapSpeed && $0.activity == .vehicle }, "\(one.timeline)")
    }

    /// A logger saving a fix every two minutes: its rate is said as such (it was "0.00 Hz").
    @Test func aSparseRateIsSaidAsOneEvery() throws {
        var text = Self.header
        for k in 0..<10 { text += "L,W,\(t0 + Double(k) * 120),\(52.52 + Double(k) * 2e-3),13.405,30.0,nan,nan,nan,5.0,nan,3\n" }
        let report = SummaryReport.text(try ScenarioRecording.summarize(text), title: "sparse")
        let line = try #require(report.split(separator: "\n").first { $0.hasPrefix("  L ") })
        #expect(line.contains("one every 2 min") && !line.contains("Hz"), "\(line)")
    }

    /// One fix left out is said in the singular ("1 GPS fixes were not used").
    @Test func oneFixLeftOutIsSaidInTheSingular() throws {
        var text = Self.header
        for k in 0..<20 {
            let eph = k == 10 ? 500.0 : 5.0   // beyond the 50 m limit: not used
            text += "L,W,\(t0 + Double(k)),\(52.52 + Double(k) * 1.2e-5),13.405,30.0,nan,nan,nan,\(eph),nan,3\n"
        }
        let s = try ScenarioRecording.summarize(text)
        #expect(s.health.findings.contains("1 GPS fix was not used (inaccurate or impossible jumps)."), "\(s.health.findings)")
    }

    /// Files given out of order (`summary b.csv a.csv`) are read in time order when they are
    /// named by time; before, b was read first, a's fixes were "not used (inaccurate or
    /// impossible jumps)" and the duration was negative. Other names keep the order given.
    @Test func filesGivenOutOfOrderAreReadInTimeOrder() throws {
        let dir = try ScenarioRecording.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let day1 = t0, day2 = t0 + 2 * 86400
        let (pa, a) = try walk(dir, at: day1, lat: 52.52, lon: 13.405)
        let (pb, b) = try walk(dir, at: day2, lat: 52.52, lon: 13.405)
        #expect(try RecordingInputs.resolve([pb, pa]) == [pa, pb])
        let s = try RecordingAnalyzer.summarize(try RecordingInputs.resolve([pb, pa]))
        #expect(s.start == day1 && s.end == day2 + 119 && s.fixesUsed == 240, "\(s.start ?? 0) \(s.end ?? 0) \(s.fixesUsed)")
        // Names the recorder did not give: the order given, and a time that goes backwards
        // still has its span from the earliest to the latest When and says why fixes were left.
        let ride = dir + "/ride.csv", walk = dir + "/walk.csv"
        try b.write(toFile: ride, atomically: true, encoding: .utf8)
        try a.write(toFile: walk, atomically: true, encoding: .utf8)
        let given = try RecordingInputs.resolve([ride, walk])
        #expect(given == [ride, walk])
        let backwards = try RecordingAnalyzer.summarize(given)
        #expect(backwards.start == day1 && backwards.end == day2 + 119 && backwards.durationS > 0)
        #expect(backwards.messages.contains { $0.contains("120 GPS fixes were not used: their time was not after the fix before") },
                "\(backwards.messages)")
        // The next file begun in the same second (`-1`) comes after the first, not before.
        let same = try ScenarioRecording.tempDir()
        defer { try? FileManager.default.removeItem(atPath: same) }
        for name in ["20261123120000-1.csv", "20261123120000.csv", "20261123120000-10.csv", "20261123120000-2.csv", "20261123115959.csv"] {
            try Self.header.write(toFile: same + "/" + name, atomically: true, encoding: .utf8)
        }
        #expect(try RecordingInputs.resolve([same]).map { ($0 as NSString).lastPathComponent }
                == ["20261123115959.csv", "20261123120000.csv", "20261123120000-1.csv", "20261123120000-2.csv", "20261123120000-10.csv"])
    }
}

/// File names as the recorder makes them (local time).
enum TimeTextName {
    static func of(_ epoch: Double) -> String {
        LocalDay.date(epoch).replacingOccurrences(of: "-", with: "")
            + LocalDay.clock(epoch).replacingOccurrences(of: ":", with: "") + ".csv"
    }
}
