/// An export of a summary's timeline written while the recording's filtered fixes are read
/// a second time (`RecordingAnalyzer.forEachFix`), holding only the fixes of the part being
/// written: `StorylineWriter`, `TimelineGeoJSONWriter`.
public protocol FixStreamWriter: AnyObject {
    /// The next fix, after the one before in time.
    func add(_ fix: Fix)
    /// Writes what is left; throws what writing threw.
    func finish() throws
}

extension FixStreamWriter {
    /// Reads the recordings at `csvPaths` again for their filtered fixes (those their
    /// summary was computed from) and writes the export from them; `progress` as for
    /// `RecordingAnalyzer.summarize`.
    public func write(fixesOf csvPaths: [String], progress: RecordingAnalyzer.FilesProgress? = nil) throws {
        try RecordingAnalyzer.forEachFix(csvPaths, progress: progress, add)
        try finish()
    }
}
