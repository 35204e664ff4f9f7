/// Any JSON value, decoded and encoded as it is: lets a document produced elsewhere (the
/// summary's own snake_case JSON) be embedded in an API response unchanged.
indirect enum JSONValue: Codable, Sendable, Equatable {
    case null, bool(Bool), number(Double), string(String), array([JSONValue]), object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        if var a = try? decoder.unkeyedContainer() {
            var items: [JSONValue] = []
            while !a.isAtEnd { items.append(try a.decode(JSONValue.self)) }
            self = .array(items)
        } else if let o = try? decoder.container(keyedBy: Key.self) {
            var items: [String: JSONValue] = [:]
            for k in o.allKeys { items[k.stringValue] = try o.decode(JSONValue.self, forKey: k) }
            self = .object(items)
        } else {
            let c = try decoder.singleValueContainer()
            if c.decodeNil() { self = .null }
            else if let b = try? c.decode(Bool.self) { self = .bool(b) }
            else if let n = try? c.decode(Double.self) { self = .number(n) }
            else { self = .string(try c.decode(String.self)) }
        }
    }

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .null: var c = encoder.singleValueContainer(); try c.encodeNil()
        case .bool(let b): var c = encoder.singleValueContainer(); try c.encode(b)
        case .number(let n): var c = encoder.singleValueContainer(); try c.encode(n)
        case .string(let s): var c = encoder.singleValueContainer(); try c.encode(s)
        case .array(let a): var c = encoder.unkeyedContainer(); for v in a { try c.encode(v) }
        case .object(let o):
            var c = encoder.container(keyedBy: Key.self)
            for (k, v) in o { try c.encode(v, forKey: Key(stringValue: k)) }
        }
    }

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
