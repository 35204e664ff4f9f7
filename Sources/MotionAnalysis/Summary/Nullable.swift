/// An optional summary value that is written as JSON `null` when unknown, rather than left
/// out (what synthesized `Codable` does with an `Optional`): docs/ANALYSIS.md promises every
/// key, so `d["start"]` in Python finds `None` instead of raising `KeyError`. Read back, a
/// missing key (a summary cached by an older version) is nil as well.
@propertyWrapper
public struct Nullable<Value: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
    public var wrappedValue: Value?

    public init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        wrappedValue = c.decodeNil() ? nil : try c.decode(Value.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        if let wrappedValue { try c.encode(wrappedValue) } else { try c.encodeNil() }
    }
}

extension KeyedDecodingContainer {
    /// A `Nullable` key may be missing (chosen over the generic `decode` by the synthesized code).
    public func decode<V>(_ type: Nullable<V>.Type, forKey key: Key) throws -> Nullable<V> {
        try decodeIfPresent(type, forKey: key) ?? Nullable(wrappedValue: nil)
    }
}
