/// A count with its noun in the plural where it needs one: `1 error`, `3 errors`.
public enum CountText {
    public static func of(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
}
