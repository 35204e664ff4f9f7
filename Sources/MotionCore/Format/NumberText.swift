/// Number text exactly as FORMAT.md requires: Swift's `Double.description`, the shortest
/// text that reads back to the same Double (`0.0`, `-0.39`, `1e-05`, `nan`).
///
/// Written by `DoubleText` (our own shortest round-trip formatter, proven byte-identical
/// to `Double.description` by the tests) straight into the buffer, with no `String`.
public enum NumberText {
    /// Who makes the number text: the same bytes either way (the tests prove it).
    public enum Maker: Sendable {
        /// `DoubleText`, straight into the buffer (the default).
        case ownFormatter
        /// `Double.description` through a `String`: the reference, for benchmarks.
        case standardLibrary
    }

    /// Appends the text of `value` to `bytes`.
    @inlinable
    public static func append(_ value: Double, to bytes: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: DoubleText.maxBytes) { scratch in
            guard let base = scratch.baseAddress else { return }
            let n = DoubleText.write(value, to: base)
            bytes.append(contentsOf: UnsafeBufferPointer(start: base, count: n))
        }
    }

    /// Appends the text of `value` made by the standard library (`Double.description`): the
    /// reference `DoubleText` is tested against, kept for benchmarks to compare with.
    public static func appendDescription(_ value: Double, to bytes: inout [UInt8]) {
        var text = value.description
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }
}
