@testable import MotionAnalysis
import MotionTestSupport
import Testing

/// The IMU windows no piece of the track can still need whole are kept as runs of their
/// kind (they grew by 1.7 MB a day of recording, held to its end). The accelerometer-only
/// timeline must read the same from the runs as from the windows.
@Suite struct IMUKindRunTests {
    static func window(_ k: Int64, _ kind: IMUWindowKind) -> IMUWindow {
        let start = Double(k) * IMUWindowBuilder.windowSeconds
        switch kind {
        case .still: return IMUWindow(start: start, motionRMS: 0.005, cadenceRMS: 0, cadenceShare: 0, vibrationRMS: 0.001, peakHz: 1, rateHz: 50)
        case .walking: return IMUWindow(start: start, motionRMS: 0.2, cadenceRMS: 0.1, cadenceShare: 0.6, vibrationRMS: 0.02, peakHz: 1.8, rateHz: 50)
        case .cycling: return IMUWindow(start: start, motionRMS: 0.1, cadenceRMS: 0, cadenceShare: 0, vibrationRMS: 0.03, peakHz: 1, rateHz: 50)
        case .vehicle: return IMUWindow(start: start, motionRMS: 0.03, cadenceRMS: 0, cadenceShare: 0, vibrationRMS: 0.005, peakHz: 1, rateHz: 50)
        case .active: return IMUWindow(start: start, motionRMS: 0.1, cadenceRMS: 0, cadenceShare: 0, vibrationRMS: 0.03, peakHz: 1, rateHz: 10)
        }
    }

    /// Stretches of one kind, short flickers, and missing windows (short and long gaps).
    static func windows(seed: UInt64) -> [IMUWindow] {
        var rng = SplitMix(state: seed)
        let kinds: [IMUWindowKind] = [.still, .walking, .cycling, .vehicle, .active]
        var out: [IMUWindow] = []
        var k: Int64 = 352_740_000   // 2025-11-21, on the 5 s grid
        for _ in 0..<300 {
            let kind = kinds[Int.random(in: 0..<kinds.count, using: &rng)]
            for _ in 0..<Int.random(in: 1...40, using: &rng) { out.append(window(k, kind)); k += 1 }
            if Int.random(in: 0..<6, using: &rng) == 0 { k += Int64.random(in: 1...200, using: &rng) }   // up to 1000 s missing
        }
        return out
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func runsReadAsTheWindowsDid(seed: UInt64) throws {
        let all = Self.windows(seed: seed)
        let whole = IMUIndex(windows: all)
        let first = try #require(all.first).start, last = try #require(all.last).start + IMUWindowBuilder.windowSeconds
        var rng = SplitMix(state: seed + 100)
        for cut in [first, first + 0.3 * (last - first), first + 0.7 * (last - first), last] {
            var compacted = whole
            compacted.compact(before: cut)
            #expect(compacted.runs.reduce(0) { $0 + Int($1.count) } + compacted.windows.count == all.count)
            #expect(compacted.span?.start == whole.span?.start && compacted.span?.end == whole.span?.end)
            for _ in 0..<20 {
                let a = Double.random(in: first - 100...last, using: &rng), b = a + Double.random(in: 1...(last - first), using: &rng)
                var seen: [(Double, IMUWindowKind)] = [], expected: [(Double, IMUWindowKind)] = []
                compacted.forEachKind(from: a, to: b) { seen.append(($0, $1)) }
                whole.forEachKind(from: a, to: b) { expected.append(($0, $1)) }
                #expect(seen.map(\.0) == expected.map(\.0) && seen.map(\.1) == expected.map(\.1), "\(a)–\(b), cut at \(cut)")
                let options = AnalysisOptions()
                let rows = (first - 1000)...(last + 1000)
                #expect(IMUTimeline(imu: compacted, options: options, rows: rows).entries(from: a, to: b)
                        == IMUTimeline(imu: whole, options: options, rows: rows).entries(from: a, to: b), "\(a)–\(b), cut at \(cut)")
            }
        }
    }

    /// Eight hours still hold a few runs, not 5760 windows of seven numbers.
    @Test func aNightIsAFewRuns() {
        var builder = IMUWindowBuilder()
        let t0 = 1_763_700_000.0
        for k in 0..<(8 * 3600 * 10) {   // 8 h at 10 Hz, lying still
            let t = t0 + Double(k) / 10
            _ = builder.add(when: t, x: k % 2 == 0 ? 0.001 : -0.001, y: 0.002, z: -1)
        }
        _ = builder.finish()
        #expect(builder.index.windows.count < IMUWindowBuilder.compactAt, "\(builder.index.windows.count) whole windows")
        #expect(builder.index.runs.count <= 2, "\(builder.index.runs.count) runs")
        #expect(builder.index.runs.reduce(0) { $0 + Int($1.count) } + builder.index.windows.count >= 5750)
    }
}
