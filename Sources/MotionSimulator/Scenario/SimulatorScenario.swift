/// The simulator's scripted scenarios, each with its own truth (what an analysis should
/// call every second): `ride` (the standard bike loop), `commute` (walk, ride with red
/// lights, café, ride, walk), `car` (city, motorway, a jam, parking, a walk to the door)
/// and `night` (in bed, mostly still, a few turns; no GPS indoors).
public enum SimulatorScenario: String, CaseIterable, Sendable {
    case ride, commute, car, night

    /// The route and motion.
    public var route: BikeRide {
        switch self {
        case .ride: return .standard
        case .commute: return Self.commuteRoute
        case .car: return Self.carRoute
        case .night: return Self.nightRoute
        }
    }

    /// Whether the scenario has GPS (no fix indoors at night).
    public var hasGPS: Bool { self != .night }

    /// Position noise of the scenario's GPS, metres (1 σ, correlated over seconds).
    public var gpsNoiseMetres: Double { self == .ride ? 0 : 2.5 }

    /// The segments of one loop, without the route's position table (which `route`
    /// integrates once: megabytes and a fraction of a second for the 8-hour night).
    public var segments: [RideSegment] {
        switch self {
        case .ride: return BikeRide.standardSegments
        case .commute: return Self.commuteSegments
        case .car: return Self.carSegments
        case .night: return Self.nightSegments
        }
    }

    /// Seconds the scenario lasts before it loops: the sum of its segments, so that a
    /// command's help, which gives every scenario's length, builds no route.
    public var duration: Double { segments.reduce(0) { $0 + $1.duration } }

    /// The truth at `t` seconds: `walking`, `cycling`, `vehicle` or `stop`.
    public func truth(at t: Double) -> String { route.segment(at: t).truth }

    // Each route turns by a whole number of turns in all, so a loop continues smoothly.
    static let commuteRoute = BikeRide(name: "scripted commute", segments: commuteSegments)
    static let carRoute = BikeRide(name: "scripted car trip", segments: carSegments)
    static let nightRoute = BikeRide(name: "scripted night in bed", segments: nightSegments)

    static let commuteSegments: [RideSegment] = {
        func walk(_ note: String, _ d: Double, _ v: Double, turn: Double = 0) -> RideSegment {
            RideSegment(note, duration: d, endSpeed: v, turn: turn, style: .walking, truth: "walking")
        }
        func bike(_ note: String, _ d: Double, _ v: Double, turn: Double = 0, grade: Double = 0) -> RideSegment {
            RideSegment(note, duration: d, endSpeed: v, turn: turn, endGrade: grade, style: .cycling, truth: "cycling")
        }
        func redLight(_ d: Double) -> [RideSegment] {
            [bike("brake for the red light", 6, 0), bike("wait at the red light", d, 0), bike("pull away", 7, 5.5)]
        }
        var s: [RideSegment] = [
            walk("leave home", 4, 1.4), walk("walk to the bike", 150, 1.4), walk("corner", 10, 1.4, turn: 90),
            walk("walk on", 132, 1.4), walk("stop at the bike", 4, 0),
            RideSegment("unlock the bike", duration: 20, endSpeed: 0, style: .still, truth: "walking"),
            bike("start riding", 8, 5.5), bike("ride", 120, 5.5),
        ]
        s += redLight(30)
        s += [bike("right turn", 6, 5, turn: 90), bike("ride", 150, 5.8)]
        s += redLight(55)
        s += [bike("ride, gentle climb", 100, 5, grade: 0.02), bike("level", 10, 5.5, grade: 0)]
        s += redLight(20)
        s += [bike("ride", 120, 5.8), bike("left turn", 6, 5, turn: -90), bike("ride to the café", 60, 5.5),
              bike("slow down", 8, 0),
              RideSegment("café", duration: 900, endSpeed: 0, style: .still, truth: "stop"),
              bike("ride on", 8, 5.5), bike("ride", 200, 6), bike("right turn", 6, 5, turn: 90),
              bike("ride", 150, 5.8), bike("slow down", 8, 0),
              RideSegment("lock the bike", duration: 20, endSpeed: 0, style: .still, truth: "cycling"),
              walk("walk off", 4, 1.4), walk("walk to work", 120, 1.4), walk("turn back", 10, 1.3, turn: -180),
              walk("walk on", 110, 1.4), walk("arrive", 4, 0)]
        return s
    }()

    static let carSegments: [RideSegment] = {
        func car(_ note: String, _ d: Double, _ v: Double, turn: Double = 0) -> RideSegment {
            RideSegment(note, duration: d, endSpeed: v, turn: turn, style: .vehicle, truth: "vehicle")
        }
        func walk(_ note: String, _ d: Double, _ v: Double, turn: Double = 0) -> RideSegment {
            RideSegment(note, duration: d, endSpeed: v, turn: turn, style: .walking, truth: "walking")
        }
        return [
            car("engine on", 20, 0), car("pull out", 10, 8), car("city", 60, 13),
            car("brake for the lights", 8, 0), car("red light", 45, 0), car("pull away", 10, 13),
            car("right turn", 8, 8, turn: 90), car("city", 90, 13),
            car("brake", 8, 0), car("queue", 25, 0), car("pull away", 10, 12),
            car("on-ramp", 20, 25), car("motorway", 420, 28, turn: 20), car("exit", 15, 14),
            car("into a jam", 10, 3), car("crawl in the jam", 90, 3), car("jam clears", 10, 13),
            car("left turn", 8, 8, turn: -90), car("city", 60, 13), car("brake", 8, 0), car("red light", 30, 0),
            car("pull away", 10, 10), car("into the car park", 30, 3, turn: -20), car("park", 5, 0),
            car("engine off", 15, 0),
            walk("get out and walk", 4, 1.4), walk("walk to the door", 120, 1.4), walk("arrive", 4, 0),
        ]
    }()

    static let nightSegments: [RideSegment] = {
        func bed(_ d: Double) -> RideSegment { RideSegment("asleep", duration: d, endSpeed: 0, style: .inBed, truth: "stop") }
        func turn() -> RideSegment { RideSegment("turn over", duration: 4, endSpeed: 0, style: .turningOver, truth: "stop") }
        return [bed(1500), turn(), bed(2900), turn(), bed(4100), turn(), bed(3300), turn(),
                bed(5200), turn(), bed(4400), turn(), bed(3800), turn(), bed(3600)]
    }()
}
