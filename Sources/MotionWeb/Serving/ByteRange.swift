/// A request's `Range` header, for one byte range (RFC 9110 §14): `bytes=a-b`, `bytes=a-`,
/// `bytes=-n`. Several ranges, other units and malformed or overlong headers are ignored
/// (the whole file is sent), as the RFC allows; a well-formed range past the end is
/// unsatisfiable (416).
enum ByteRange: Equatable {
    case whole
    case part(ClosedRange<Int64>)
    case unsatisfiable

    /// Longest header looked at; longer ones are ignored rather than parsed.
    static let maxHeaderLength = 100

    static func parse(_ header: String?, length: Int64) -> ByteRange {
        guard let header, header.utf8.count <= maxHeaderLength, header.hasPrefix("bytes=") else { return .whole }
        let spec = header.dropFirst(6).trimmingCharacters(in: " ")
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return .whole }
        let first = String(spec[..<dash]).trimmingCharacters(in: " "), last = String(spec[spec.index(after: dash)...]).trimmingCharacters(in: " ")
        func number(_ s: String) -> Int64?? {
            if s.isEmpty { return .some(nil) }
            guard s.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            // Too many digits for Int64: far past any file's end.
            return .some(Int64(s) ?? Int64.max)
        }
        guard let a = number(first), let b = number(last) else { return .whole }
        switch (a, b) {
        case (nil, nil): return .whole
        case (nil, let n?):
            guard n > 0, length > 0 else { return .unsatisfiable }
            return .part(max(0, length - n)...(length - 1))
        case (let s?, nil):
            guard s < length else { return .unsatisfiable }
            return .part(s...(length - 1))
        case (let s?, let e?):
            guard s <= e else { return .whole }
            guard s < length else { return .unsatisfiable }
            return .part(s...min(e, length - 1))
        }
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: Character) -> String {
        var s = Substring(self)
        while s.first == set { s.removeFirst() }
        while s.last == set { s.removeLast() }
        return String(s)
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: Character) -> String { String(self).trimmingCharacters(in: set) }
}
