import Foundation
import MotionMath
import Testing
@testable import MotionFusion

@Suite("Fusion: rotations computed by series where angles are small")
struct HeadingRotationTests {
    /// The reference: axis and angle through the C library's sine and cosine.
    static func reference(_ v: Vector3) -> Quaternion {
        let angle = v.norm
        guard angle > 0 else { return .identity }
        let s = sin(angle / 2) / angle
        return Quaternion(w: cos(angle / 2), x: v.x * s, y: v.y * s, z: v.z * s)
    }

    @Test("a rotation vector's quaternion by series equals sine and cosine to rounding, on both sides of the switch")
    func rotationVectorSeries() {
        var rng = SystemRandomNumberGenerator()
        for scale in [1e-9, 1e-4, 1e-3, 0.01, 0.02, 0.031, 0.032, 0.05, 1.0] {
            for _ in 0..<2_000 {
                let v = Vector3(Double.random(in: -1...1, using: &rng), Double.random(in: -1...1, using: &rng),
                                Double.random(in: -1...1, using: &rng)) * scale
                let q = Quaternion(rotationVector: v), r = Self.reference(v)
                // A few units in the last place of each part (w ≈ 1, the vector ≈ v/2).
                #expect(abs(q.w - r.w) <= 4e-16, "\(v)")
                #expect((q.vector - r.vector).norm <= 1e-15 * v.norm, "\(v)")
                #expect(abs(q.norm - 1) < 4e-16)
            }
        }
        #expect(Quaternion(rotationVector: .zero) == .identity)
    }

    @Test("wrapping into (−π, π] gives the remainder's value, edges included")
    func wrap() {
        func remainder(_ a: Double) -> Double {
            var x = a.truncatingRemainder(dividingBy: 2 * Double.pi)
            if x > Double.pi { x -= 2 * Double.pi } else if x <= -Double.pi { x += 2 * Double.pi }
            return x
        }
        let pi = Double.pi
        var values = [0, pi, -pi, 2 * pi, -2 * pi, 3 * pi, -3 * pi, pi.nextUp, (-pi).nextDown, (3 * pi).nextUp, 1e6, -1e6]
        for k in 0..<20_000 { values.append(Double(k - 10_000) * 0.0011 * pi) }
        for a in values { #expect(HeadingRotation.wrap(a) == remainder(a), "\(a)") }
    }

    @Test("the heading's rotation follows its angle through many small steps and a wrap")
    func headingFollows() {
        var h = HeadingRotation()
        var rng = SystemRandomNumberGenerator()
        var angle = 0.0
        for k in 0..<50_000 {
            // Mostly small corrections, now and then a large one, drifting through ±π.
            angle += k % 5_000 == 0 ? Double.random(in: -2...2, using: &rng) : 0.004 + Double.random(in: -0.01...0.01, using: &rng)
            h.set(angle)
            let exact = Quaternion(w: cos(h.angle / 2), x: 0, y: 0, z: sin(h.angle / 2))
            #expect(abs(h.rotation.w - exact.w) < 1e-13 && abs(h.rotation.z - exact.z) < 1e-13, "step \(k)")
            #expect(h.angle > -Double.pi && h.angle <= Double.pi)
        }
    }
}
