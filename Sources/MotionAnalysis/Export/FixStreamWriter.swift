/// An export of a summary's timeline written while the recording's filtered fixes are read
/// a second time (`RecordingAnalyzer.forEachFix`), holding only the fixes of the part being
/// written: `StorylineWriter`, `TimelineGeoJSONWriter`.
public protocol FixStreamWriter: AnyObject {
    /// The next fix, after the one before in time.
    func add(_ fix: Fix)
    /// Writes what is left; throws what writing threw.
    func finish() throws
}
