import MotionAnalysis

extension RecordingInputs {
    /// `readingOnce(files)`, saying on stderr which files were left out and why.
    static func readingOnceSaying(_ files: [String]) -> [String] {
        let (kept, leftOut) = readingOnce(files)
        for line in leftOut { Console.error(line) }
        return kept
    }
}
