/// A count with its noun in the plural where it needs one: `1 error`, `3 errors`,
/// `1 GPS fix`, `3 GPS fixes` (`plural` where adding an s is wrong).
public enum CountText {
    public static func of<N: BinaryInteger>(_ n: N, _ noun: String, plural: String? = nil) -> String {
        "\(n) \(n == 1 ? noun : plural ?? noun + "s")"
    }

    /// A count with its noun and verb: `1 row was`, `3 rows were`.
    public static func were<N: BinaryInteger>(_ n: N, _ noun: String, plural: String? = nil) -> String {
        of(n, noun, plural: plural) + (n == 1 ? " was" : " were")
    }
}
