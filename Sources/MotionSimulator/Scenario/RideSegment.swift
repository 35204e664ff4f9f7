/// One piece of a scripted ride: over `duration` seconds the speed, course and road grade
/// move smoothly (raised-cosine ramps, so accelerations are continuous) to new values.
public struct RideSegment: Sendable, Equatable {
    public var duration: Double
    /// Speed along the road at the end of the segment, m/s.
    public var endSpeed: Double
    /// Course change over the segment, degrees (positive: turning right / clockwise).
    public var turn: Double
    /// Road grade at the end of the segment, as a slope (0.03 = 3 % uphill).
    public var endGrade: Double
    /// Road roughness: scales vibration (1 = ordinary asphalt).
    public var roughness: Double
    public var note: String
    /// How the device moves during the segment (what the IMU feels besides the route).
    public var style: MotionStyle
    /// What an analysis should call this time: `walking`, `cycling`, `vehicle` or `stop`.
    public var truth: String

    public init(_ note: String, duration: Double, endSpeed: Double, turn: Double = 0, endGrade: Double = 0,
                roughness: Double = 1, style: MotionStyle = .cycling, truth: String = "cycling") {
        self.note = note; self.duration = duration; self.endSpeed = endSpeed; self.turn = turn
        self.endGrade = endGrade; self.roughness = roughness; self.style = style; self.truth = truth
    }
}

/// How the device is carried in a scenario segment.
public enum MotionStyle: String, Sendable, Equatable {
    /// On a bicycle's handlebar: road vibration growing with speed and roughness.
    case cycling
    /// In a walker's hand or pocket: steps at 1.8 Hz (vertical bounce, lateral sway).
    case walking
    /// In a car: engine vibration and slow body motion, damped by the suspension.
    case vehicle
    /// Lying on a table or standing still.
    case still
    /// In bed: still but breathing.
    case inBed
    /// Turning over in bed: a few seconds of rolling.
    case turningOver
}
