import Foundation
import MotionCore
import MotionFusion
import MotionMath
import MotionSimulator
import Testing

/// D rows on the simulator's scripted bike ride, against the ride's true attitude: the
/// standard loop (start, climb, turns with lean, descent, braking to a stop, a red light,
/// cobbles) with the rider's pedal strokes added (the bike rocking once per crank
/// revolution, which swings the handlebar sideways, and surging twice), road vibration,
/// noise, gyroscope bias and the magnetometer's hard iron, as the simulator board's IMU
/// produces them.
@Suite("Fusion on the simulated ride")
struct RideAttitudeTests {
    static let rate = 100.0

    struct Errors { var worst = 0.0; var worstTime = 0.0; var sumSquares = 0.0; var count = 0 }

    /// Runs the D-row filter over `seconds` of `ride` from ride time `start` and returns the
    /// largest attitude error (degrees) after the first `settle` seconds, and where it
    /// happened. `gps`: the fixes the filter is given (nil: none, the IMU alone).
    static func run(_ ride: BikeRide, from start: Double = 0, seconds: Double, settle: Double, gps: SimulatedGPS? = nil,
                    calibratedGyro: Bool = false) throws -> Errors {
        let field = EarthField()
        let imu = SimulatedIMU(ride: ride, field: field)
        // What `motionlog calibrate` on the simulator finds: the magnetometer's hard iron and
        // (with `calibratedGyro`) the gyroscope bias, else left to the filter. The truth is
        // referenced to true north.
        var parameters = FusionParameters()
        parameters.declination = field.declinationDegrees * Double.pi / 180
        let calibration = FusionCalibration(gyroBias: calibratedGyro ? imu.imperfections.gyroBias : .zero,
                                            magHardIron: imu.imperfections.magHardIron)
        let filter = try DeviceMotionFilter(calibration: calibration, parameters: parameters)
        var errors = Errors()
        let n = Int(seconds * rate)
        for i in 0..<n {
            let t = start + Double(i) / rate
            let tick = Tick(index: Int64(i), monotonicNanos: Int64(t * 1e9), when: t, elapsed: t)
            let reading = imu.read(at: tick)
            guard let accel = reading.accel, let gyro = reading.gyro else { continue }
            let d = filter.update(accel: accel, gyro: gyro, mag: reading.mag, dt: i == 0 ? 0 : 1 / rate)
            // Fixes reach the filter as the recorder gives them: after the tick's D row.
            gps?.poll(at: tick) { (fix: LocationFix) in
                var f = fix
                // The receiver's velocity noise across the track too (the simulator adds it along).
                f.course += 0.12 / max(f.speed, 0.5) * DeterministicNoise.gaussian(time: f.when, channel: 43) * 180 / Double.pi
                filter.observe(f, age: t - fix.when)
            }
            guard t >= start + settle else { continue }
            // The row's angles back to a quaternion, as a reader of the file would.
            let estimate = AttitudeAngles(pitch: d.pitch, roll: d.roll, yaw: d.yaw).quaternion
            let error = (estimate * ride.truth(at: t, field: field).attitude.conjugate).angle * 180 / Double.pi
            errors.sumSquares += error * error
            errors.count += 1
            if error > errors.worst { errors.worst = error; errors.worstTime = t }
        }
        return errors
    }

    static func rms(_ e: Errors) -> Double { (e.sumSquares / Double(max(1, e.count))).squareRoot() }

    /// The simulator board's GPS with the receiver noise of the other scenarios (2.5 m,
    /// 0.12 m/s along and, in `run`, across the track).
    static func gps(_ ride: BikeRide) -> SimulatedGPS { SimulatedGPS(ride: ride, noiseMetres: 2.5) }

