import Foundation
import MotionFusion
import MotionMath
import Testing

/// CoreMotion's Euler conventions on poses whose angles are known by construction.
@Suite("Euler angles (CoreMotion conventions)")
struct AttitudeAnglesTests {
    let deg = Synthetic.degree
    let north = Vector3(0, 1, 0), east = Vector3(1, 0, 0), up = Vector3(0, 0, 1)

    /// The attitude whose device X and Y axes point along `x` and `y` (ENU).
    func attitude(x: Vector3, y: Vector3) -> Quaternion {
        let z = x.cross(y)
        // Columns of R are the device axes in ENU; convert R to a quaternion via angles.
        let r = Matrix3(rows: Vector3(x.x, y.x, z.x), Vector3(x.y, y.y, z.y), Vector3(x.z, y.z, z.z))
        let w = (1 + r[0, 0] + r[1, 1] + r[2, 2]).squareRoot() / 2
        if w > 1e-6 {
            return Quaternion(w: w, x: (r[2, 1] - r[1, 2]) / (4 * w), y: (r[0, 2] - r[2, 0]) / (4 * w),
                              z: (r[1, 0] - r[0, 1]) / (4 * w))
        }
        // 180° turns used below: about X, Y or Z.
        if r[0, 0] > 0.5 { return Quaternion(w: 0, x: 1, y: 0, z: 0) }
        if r[1, 1] > 0.5 { return Quaternion(w: 0, x: 0, y: 1, z: 0) }
        return Quaternion(w: 0, x: 0, y: 0, z: 1)
    }

    func expectAngles(_ q: Quaternion, pitch: Double, roll: Double, yaw: Double,
                      sourceLocation: SourceLocation = #_sourceLocation) {
        let a = AttitudeAngles(q)
        #expect(abs(a.pitch - pitch * deg) < 1e-9, "pitch \(a)", sourceLocation: sourceLocation)
        #expect(abs(remainder(a.roll - roll * deg, 2 * Double.pi)) < 1e-9, "roll \(a)", sourceLocation: sourceLocation)
        #expect(abs(remainder(a.yaw - yaw * deg, 2 * Double.pi)) < 1e-9, "yaw \(a)", sourceLocation: sourceLocation)
    }

    @Test("flat, face up, top edge north: all zero")
    func flatNorth() {
        expectAngles(attitude(x: east, y: north), pitch: 0, roll: 0, yaw: 0)
    }

    @Test("flat, face up: yaw is counter-clockwise from north (right edge north = +90°, top east = −90°)")
    func yawDirection() {
        // Right edge (X) north, so the top points west: CoreMotion reports 90°.
        expectAngles(attitude(x: north, y: -east), pitch: 0, roll: 0, yaw: 90)
        expectAngles(attitude(x: -north, y: east), pitch: 0, roll: 0, yaw: -90)
        expectAngles(attitude(x: -east, y: -north), pitch: 0, roll: 0, yaw: 180)
    }

    @Test("upright in portrait (top edge up, screen facing south): pitch +90°")
    func upright() {
        let q = attitude(x: east, y: up)
        let a = AttitudeAngles(q)
        #expect(abs(a.pitch - 90 * deg) < 1e-6)
        // The A row of this pose is (0, −1, 0): gravity towards the bottom edge.
        let gravity = q.inverseRotate(Vector3(0, 0, -1))
        #expect((gravity - Vector3(0, -1, 0)).norm < 1e-12)
        // Gimbal lock: roll reported as 0, and the angles still give the attitude back.
        #expect(a.roll == 0)
        #expect(Synthetic.angle(a.quaternion, q) < 1e-6)
    }

    @Test("top edge raised by 30°: pitch +30°, A = (0, −sin 30°, −cos 30°)")
    func pitchUp() {
        let q = Quaternion(axis: east, angle: 30 * deg)
        expectAngles(q, pitch: 30, roll: 0, yaw: 0)
        let a = q.inverseRotate(Vector3(0, 0, -1))
        #expect((a - Vector3(0, -0.5, -(3.0).squareRoot() / 2)).norm < 1e-12)
    }

    @Test("right edge lowered by 30°: roll +30°, gravity towards +X")
    func rollRight() {
        let q = Quaternion(axis: north, angle: 30 * deg)
        expectAngles(q, pitch: 0, roll: 30, yaw: 0)
        #expect(q.inverseRotate(Vector3(0, 0, -1)).x > 0.49)
    }

    @Test("face down: roll ±180°")
    func faceDown() {
        let q = attitude(x: -east, y: north)
        expectAngles(q, pitch: 0, roll: 180, yaw: 0)
    }

    @Test("rotation order Z, then X, then Y (R = Rz(yaw)·Rx(pitch)·Ry(roll))")
    func order() {
        let q = Quaternion(axis: up, angle: 40 * deg) * Quaternion(axis: east, angle: -25 * deg)
            * Quaternion(axis: north, angle: 120 * deg)
        expectAngles(q, pitch: -25, roll: 120, yaw: 40)
    }

    @Test("random attitudes: angles within their ranges and back to the same attitude")
    func roundTrip() {
        var noise = NoiseSource(seed: 7)
        for _ in 0..<2000 {
            let axis = noise.direction()
            let q = Quaternion(axis: axis, angle: noise.uniform() * 2 * Double.pi)
            let a = AttitudeAngles(q)
            #expect(abs(a.pitch) <= Double.pi / 2)
            #expect(abs(a.roll) <= Double.pi && abs(a.yaw) <= Double.pi)
            #expect(Synthetic.angle(a.quaternion, q) < 1e-9)
        }
    }
}
