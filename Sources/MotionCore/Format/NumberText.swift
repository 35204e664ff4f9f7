/// Number text exactly as FORMAT.md requires: Swift's `Double.description`, the shortest
/// text that reads back to the same Double (`0.0`, `-0.39`, `1e-05`, `nan`).
///
/// The text is produced by the standard library itself (not a re-implementation), so it is
/// exact by construction; descriptions of up to 15 bytes live inline in `String` and cost no
/// allocation.
public enum NumberText {
    /// Appends the text of `value` to `bytes`.
    @inlinable
    public static func append(_ value: Double, to bytes: inout [UInt8]) {
        var text = value.description
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// True when `text` is exactly how Swift prints the number it denotes.
    public static func isCanonical(_ text: Substring) -> Bool {
        guard let value = Double(text) else { return false }
        return value.description == text
    }
}
