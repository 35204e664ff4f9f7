import Foundation
import MotionCore
import MotionMath

/// The simulator board's GPS: a 1 Hz fix on every whole second of the ride, along the
/// same route the IMU feels, delivered `latency` seconds after its fix time (as a real
/// receiver's report arrives late). Fix time = the whole second; never the arrival time.
public final class SimulatedGPS: LocationSource {
    public let ride: BikeRide
    /// Where the ride starts (WGS84 degrees, metres above mean sea level).
    public let origin: (latitude: Double, longitude: Double, altitude: Double)
    public let latency: Double
    /// Position noise, metres (1 σ per axis, correlated over 4 s as a receiver's error is);
    /// 0 for an exact route.
    public let noiseMetres: Double
    /// Read once per tick by the sampling loop: kept in raw memory, so reading it needs no
    /// exclusivity check (like the sensor, used by one thread at a time).
    public var health: LocationHealth { healthStorage.pointee }
    private let healthStorage: UnsafeMutablePointer<LocationHealth>
    private var nextFixSecond: Double?
    private var startEpoch: Double?

    public init(ride: BikeRide = .standard, origin: (Double, Double, Double) = (52.520008, 13.404954, 34.0),
                latency: Double = 0.15, noiseMetres: Double = 0) {
        self.ride = ride; self.origin = origin; self.latency = latency; self.noiseMetres = noiseMetres
        healthStorage = .allocate(capacity: 1)
        healthStorage.initialize(to: LocationHealth())
    }

    deinit {
        healthStorage.deinitialize(count: 1)
        healthStorage.deallocate()
    }

    public func start() {}

    public func poll(at tick: Tick, _ emit: (LocationFix) -> Void) {
        if startEpoch == nil {
            startEpoch = tick.epoch - tick.elapsed
            nextFixSecond = (tick.epoch).rounded(.up)
            healthStorage.pointee.lastMode = 3
        }
        guard let start = startEpoch, var next = nextFixSecond else { return }
        while next + latency <= tick.epoch {
            emit(fix(at: next, elapsed: next - start))
            next += 1
        }
        nextFixSecond = next
    }

    public func finish(_ emit: (LocationFix) -> Void) {
        // Fixes whose report would only arrive after the stop were never received.
    }

    /// The fix for epoch second `when`, `elapsed` seconds into the ride.
    public func fix(at when: Double, elapsed: Double) -> LocationFix {
        var s = ride.state(at: max(0, elapsed))
        var speedError = 0.0
        if noiseMetres > 0 {
            s.position = s.position + Vector3(correlated(elapsed, channel: 40), correlated(elapsed, channel: 41), 0) * noiseMetres
            speedError = 0.12 * DeterministicNoise.gaussian(time: elapsed, channel: 42)
        }
        let earthRadius = 6_378_137.0
        let lat = origin.latitude + s.position.y / earthRadius * 180 / Double.pi
        let lon = origin.longitude + s.position.x / (earthRadius * cos(origin.latitude * Double.pi / 180)) * 180 / Double.pi
        let horizontal = (s.velocity.x * s.velocity.x + s.velocity.y * s.velocity.y).squareRoot()
        return LocationFix(when: when, latitude: lat, longitude: lon, altitudeMSL: origin.altitude + s.position.z,
                           speed: abs(horizontal + speedError), course: s.courseDegrees, climb: s.velocity.z,
                           eph: noiseMetres > 0 ? noiseMetres * 1.5 : 3.1, epv: 4.6, mode: 3)
    }

    /// A smooth deterministic error: Gaussian knots every 4 s, linearly interpolated.
    private func correlated(_ t: Double, channel: UInt64) -> Double {
        let k = (t / 4).rounded(.down), f = t / 4 - k
        let a = DeterministicNoise.gaussian(time: k * 4, channel: channel)
        let b = DeterministicNoise.gaussian(time: (k + 1) * 4, channel: channel)
        return a + (b - a) * f
    }
}
