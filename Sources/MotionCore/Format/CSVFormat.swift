/// Constants of the MotionCollector CSV format (see FORMAT.md and the README).
public enum CSVFormat {
    /// The first line of every file, byte for byte (note ", " in the header only), without LF.
    public static let headerLine = "Source, Label, When, X, Y, Z, UA_X, UA_Y, UA_Z, Pitch, Roll, Yaw"
    /// The header line with its LF, as bytes.
    public static let headerBytes: [UInt8] = Array((headerLine + "\n").utf8)
    public static let comma: UInt8 = 0x2C
    public static let newline: UInt8 = 0x0A
    /// The longest a row can be: 12 fields of at most 24 characters plus separators.
    public static let maxRowBytes = 12 * 25 + 1
}
