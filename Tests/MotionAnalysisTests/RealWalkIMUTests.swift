import Foundation
@testable import MotionAnalysis
import MotionCore
import Testing

/// The step detector on real accelerometer data: three 31 s walks recorded at 26 Hz by
/// STMicroelectronics (Tests/Fixtures/st-har, BSD-3-Clause), with no GPS. Each must come out
/// as walking from the IMU alone; the thresholds were set on the simulator, so this is what
/// keeps them honest on a real sensor carried by a real person.
@Suite("Real data: ST HAR walks")
struct RealWalkIMUTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/st-har").path

    /// The fixture's readings (`x,y,z` in mg at 26 Hz) as a recording of `A` rows in g.
    static func recording(_ name: String) throws -> String {
        var text = CSVFormat.headerLine + "\n"
        var k = 0
        for line in try String(contentsOfFile: folder + "/" + name, encoding: .utf8).split(separator: "\n") {
            let mg = line.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard mg.count == 3 else { continue }
            let when = 1_767_225_600 + Double(k) / 26
            text += "A,W,\(when),\(mg[0] / 1000),\(mg[1] / 1000),\(mg[2] / 1000)\n"
            k += 1
        }
        #expect(k == 800)
        return text
    }

    @Test(arguments: ["walking_10_26Hz_4g_mg.csv", "walking_25_26Hz_4g_mg.csv", "walking_35_26Hz_4g_mg.csv"])
    func aRealWalkIsWalking(_ name: String) throws {
        let summary = try ScenarioRecording.summarize(try Self.recording(name), name: "walk.csv")
        let moves = summary.timeline.filter { $0.type == .move }
        let walked = moves.filter { $0.activity == .walking }.reduce(0.0) { $0 + $1.end - $1.start }
        let span = try #require(summary.timeline.last).end - (try #require(summary.timeline.first)).start
        #expect(span > 29)
        #expect(walked >= 0.9 * span, "\(summary.timeline.map { "\($0.type) \($0.activity.map { "\($0)" } ?? "") \($0.end - $0.start) s" })")
    }
}
