import MotionMath
import Testing
@testable import MotionFusion

@Suite("Fusion: the remembered integral of the specific force")
struct InertialIntegralTests {
    /// A specific force that changes every sample, so any misplaced sample shows.
    static func force(_ k: Int) -> Vector3 { Vector3(Double(k % 7) - 3, Double(k % 5), 1 + Double(k % 3) * 0.1) }

    /// The exact integral at `t` of samples of `period` seconds (piecewise constant).
    static func exact(at t: Double, period: Double) -> Vector3 {
        var sum = Vector3.zero
        var k = 0
        while Double(k + 1) * period <= t { sum += force(k) * period; k += 1 }
        return sum + force(k) * (t - Double(k) * period)
    }

    @Test("the integral is exact at the grid, close between, and continuous in time", arguments: [0.001, 0.01, 0.0123])
    func continuous(period: Double) throws {
        var integral = InertialIntegral()
        let n = Int(3.5 / period)
        for k in 0..<n { integral.add(Self.force(k), dt: period) }
        var t = 0.2
        while t < 3.3 {
            let a = try #require(integral.value(at: t)), b = try #require(integral.value(at: t + 1e-9))
            #expect((a.integral - b.integral).norm < 1e-6, "a step at \(t)")
            // Exact at the grid's boundaries, whatever the sample rate.
            let boundary = (t / InertialIntegral.binWidth).rounded() * InertialIntegral.binWidth
            let s = try #require(integral.value(at: boundary))
            #expect((s.integral - Self.exact(at: boundary, period: period)).norm < 1e-9 * Double(n), "at \(boundary)")
            // Between them, off by at most what the bin's samples vary (here up to 6 g).
            #expect((a.integral - Self.exact(at: t, period: period)).norm < 6 * InertialIntegral.binWidth, "at \(t)")
            t += 0.0371
        }
    }

    @Test("the future, the forgotten past and non-finite times have no value")
    func outside() {
        var integral = InertialIntegral()
        #expect(integral.value(at: 0)?.integral == .zero)
        #expect(integral.value(at: 0.001) == nil, "no sample yet")
        for _ in 0..<600 { integral.add(Vector3(0, 0, 1), dt: 0.01) }
        #expect(integral.value(at: 6.5) == nil)
        #expect(integral.value(at: 1.0) == nil, "older than the 4 s remembered")
        #expect(integral.value(at: .nan) == nil)
        #expect(integral.value(at: 5.0) != nil)
    }

    @Test("a sample after a pause holds its value over its whole period (as the filter's dt says)")
    func longPeriod() throws {
        var integral = InertialIntegral()
        for _ in 0..<100 { integral.add(Vector3(0, 0, 1), dt: 0.01) }
        integral.add(Vector3(0, 0, 1), dt: 0.5)
        let before = try #require(integral.value(at: 1.0)), inside = try #require(integral.value(at: 1.2))
        #expect(abs(before.integral.z - 1) < 1e-9)
        #expect(abs(inside.integral.z - 1.2) < 1e-9)
    }
}
