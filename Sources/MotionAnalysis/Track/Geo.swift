import Foundation

/// Distances on the WGS84 sphere approximation.
enum Geo {
    static let earthRadius = 6_371_008.8

    /// Great-circle distance in metres (haversine, as trackintel uses).
    @inline(__always)
    static func distance(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let r = Double.pi / 180
        let dLat = (lat2 - lat1) * r, dLon = (lon2 - lon1) * r
        let a = sin(dLat / 2) * sin(dLat / 2) + cos(lat1 * r) * cos(lat2 * r) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * earthRadius * asin(min(1, a.squareRoot()))
    }
}

/// One usable GPS fix (an `L` row that passed the position checks).
public struct Fix: Sendable, Equatable {
    public var time: Double
    public var lat: Double
    public var lon: Double
    public var alt: Double
    /// gpsd's speed (Doppler), m/s, nan when not reported.
    public var speed: Double
    public var eph: Double
    public var mode: Int
    /// True when this fix starts a new piece of track after an impossible jump.
    public var jumped = false

    func distance(to other: Fix) -> Double { Geo.distance(lat, lon, other.lat, other.lon) }
}
