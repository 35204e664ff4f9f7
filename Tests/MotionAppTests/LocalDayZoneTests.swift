import Foundation
@testable import MotionAnalysis
import MotionCore
import Testing

/// `summary --day` and `export --format timeline` cut at local midnight in the zone the
/// user's TZ names, west and east of Greenwich and at half hours. The binary runs with `TZ`
/// set to a POSIX rule (no time zone database needed); the test suite's own zone is UTC.
/// Before the fix every zone was read as UTC: `--day` was refused west of Greenwich and the
/// timeline export was `[]`; east of it the day was the UTC day.
@Suite("local days in other time zones")
struct LocalDayZoneTests {
    /// A POSIX `TZ` rule and the offset it gives, in seconds east of UTC.
    struct Zone: Sendable, CustomStringConvertible {
        var tz: String
        var offset: Int
        var description: String { tz }
        /// `+hhmm` / `-hhmm`, as the timeline export writes it.
        var suffix: String {
            let a = abs(offset)
            return (offset < 0 ? "-" : "+") + String(format: "%02d%02d", a / 3600, a % 3600 / 60)
        }
    }

    static let zones = [Zone(tz: "XXX5", offset: -5 * 3600), Zone(tz: "XXX-1", offset: 3600),
                        Zone(tz: "XXX-5:30", offset: 5 * 3600 + 1800)]

    /// An hour of walking from 23:30 local time on 23 Nov 2026 to 00:29:59 on the 24th, one
    /// fix a second, in a file named by its local start time; returns its folder and local
    /// midnight (Unix seconds).
    static func walkAcrossMidnight(_ zone: Zone) throws -> (dir: String, midnight: Double) {
        let dir = Binary.temporaryDirectory()
        let midnight = Double(TimeText.daysFromCivil(2026, 11, 24) * 86400 - zone.offset)
        var text = "Source, Label, When, X, Y, Z, UA_X, UA_Y, UA_Z, Pitch, Roll, Yaw\n"
        for k in 0..<3600 {
            let lon = 13.4 + Double(k) * 1.4 / 67_700   // 1.4 m/s east at 52.5° N
            text += "L,W,\(midnight - 1800 + Double(k)),52.5,\(lon),34.0,1.4,90.0,0.0,3.0,4.0,3\n"
        }
        try text.write(toFile: dir + "/20261123233000.csv", atomically: true, encoding: .utf8)
        return (dir, midnight)
    }

    static func run(_ zone: Zone, _ arguments: [String]) throws -> Binary.Result {
        try Binary.run(via: "/usr/bin/env", ["TZ=\(zone.tz)", Binary.path] + arguments)
    }

    struct Span: Decodable { var start: Double; var end: Double }

    @Test(arguments: zones)
    func dayIsTheLocalDay(zone: Zone) throws {
        let (dir, midnight) = try Self.walkAcrossMidnight(zone)
        let first = try Self.run(zone, ["summary", dir, "--day", "2026-11-23", "--json"])
        #expect(first.status == 0, "\(first.stderr)")
        let a = try JSONDecoder().decode(Span.self, from: Data(first.stdout.utf8))
        #expect(a.start == midnight - 1800 && a.end == midnight - 1, "\(a) for midnight \(midnight)")
        let second = try Self.run(zone, ["summary", dir, "--day", "2026-11-24", "--json"])
        #expect(second.status == 0, "\(second.stderr)")
        let b = try JSONDecoder().decode(Span.self, from: Data(second.stdout.utf8))
        #expect(b.start == midnight && b.end == midnight + 1799, "\(b) for midnight \(midnight)")
    }

