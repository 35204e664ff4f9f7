/// A receiver's fix time as gpsd reports it: a UTC timespec (whole seconds since 1970
/// plus nanoseconds), kept as integers so comparisons are exact.
///
/// gpsd writes the TPV time as ISO 8601 with milliseconds (`2034-11-27T20:26:40.000Z`);
/// libgps parses that into a timespec. `epochSeconds` turns it into the Double that goes
/// into When: the Double nearest to the decimal value `seconds.nanoseconds` (the same
/// Double any correct parser of the ISO text yields), so When equals the TPV time
/// exactly and prints as e.g. `2048236000.0` or `2048236000.2`.
public struct GPSFixTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Whole seconds since 1970-01-01 UTC (positive).
    public let seconds: Int64
    /// 0 ..< 1_000_000_000.
    public let nanoseconds: Int32

    /// A time from a timespec; nil when it is not a usable fix time: gpsd leaves the time
    /// at 0 when a report has none, and nanoseconds must be within 0 ..< 10⁹.
    public init?(seconds: Int64, nanoseconds: Int64) {
        guard seconds > 0, seconds < 100_000_000_000, (0..<1_000_000_000).contains(nanoseconds) else { return nil }
        self.seconds = seconds
        self.nanoseconds = Int32(nanoseconds)
    }

    /// Nanoseconds since 1970.
    public var epochNanoseconds: Int64 { seconds * 1_000_000_000 + Int64(nanoseconds) }

    /// Epoch seconds as the correctly rounded Double of the decimal `seconds.nanoseconds`.
    ///
    /// `Double(seconds) + Double(nanoseconds) / 1e9` rounds twice and can miss the parsed
    /// ISO text by one bit; parsing the exact decimal text rounds once.
    public var epochSeconds: Double {
        let fraction = String(nanoseconds)
        let text = "\(seconds)." + String(repeating: "0", count: 9 - fraction.count) + fraction
        return Double(text) ?? Double(seconds) + Double(nanoseconds) / 1e9
    }

    public static func < (a: GPSFixTime, b: GPSFixTime) -> Bool {
        (a.seconds, a.nanoseconds) < (b.seconds, b.nanoseconds)
    }

    public var description: String {
        let fraction = String(nanoseconds)
        return "\(seconds)." + String(repeating: "0", count: 9 - fraction.count) + fraction
    }
}
