import Foundation
import MotionAnalysis
import MotionCore
import MotionTestSupport
import Testing

/// A real recording damaged at random, the way the world damages files (lines cut, bytes
/// changed, lines repeated or reordered, values replaced by ones the format allows but no
/// sensor gives): the analysis, its reports and its exports never trap and never print a
/// number that is not one. Seeded, so a failure repeats from its seed.
@Suite struct MutatedRecordingTests {
    /// Values the format reads as numbers (or not), at the edges of what Double holds.
    static let hostileValues = ["nan", "inf", "-inf", "1e308", "-1e308", "1e200", "-3e180", "1e-320", "",
                                "99999999999999999999999", "0x10", "1e999999", "-0", "253402300800", "1795671440"]

    static func mutate(_ lines: [Substring], rng: inout SplitMix) -> [String] {
        var out = lines.map(String.init)
        for _ in 0..<Int.random(in: 1...30, using: &rng) {
            let k = Int.random(in: 0..<out.count, using: &rng)
            switch Int.random(in: 0..<7, using: &rng) {
            case 0: out.remove(at: k)
            case 1: out.insert(out[Int.random(in: 0..<out.count, using: &rng)], at: k)
            case 2:   // one byte changed
                var bytes = Array(out[k].utf8)
                if !bytes.isEmpty { bytes[Int.random(in: 0..<bytes.count, using: &rng)] = UInt8.random(in: 0x20...0x7E, using: &rng) }
                out[k] = String(decoding: bytes, as: UTF8.self)
            case 3: out[k] = String(out[k].prefix(Int.random(in: 0...out[k].count, using: &rng)))
            case 4:   // one field replaced
                var fields = out[k].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                if fields.count > 3 {
                    fields[Int.random(in: 2..<fields.count, using: &rng)] = hostileValues.randomElement(using: &rng) ?? ""
                }
                out[k] = fields.joined(separator: ",")
            case 5:   // a stretch reversed (time going backwards)
                let end = min(out.count, k + Int.random(in: 1...400, using: &rng))
                out[k..<end].reverse()
            default: out[k] += "\r"
            }
            if out.isEmpty { out = [""] }
        }
        return out
    }

    @Test func randomDamageNeverTrapsOrPrintsANonNumber() throws {
        let dir = ScratchFolder.make("mutated")
        let original = dir + "/original.csv"
        try ScenarioRecording.write(.commute, seconds: 120, rate: 20, to: original)
        let text = try String(contentsOfFile: original, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for seed in UInt64(1)...60 {
            var rng = SplitMix(state: seed)
            let path = dir + "/mutated-\(seed).csv"
            try Self.mutate(lines, rng: &rng).joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
            let result = try RecordingAnalyzer.analyze([path])
            let s = result.summary
            let numbers = s.movement.sums + s.movement.counts + [s.distanceM, s.durationS, s.movingS]
                + [s.health.magnetometer?.meanUT ?? 0, s.health.magnetometer?.stdUT ?? 0]
            let notNumbers = numbers.filter { !$0.isFinite }
            #expect(notNumbers.isEmpty, "seed \(seed): \(notNumbers)")
            let report = SummaryReport.text(s, title: path)
            let words = report.split(whereSeparator: { $0.isWhitespace || $0 == "," })
            #expect(!words.contains { ["nan", "-nan", "inf", "-inf"].contains($0.lowercased()) }, "seed \(seed)")
            let json = String(decoding: SummaryJSON.encode(s, pretty: false), as: UTF8.self)
            let parsed = try JSONSerialization.jsonObject(with: Data(json.utf8))
            #expect(parsed is [String: Any], "seed \(seed)")
            _ = try TimelineExport.storyline(result)
            _ = try TimelineExport.geoJSON(result)
        }
    }
}
