import Yams

/// A parsed YAML mapping that knows where each value came from, so every complaint names
/// file, line and key. Reading a key marks it used; `rejectUnknownKeys()` reports the rest.
///
/// Types follow YAML: a number, `true`/`false` must be written plain (`rate: 50`); a quoted
/// `"50"` is text and is refused where a number is expected. A key without a value
/// (`board:`, `board: ~`, `board: null`) is refused with its line by every typed getter,
/// except `section`, where an empty section means no keys. A key given twice is an error
/// at the second occurrence's line. New keys: read them with the typed getters below, and
/// every error names file, line and key.
public final class YAMLDocument {
    public let file: String
    private let pairs: [(key: String, keyLine: Int, value: Node)]
    private let prefix: String
    private var used = Set<String>()
    /// The keys the reader asked for, present or not: what a typo is compared with.
    private var asked: [String] = []
    private let line: Int

    /// Parses `text` (the contents of `file`); an empty document is an empty mapping.
    public init(text: String, file: String) throws(ConfigError) {
        self.file = file
        self.prefix = ""
        let node: Node?
        do { node = try Yams.compose(yaml: text) } catch let e as YamlError {
            if case .duplicatedKeysInMapping(let keys, let context) = e {
                throw Self.duplicate(keys, first: context.mark, text: text, file: file)
            }
            throw ConfigError(file: file, line: Self.line(of: e), key: nil,
                              message: "not valid YAML: \(Self.summary(of: e)) (look at that line and the one before: each setting is `key: value`, nested ones indented by spaces under their section)")
        } catch {
            throw ConfigError(file: file, line: nil, key: nil, message: "not valid YAML: \(error)")
        }
        guard let node else { pairs = []; line = 1; return }
        guard let mapping = node.mapping else {
            throw ConfigError(file: file, line: node.mark.map { $0.line }, key: nil, message: "expected a mapping of keys to values at the top level")
        }
        pairs = try Self.pairs(mapping, file: file, prefix: "")
        line = node.mark?.line ?? 1
    }

    private init(file: String, pairs: [(key: String, keyLine: Int, value: Node)], prefix: String, line: Int) {
        self.file = file; self.pairs = pairs; self.prefix = prefix; self.line = line
    }

    private static func pairs(_ m: Node.Mapping, file: String, prefix: String) throws(ConfigError) -> [(key: String, keyLine: Int, value: Node)] {
        var out: [(key: String, keyLine: Int, value: Node)] = []
        var seen = Set<String>()
        for (k, v) in m {
            let line = k.mark?.line ?? 0
            guard let key = k.scalar?.string else {
                throw ConfigError(file: file, line: line, key: prefix.isEmpty ? nil : prefix, message: "keys must be plain names")
            }
            if !seen.insert(key).inserted {
                throw ConfigError(file: file, line: line, key: prefix + key, message: "key given twice")
            }
            out.append((key, line, v))
        }
        return out
    }

    /// Yams reports a duplicated key at its first occurrence; the error names the second
    /// (the line to delete or fix), found below the first at the same indentation.
    static func duplicate(_ keys: [String], first: Mark, text: String, file: String) -> ConfigError {
        let key = keys.sorted().first ?? "?"
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let indent = max(first.column - 1, 0)
        var second: Int?
        for (i, raw) in lines.enumerated() where i + 1 > first.line {
            let line = raw.utf8
            guard line.count > indent, line.prefix(indent).allSatisfy({ $0 == 0x20 || $0 == 0x2D }) else { continue }
            let rest = String(decoding: line.dropFirst(indent), as: UTF8.self)
            for candidate in [key, "\"\(key)\"", "'\(key)'"] where rest.hasPrefix(candidate) {
                if rest.dropFirst(candidate.count).drop(while: { $0 == " " }).hasPrefix(":") { second = i + 1 }
            }
            if second != nil { break }
        }
        let message = second == nil ? "key given twice" : "key given twice (first at line \(first.line))"
        return ConfigError(file: file, line: second ?? first.line, key: key, message: message)
    }

    static func line(of e: YamlError) -> Int? {
        switch e {
        case .scanner(_, _, let mark, _), .parser(_, _, let mark, _), .composer(_, _, let mark, _): return mark.line
        case .duplicatedKeysInMapping(_, let context): return context.mark.line
        default: return nil
        }
    }

    static func summary(of e: YamlError) -> String {
        switch e {
        case .scanner(_, let problem, _, _), .parser(_, let problem, _, _), .composer(_, let problem, _, _): return problem
        default: return "\(e)"
        }
    }

