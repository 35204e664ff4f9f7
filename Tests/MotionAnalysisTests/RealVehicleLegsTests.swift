import Foundation
@testable import MotionAnalysis
import MotionCore
import Testing

/// The timeline on real phone GPS with hand-logged truth: four people's day on Helsinki's
/// buses, trams, metro, trains and in cars (Aalto TrafficSense, Tests/Fixtures/trafficsense).
/// Every second of a logged vehicle leg that the logger covered (fixes at most 120 s apart)
/// should lie in a `vehicle` move. The speed rule (2.2 / 7 m/s per fix step) gets 0.55 of
/// them; `bench/timeline/score.py` measures the same on the whole dataset and on GeoLife.
@Suite("Real data: TrafficSense vehicle legs")
struct RealVehicleLegsTests {
    struct Fix { var t: Double; var lat: Double; var lon: Double }
    struct Leg { var start: Double; var end: Double; var kind: String }

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/trafficsense").path

    /// Comma-separated fields, double quotes around fields that hold commas.
    static func fields(_ line: Substring) -> [String] {
        var out: [String] = [], field = "", quoted = false
        for c in line {
            if c == "\"" { quoted.toggle() } else if c == "," && !quoted { out.append(field); field = "" } else { field.append(c) }
        }
        out.append(field)
        return out.map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// "2016-08-26 09:00:00.206" as seconds on a continuous scale.
    static func seconds(_ text: String) -> Double? {
        let parts = text.split(whereSeparator: { " -:".contains($0) }).compactMap { Double($0) }
        guard parts.count == 6 else { return nil }
        let days = TimeText.daysFromCivil(Int(parts[0]), Int(parts[1]), Int(parts[2]))
        return Double(days) * 86_400 + parts[3] * 3600 + parts[4] * 60 + parts[5]
    }

    static func load() throws -> (fixes: [String: [Fix]], legs: [String: [Leg]]) {
        var fixes: [String: [Fix]] = [:], legs: [String: [Leg]] = [:]
        for line in try String(contentsOfFile: folder + "/devices-2-3-5-8.csv", encoding: .utf8).split(separator: "\n").dropFirst() {
            let f = fields(line)
            guard f.count == 5, let t = seconds(f[0]), let lat = Double(f[2]), let lon = Double(f[3]) else { continue }
            fixes[f[1], default: []].append(Fix(t: t, lat: lat, lon: lon))
        }
        for line in try String(contentsOfFile: folder + "/manual_log-2-3-5-8.csv", encoding: .utf8).split(separator: "\n").dropFirst() {
            let f = fields(line)
            guard f.count >= 8, let a = seconds(f[5]), let b = seconds(f[7]) else { continue }
            legs[f[0], default: []].append(Leg(start: a, end: b, kind: f[3]))
        }
        return (fixes, legs)
    }

    /// Each device's fixes (one in `step` kept) as a recording of L rows, and its timeline.
    func timelines(of allFixes: [String: [Fix]], every step: Int) throws -> [(device: String, fixes: [Fix], timeline: [TimelineEntry])] {
        let dir = try ScenarioRecording.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var out: [(device: String, fixes: [Fix], timeline: [TimelineEntry])] = []
        for (device, deviceFixes) in allFixes.sorted(by: { $0.key < $1.key }) {
            var fixes: [Fix] = []
            for (k, f) in deviceFixes.sorted(by: { $0.t < $1.t }).enumerated() where k % step == 0 {
                if let last = fixes.last, f.t <= last.t { continue }
                fixes.append(f)
            }
            var text = CSVFormat.headerLine + "\n"
            for f in fixes { text += "L,W,\(f.t),\(f.lat),\(f.lon),nan,nan,nan,nan,nan,nan,3\n" }
            let path = dir + "/device-\(device).csv"
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            out.append((device, fixes, try RecordingAnalyzer.summarize([path]).timeline))
        }
        return out
    }

    /// Seconds of the legs covered by fixes, and how many of them the timeline calls vehicle.
    func score(every step: Int) throws -> (covered: Int, vehicle: Int, byKind: [String: (Int, Int)]) {
        let (allFixes, allLegs) = try Self.load()
        #expect(allFixes.count == 4 && allLegs.values.map(\.count).reduce(0, +) == 54)
        var covered = 0, vehicle = 0
        var byKind: [String: (Int, Int)] = [:]
        for (device, fixes, timeline) in try timelines(of: allFixes, every: step) {
            for leg in allLegs[device] ?? [] {
                for (a, b) in zip(fixes, fixes.dropFirst()) where b.t - a.t <= 120 && b.t > leg.start && a.t < leg.end {
                    var t = max(a.t, leg.start).rounded(.up)
                    while t < min(b.t, leg.end) {
                        let isVehicle = timeline.contains { $0.type == .move && $0.activity == .vehicle && $0.start <= t && t <= $0.end }
                        covered += 1; vehicle += isVehicle ? 1 : 0
                        byKind[leg.kind, default: (0, 0)].0 += 1
                        byKind[leg.kind, default: (0, 0)].1 += isVehicle ? 1 : 0
                        t += 1
                    }
                }
            }
        }
        return (covered, vehicle, byKind)
    }

    @Test("logged vehicle legs are vehicle moves (measured 0.88)")
    func vehicleLegs() throws {
        let s = try score(every: 1)
        #expect(s.covered > 20_000)
        let share = Double(s.vehicle) / Double(s.covered)
        #expect(share >= 0.82, "vehicle \(share) of \(s.covered) s; by kind \(s.byKind)")
        // Buses and the metro, the bulk of the day, each on their own.
        for kind in ["BUS", "SUBWAY"] {
            let (n, v) = s.byKind[kind] ?? (0, 0)
            #expect(n > 3000 && Double(v) >= 0.8 * Double(n), "\(kind): \(v) of \(n) s")
        }
    }

    @Test("with one fix in five (about a minute apart) most of it still is (measured 0.72)")
    func sparseVehicleLegs() throws {
        let s = try score(every: 5)
        let share = Double(s.vehicle) / Double(s.covered)
        #expect(share >= 0.65, "vehicle \(share) of \(s.covered) s; by kind \(s.byKind)")
    }

    /// Standing on a metro platform, a phone's fixes wander by tens of metres: two of them
    /// 20 s apart can look like 3.7 m/s. That is not a bicycle (device 2 had 4.5 min of
    /// "cycling" at 0.17 m/s, device 3 8.5 min at 0.14 m/s before runs needed three moving fixes).
    @Test("no cycling or vehicle move at a standing pace")
    func noRideWhileStanding() throws {
        for (device, _, timeline) in try timelines(of: try Self.load().fixes, every: 1) {
            for e in timeline where e.type == .move && (e.activity == .cycling || e.activity == .vehicle) {
                #expect((e.meanSpeedMps ?? 0) >= 0.5, "device \(device): \(e)")
            }
        }
    }
}