    /// Issue 15's goal: within 2° everywhere, on a recording as a rider makes one — started
    /// while standing (the 10 s rest that ends each loop, before "start from rest"), then a
    /// whole loop, with GPS fixes (the recorder gives them to the filter) and the gyroscope
    /// bias left to the filter. The GPS takes the bike's own acceleration (pulling away,
    /// braking, the centripetal acceleration of leaning turns) out of the inclination.
    @Test("with GPS, a ride started standing stays within 2° of the true attitude all the way")
    func rideWithGPS() throws {
        let ride = BikeRide.standard.withPedalling()
        let e = try Self.run(ride, from: ride.loopDuration - 10, seconds: ride.loopDuration + 10, settle: 1,
                             gps: Self.gps(ride))
        #expect(e.count > 20_000)
        #expect(e.worst < 2, "largest error \(e.worst)° at \(e.worstTime) s (RMS \(Self.rms(e))°)")
        #expect(Self.rms(e) < 1, "RMS \(Self.rms(e))°")
    }

    /// Started while riding: with the gyroscope bias calibrated (`motionlog calibrate`) the
    /// goal holds too. Without it the vertical bias (0.11 °/s here) is not observable until
    /// the first stop (the red light at 65 s): the accelerometer cannot see it and the
    /// magnetometer, before its field is proven undisturbed, corrects the heading at half
    /// speed, so the heading lags by bias × time constant (about 2–3°) until then.
    @Test("with GPS, a ride started while moving: within 2° with a calibrated gyroscope, within 4° without")
    func rideStartedMoving() throws {
        let ride = BikeRide.standard.withPedalling()
        let calibrated = try Self.run(ride, seconds: ride.loopDuration, settle: 1, gps: Self.gps(ride), calibratedGyro: true)
        #expect(calibrated.worst < 2, "largest error \(calibrated.worst)° at \(calibrated.worstTime) s")
        let uncalibrated = try Self.run(ride, seconds: ride.loopDuration, settle: 1, gps: Self.gps(ride))
        #expect(uncalibrated.worst < 4, "largest error \(uncalibrated.worst)° at \(uncalibrated.worstTime) s")
        #expect(uncalibrated.worst > calibrated.worst)
    }

    /// Without GPS no IMU-only filter can tell the bike's sustained accelerations (8 s
    /// pulling away at up to 0.12 g, braking at up to 0.2 g, 6 s turns with 0.27 g
    /// centripetal acceleration and 15° of lean) from a tilt: the accelerometer low-pass
    /// that BROAD's real data wants (3 s) tilts by up to 10–11°. The bounds keep what the
    /// IMU alone reaches, and show what the GPS is for.
    @Test("the IMU alone (no GPS) on the same ride: the bike's accelerations tilt it, within bounds")
    func rideWithoutGPS() throws {
        let ride = BikeRide.standard.withPedalling()
        let e = try Self.run(ride, seconds: ride.loopDuration, settle: 1)
        #expect(e.worst < 12, "largest error \(e.worst)° at \(e.worstTime) s")
        #expect(e.worst > 5, "the IMU alone cannot see the turns' lean; a small error here means the test lost its GPS-free case")
        #expect(Self.rms(e) < 5, "RMS \(Self.rms(e))°")
    }

    @Test("the pedal strokes are in the simulated IMU: the bike rocks about 1.5° and the handlebar swings sideways")
    func pedallingIsThere() {
        let ride = BikeRide.standard.withPedalling()
        // Cruising: the rock shows as a roll rate and the swing as lateral specific force.
        var maxRollRate = 0.0, maxLateral = 0.0
        let start = 100.0
        for k in 0..<200 {
            let t = start + Double(k) * 0.005
            let truth = ride.truth(at: t)
            maxRollRate = max(maxRollRate, abs(truth.gyro.y))
            maxLateral = max(maxLateral, abs(truth.accel.x))
        }
        // 1.5° at 1.4 Hz: rate 2π·1.4·1.5° ≈ 13 °/s; swing 1 m · (2π·1.4)² · 1.5° ≈ 0.2 g.
        #expect(maxRollRate * 180 / Double.pi > 10)
        #expect(maxLateral > 0.1)
        #expect(BikeRide.standard.truth(at: start).gyro.y.magnitude < 0.01)
    }
}