    public var keys: [String] { pairs.map(\.key) }
    public func has(_ key: String) -> Bool {
        noteAsked(key)
        return pairs.contains { $0.key == key }
    }

    /// The line `key` is on, nil when absent.
    public func line(of key: String) -> Int? { pairs.first { $0.key == key }?.keyLine }

    private func noteAsked(_ key: String) { if !asked.contains(key) { asked.append(key) } }

    func entry(_ key: String) -> (keyLine: Int, value: Node)? {
        noteAsked(key)
        guard let e = pairs.first(where: { $0.key == key }) else { return nil }
        used.insert(key)
        return (e.keyLine, e.value)
    }

    func error(_ key: String, _ line: Int?, _ message: String) -> ConfigError {
        ConfigError(file: file, line: line, key: prefix + key, message: message)
    }

    /// Any key not read so far is an error (typos must not be silently ignored), with the
    /// known key it is closest to, or the keys known here.
    public func rejectUnknownKeys() throws(ConfigError) {
        for p in pairs where !used.contains(p.key) {
            let known = asked.filter { key in !pairs.contains { $0.key == key } }
            let hint: String
            if let close = KeySuggestion.closest(to: p.key, among: known) {
                hint = "did you mean \(close)?"
            } else if !known.isEmpty {
                hint = "the keys here are " + asked.joined(separator: ", ")
            } else {
                hint = "remove it"
            }
            throw ConfigError(file: file, line: p.keyLine, key: prefix + p.key, message: "unknown key: \(hint)")
        }
    }

    // MARK: Typed getters (nil when absent)

    /// YAML's null: a plain empty value, `~` or `null`.
    static func isNull(_ node: Node) -> Bool {
        guard let s = node.scalar, s.style == .plain || s.style == .any else { return false }
        return ["", "~", "null", "Null", "NULL"].contains(s.string)
    }

    /// The entry of `key`, refusing a key without a value.
    func value(_ key: String) throws(ConfigError) -> (line: Int, node: Node)? {
        guard let (keyLine, node) = entry(key) else { return nil }
        if Self.isNull(node) {
            throw error(key, keyLine, "no value: give one, or delete the line to use the default")
        }
        return (node.mark?.line ?? keyLine, node)
    }

    /// A plain (unquoted) scalar's text, for numbers and booleans; a quoted value is text.
    func plainScalar(_ key: String, _ node: Node, line: Int, expected: String) throws(ConfigError) -> String {
        guard let s = node.scalar else { throw error(key, line, "expected \(expected)") }
        if s.style == .singleQuoted || s.style == .doubleQuoted {
            throw error(key, line, "expected \(expected), found the text \"\(s.string)\" (write it without quotes)")
        }
        return s.string
    }

    public func string(_ key: String) throws(ConfigError) -> String? {
        guard let (line, node) = try value(key) else { return nil }
        guard let s = node.scalar?.string else { throw error(key, line, "expected a text value") }
        return s
    }

    /// A whole number (decimal or 0x hex) within `range`.
    public func int(_ key: String, in range: ClosedRange<Int>) throws(ConfigError) -> Int? {
        guard let (line, node) = try value(key) else { return nil }
        let text = try plainScalar(key, node, line: line, expected: "a whole number")
        let value: Int?
        if text.hasPrefix("0x") || text.hasPrefix("0X") { value = Int(text.dropFirst(2), radix: 16) } else { value = Int(text) }
        guard let v = value else { throw error(key, line, "expected a whole number, found \"\(text)\"") }
        guard range.contains(v) else { throw error(key, line, "\(v) is outside \(range.lowerBound)...\(range.upperBound)") }
        return v
    }

    /// A finite number within `range`.
    public func double(_ key: String, in range: ClosedRange<Double>) throws(ConfigError) -> Double? {
        guard let (line, node) = try value(key) else { return nil }
        let text = try plainScalar(key, node, line: line, expected: "a number")
        guard let v = Double(text), v.isFinite else { throw error(key, line, "expected a number, found \"\(text)\"") }
        guard range.contains(v) else { throw error(key, line, "\(v) is outside \(range.lowerBound)...\(range.upperBound)") }
        return v
    }

    /// `true` or `false` (also yes/no, on/off), unquoted.
    public func bool(_ key: String) throws(ConfigError) -> Bool? {
        guard let (line, node) = try value(key) else { return nil }
        let text = try plainScalar(key, node, line: line, expected: "true or false")
        switch text.lowercased() {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        default: throw error(key, line, "expected true or false, found \"\(text)\"")
        }
    }

