import Foundation
import MotionAnalysis
import MotionCore
import Testing

/// A move of too few fixes to judge by its speeds (fewer than three moving, and too close
/// together for a bridged loss): walking where its speed is a walk's, `unknown` where it is
/// faster than anyone walks. It was walking whatever its speed.
@Suite struct ShortMoveTests {
    let t0 = 1_763_700_000.0

    /// A ride's four fixes, an hour without any, then `last` fixes `step` seconds and
    /// `metres` apart going north.
    func timeline(last: Int, step: Double, metres: Double) throws -> [TimelineEntry] {
        var text = CSVFormat.headerLine + "\n"
        for (k, t) in [0.0, 2, 4, 6.5].enumerated() {
            text += "L,W,\(t0 + t),\(48.1 + Double(k) * 0.00015),11.5,500.0,nan,nan,nan,nan,nan,3\n"
        }
        for k in 0..<last {
            let t = t0 + 3600 + Double(k) * step
            text += "L,W,\(t),\(48.101 + Double(k) * metres / 111_200),11.5,500.0,nan,nan,nan,nan,nan,3\n"
        }
        return try ScenarioRecording.summarize(text).timeline
    }

    @Test func twoFixesFasterThanAWalkAreUnknown() throws {
        // Two fixes 2 s and 13 m apart after an hour without: "walking, 23.4 km/h" before.
        let fast = try timeline(last: 2, step: 2, metres: 13)
        let move = try #require(fast.last)
        #expect(move.type == .move && move.activity == .unknown, "\(fast)")
        #expect(fast.dropLast().contains { $0.type == .gap })
    }

    @Test func twoFixesAtAWalksSpeedAreWalking() throws {
        // A sparse logger's walk: two fixes a minute and 80 m apart.
        let slow = try timeline(last: 2, step: 60, metres: 80)
        let move = try #require(slow.last)
        #expect(move.type == .move && move.activity == .walking, "\(slow)")
    }
}
