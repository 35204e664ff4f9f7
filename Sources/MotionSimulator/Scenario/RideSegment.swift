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

    public init(_ note: String, duration: Double, endSpeed: Double, turn: Double = 0, endGrade: Double = 0,
                roughness: Double = 1) {
        self.note = note; self.duration = duration; self.endSpeed = endSpeed; self.turn = turn
        self.endGrade = endGrade; self.roughness = roughness
    }
}
