import Foundation
@testable import MotionFusion
import Testing

@Suite("Second-order Butterworth low-pass")
struct LowPassTests {
    @Test("starts at the first sample, averages while warming up, then keeps a constant input exactly")
    func startUp() {
        var f = ButterworthLowPass<Double>(tau: 1)
        #expect(f.filter(4, dt: 0.01) == 4)
        #expect(f.filter(2, dt: 0.01) == 3)
        var g = ButterworthLowPass<Double>(tau: 0.5)
        for _ in 0..<500 { g.filter(7, dt: 0.01) }
        #expect(abs(g.output - 7) < 1e-10)
    }

    @Test("passes slow signals, attenuates fast ones as a second-order filter does (−40 dB/decade)")
    func response() {
        func amplitude(_ hz: Double) -> Double {
            var f = ButterworthLowPass<Double>(tau: 3)  // cut-off ≈ 0.075 Hz
            var peak = 0.0
            for k in 0..<40_000 {
                let t = Double(k) / 200
                let y = f.filter(sin(2 * Double.pi * hz * t), dt: 1.0 / 200)
                if t > 150 { peak = max(peak, abs(y)) }
            }
            return peak
        }
        let cutoff = 2.0.squareRoot() / (2 * Double.pi * 3)
        #expect(amplitude(0.005) > 0.99)
        #expect(abs(amplitude(cutoff) - 0.5.squareRoot()) < 0.02, "−3 dB at the cut-off")
        let a1 = amplitude(0.75), a2 = amplitude(7.5)
        #expect(abs(a1 - pow(cutoff / 0.75, 2)) < 0.002)
        #expect(a2 < a1 / 80)
    }

    @Test("a cut-off beyond the Nyquist frequency passes samples through instead of going unstable")
    func nyquist() {
        var f = ButterworthLowPass<Double>(tau: 0.05)  // cut-off 4.5 Hz, sampled at 5 Hz
        for k in 0..<100 {
            let x = Double(k % 3)
            let y = f.filter(x, dt: 0.2)
            #expect(y.isFinite && abs(y) <= 2)
        }
    }
}
