/// What marks a recording made by `motionlog import` in its metadata (docs/FORMAT.md,
/// "Imported recordings").
public enum ImportedRecording {
    /// `recording.board`.
    public static let board = "imported"
    /// `endReason`.
    public static let endReason = "imported"

    /// Whether `metadata` is an earlier output of `import` (what `--force` may replace).
    public static func isImport(_ metadata: RecordingMetadata) -> Bool { metadata.endReason == endReason }
}
