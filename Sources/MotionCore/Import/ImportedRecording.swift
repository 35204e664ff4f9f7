/// What marks a recording made by `motionlog import` in its metadata (docs/FORMAT.md,
/// "Imported recordings").
public enum ImportedRecording {
    /// `recording.board`.
    public static let board = "imported"
    /// `endReason`.
    public static let endReason = "imported"

    /// Whether `metadata` is an earlier output of `import` (what `--force` may replace).
    public static func isImport(_ metadata: RecordingMetadata) -> Bool { metadata.endReason == endReason }

    /// `recording.gps` of an import: the GPX file's name, `GPX file ride.gpx`.
    public static func source(_ gpxName: String) -> String { "GPX file \(gpxName)" }

    /// Whether `metadata` is an import of another GPX file than `gpxName` (another ride that
    /// starts in the same second: it gets a name of its own, never `--force`).
    public static func isImport(_ metadata: RecordingMetadata, ofAnotherFileThan gpxName: String) -> Bool {
        isImport(metadata) && metadata.recording.gps != source(gpxName)
    }
}