    /// `--day` reads the file before the day in case it runs into it; the report names only
    /// the files with rows on the day (it named an evening's walk that ended the day before).
    @Test func theReportNamesTheFilesWithRowsOnTheDay() throws {
        let zone = Self.zones[1]
        let (dir, midnight) = try Self.walkAcrossMidnight(zone)
        var morning = "Source, Label, When, X, Y, Z, UA_X, UA_Y, UA_Z, Pitch, Roll, Yaw\n"
        for k in 0..<600 { morning += "L,W,\(midnight + 8 * 3600 + Double(k)),52.5,13.4,34.0,0.0,0.0,0.0,3.0,4.0,3\n" }
        try morning.write(toFile: dir + "/20261124080000.csv", atomically: true, encoding: .utf8)
        // Before midnight only: the walk ends at 23:59:59 here.
        let cut = try String(contentsOfFile: dir + "/20261123233000.csv", encoding: .utf8).split(separator: "\n").prefix(1801)
        try (cut.joined(separator: "\n") + "\n").write(toFile: dir + "/20261123233000.csv", atomically: true, encoding: .utf8)
        let r = try Self.run(zone, ["summary", dir, "--day", "2026-11-24"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix(dir + "/20261124080000.csv\n"), "\(r.stdout.prefix(200))")
        let both = try Self.run(zone, ["summary", dir])
        #expect(both.stdout.hasPrefix(dir + "/20261123233000.csv … (2 files)"), "\(both.stdout.prefix(200))")
    }

    /// A recording named in the zone it was made in (UTC here) and summarised in another
    /// (New York): it is found on its New York day; its name's date, the 24th, is not that day.
    @Test func aRecordingNamedInAnotherZoneIsFoundOnItsDay() throws {
        let dir = Binary.temporaryDirectory()
        let first = Double(TimeText.daysFromCivil(2026, 11, 24) * 86400 + 2 * 3600)   // 02:00 UTC = 21:00 in New York
        var text = "Source, Label, When, X, Y, Z, UA_X, UA_Y, UA_Z, Pitch, Roll, Yaw\n"
        for k in 0..<600 { text += "L,W,\(first + Double(k)),52.5,\(13.4 + Double(k) * 1.4 / 67_700),34.0,1.4,90.0,0.0,3.0,4.0,3\n" }
        try text.write(toFile: dir + "/20261124020000.csv", atomically: true, encoding: .utf8)
        let r = try Self.run(Zone(tz: "XXX5", offset: -5 * 3600), ["summary", dir, "--day", "2026-11-23", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let span = try JSONDecoder().decode(Span.self, from: Data(r.stdout.utf8))
        #expect(span.start == first && span.end == first + 599)
    }

    struct Day: Decodable {
        struct Segment: Decodable { var type: String; var startTime: String; var endTime: String }
        var date: String
        var segments: [Segment]
    }

    @Test(arguments: zones)
    func timelineExportIsCutAtLocalMidnight(zone: Zone) throws {
        let (dir, _) = try Self.walkAcrossMidnight(zone)
        let r = try Self.run(zone, ["export", dir + "/20261123233000.csv", "--format", "timeline"])
        #expect(r.status == 0, "\(r.stderr)")
        let days = try JSONDecoder().decode([Day].self, from: Data(r.stdout.utf8))
        #expect(days.map(\.date) == ["20261123", "20261124"], "\(r.stdout)")
        guard days.count == 2, let last = days[0].segments.last, let next = days[1].segments.first else { return }
        #expect(days[0].segments.first?.startTime == "20261123T233000" + zone.suffix)
        #expect(last.endTime == "20261124T000000" + zone.suffix && next.startTime == last.endTime, "\(r.stdout)")
        #expect(days[1].segments.last?.endTime == "20261124T002959" + zone.suffix)
    }

    /// New York's rule (no tz database needed): clocks go back at 02:00 EDT on the first
    /// Sunday of November, 1 Nov 2026 06:00 UTC, so 01:00–01:59 is read twice.
    static let newYork = Zone(tz: "EST5EDT,M3.2.0,M11.1.0", offset: -5 * 3600)

    @Test("in the hour the clocks go back, times carry their offset; elsewhere they do not")
    func repeatedHourShowsTheOffset() throws {
        let dir = Binary.temporaryDirectory()
        let start = Double(TimeText.daysFromCivil(2026, 11, 1) * 86400 + 4 * 3600)   // 00:00 EDT
        var text = "Source, Label, When, X, Y, Z, UA_X, UA_Y, UA_Z, Pitch, Roll, Yaw\n"
        for k in 0..<(3 * 3600) {   // 00:00 EDT to 01:59:59 EST, walking
            let lon = 13.4 + Double(k) * 1.4 / 67_700
            text += "L,W,\(start + Double(k)),52.5,\(lon),34.0,1.4,90.0,0.0,3.0,4.0,3\n"
        }
        try text.write(toFile: dir + "/20261101000000.csv", atomically: true, encoding: .utf8)
        let r = try Self.run(Self.newYork, ["summary", dir])
        #expect(r.status == 0, "\(r.stderr)")
        // 00:00 is read once; 01:59:59 at the end is the second one (EST).
        #expect(r.stdout.contains("2026-11-01 00:00:00 – 01:59:59 -05:00"), "\(r.stdout)")
        // A zone without daylight saving: no offsets.
        let elsewhere = try Self.run(Self.zones[0], ["summary", dir])
        #expect(elsewhere.status == 0 && !elsewhere.stdout.contains(" -05:00"), "\(elsewhere.stdout)")
    }
}
