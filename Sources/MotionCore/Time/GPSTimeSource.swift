/// A location source that also knows GPS time: the gpsd client. The recorder asks it for
/// the current estimate (about once per second) to anchor When to GPS time when the
/// system clock is not synchronised.
public protocol GPSTimeSource: AnyObject {
    /// The current estimate, or nil while GPS time is not known. Cheap and non-blocking:
    /// called on the sampling thread.
    func gpsTimeEstimate() -> GPSTimeEstimate?
}
