/// A count with its noun in the plural where it needs one: `1 error`, `3 errors`.
public enum CountText {
    public static func of(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

    /// A count with its noun and verb: `1 row was`, `3 rows were`.
    public static func were<N: BinaryInteger>(_ n: N, _ singular: String, _ plural: String) -> String {
        n == 1 ? "1 \(singular) was" : "\(n) \(plural) were"
    }
}
