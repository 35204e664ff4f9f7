import Foundation
import MotionMath

/// An Earth-like magnetic field (defaults: central Europe, about 49 µT, dipping 67°,
/// declination 4° east) in the East-North-Up frame.
public struct EarthField: Sendable {
    public var totalMicroTesla: Double
    public var inclinationDegrees: Double
    public var declinationDegrees: Double

    public init(totalMicroTesla: Double = 49, inclinationDegrees: Double = 67, declinationDegrees: Double = 4) {
        self.totalMicroTesla = totalMicroTesla; self.inclinationDegrees = inclinationDegrees
        self.declinationDegrees = declinationDegrees
    }

    /// The field vector in ENU, µT (the vertical part points down in the north).
    public var enu: Vector3 {
        let inc = inclinationDegrees * Double.pi / 180, dec = declinationDegrees * Double.pi / 180
        let h = totalMicroTesla * cos(inc)
        return Vector3(h * sin(dec), h * cos(dec), -totalMicroTesla * sin(inc))
    }
}