    /// A text value checked by `parse`; `expected` describes valid values.
    public func parsed<T>(_ key: String, expected: String, _ parse: (String) -> T?) throws(ConfigError) -> T? {
        guard let s = try string(key) else { return nil }
        guard let v = parse(s) else {
            throw error(key, valueLine(key), "\"\(s)\" is not \(expected)")
        }
        return v
    }

    /// A text value turned into a type by `parse`, whose error (saying what is accepted) becomes the message.
    public func parsed<T, E: Error & CustomStringConvertible>(_ key: String,
                                                              _ parse: (String) throws(E) -> T) throws(ConfigError) -> T? {
        guard let s = try string(key) else { return nil }
        do { return try parse(s) } catch { throw self.error(key, valueLine(key), error.description) }
    }

    /// A list of texts turned into a type by `parse`, whose error becomes the message.
    public func parsedList<T, E: Error & CustomStringConvertible>(_ key: String,
                                                                  _ parse: ([String]) throws(E) -> T) throws(ConfigError) -> T? {
        guard let list = try strings(key) else { return nil }
        do { return try parse(list) } catch { throw self.error(key, lineOf(key), error.description) }
    }

    public func strings(_ key: String) throws(ConfigError) -> [String]? {
        guard let (line, node) = try value(key) else { return nil }
        guard let seq = node.sequence else { throw error(key, line, "expected a list, e.g. [\"a\", \"b\"]") }
        var out: [String] = []
        for item in seq {
            guard let s = item.scalar?.string, !Self.isNull(item) else { throw error(key, item.mark?.line ?? line, "expected text items") }
            out.append(s)
        }
        return out
    }

    /// One finite number of a list, unquoted.
    func number(_ key: String, _ item: Node, line: Int) throws(ConfigError) -> Double {
        let itemLine = item.mark?.line ?? line
        guard item.scalar != nil, !Self.isNull(item) else { throw error(key, itemLine, "expected a number") }
        let text = try plainScalar(key, item, line: itemLine, expected: "a number")
        guard let v = Double(text), v.isFinite else { throw error(key, itemLine, "expected a number, found \"\(text)\"") }
        return v
    }

    public func numbers(_ key: String, count: Int, within range: ClosedRange<Double>? = nil) throws(ConfigError) -> [Double]? {
        guard let (line, node) = try value(key) else { return nil }
        guard let seq = node.sequence, seq.count == count else {
            throw error(key, line, "expected a list of \(count) numbers")
        }
        var out: [Double] = []
        for item in seq {
            let v = try number(key, item, line: line)
            if let range, !range.contains(v) {
                throw error(key, line, "\(v) is outside \(range.lowerBound)...\(range.upperBound), which no sensor's calibration needs")
            }
            out.append(v)
        }
        return out
    }

    /// A 3×3 matrix as three rows of three numbers.
    public func matrix3(_ key: String) throws(ConfigError) -> [[Double]]? {
        guard let (line, node) = try value(key) else { return nil }
        guard let seq = node.sequence, seq.count == 3 else { throw error(key, line, "expected 3 rows of 3 numbers") }
        var rows: [[Double]] = []
        for row in seq {
            guard let r = row.sequence, r.count == 3 else { throw error(key, row.mark?.line ?? line, "expected 3 rows of 3 numbers") }
            var values: [Double] = []
            for item in r { values.append(try number(key, item, line: line)) }
            rows.append(values)
        }
        return rows
    }

    /// A nested mapping, e.g. `imu:`.
    /// An empty section (`daemon:` with every key commented out) has no keys.
    public func section(_ key: String) throws(ConfigError) -> YAMLDocument? {
        guard let (line, node) = entry(key) else { return nil }
        if Self.isNull(node) { return YAMLDocument(file: file, pairs: [], prefix: prefix + key + ".", line: line) }
        guard let m = node.mapping else { throw error(key, node.mark?.line ?? line, "expected a section of keys") }
        let p = try Self.pairs(m, file: file, prefix: prefix + key + ".")
        return YAMLDocument(file: file, pairs: p, prefix: prefix + key + ".", line: line)
    }

    /// The line of `key` (for errors found after reading).
    public func lineOf(_ key: String) -> Int? { pairs.first { $0.key == key }?.keyLine }

    /// The line of `key`'s value (a value may start on the line after its key).
    func valueLine(_ key: String) -> Int? {
        guard let p = pairs.first(where: { $0.key == key }) else { return nil }
        return p.value.mark?.line ?? p.keyLine
    }
}
