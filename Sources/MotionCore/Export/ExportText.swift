/// Number and time text for the export formats (GPX and GeoJSON).
public enum ExportText {
    /// A Double as a plain decimal (never exponent form: GPX coordinates are xsd:decimal)
    /// with the digits of Swift's shortest round-trip representation, so a parser reads back
    /// exactly the Double that was written. Non-finite values give nil.
    public static func decimal(_ value: Double) -> String? {
        guard value.isFinite else { return nil }
        let text = "\(value)"
        guard let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) else {
            return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
        }
        // Expand d.ddde±x into a plain decimal with the same digits.
        var mantissa = String(text[..<e])
        let exponent = Int(text[text.index(after: e)...]) ?? 0
        var negative = false
        if mantissa.hasPrefix("-") { negative = true; mantissa.removeFirst() }
        let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        let intDigits = String(parts[0])
        let fracDigits = parts.count > 1 ? String(parts[1]) : ""
        var digits = intDigits + fracDigits
        var point = intDigits.count + exponent
        if point <= 0 {
            digits = String(repeating: "0", count: -point + 1) + digits
            point = 1
        } else if point > digits.count {
            digits += String(repeating: "0", count: point - digits.count)
        }
        var whole = String(digits.prefix(point))
        var fraction = String(digits.dropFirst(point))
        while fraction.hasSuffix("0") { fraction.removeLast() }
        while whole.count > 1 && whole.hasPrefix("0") { whole.removeFirst() }
        let body = fraction.isEmpty ? whole : whole + "." + fraction
        return negative ? "-" + body : body
    }

    /// ISO 8601 UTC, e.g. `2034-11-27T20:26:40Z` or `2020-03-18T13:28:19.6Z`: the fraction
    /// carries the digits of the time's shortest decimal form, at most 6 (microseconds; a
    /// receiver's fix times have milliseconds), so parsers read back the same instant.
    public static func utc(_ epochSeconds: Double) -> String {
        guard epochSeconds.isFinite, abs(epochSeconds) < 1e12 else { return "invalid-time" }
        var whole = epochSeconds.rounded(.down)
        var fraction = ""
        if let text = decimal(epochSeconds), epochSeconds >= 0, let dot = text.firstIndex(of: "."),
           text.distance(from: dot, to: text.endIndex) <= 7 {
            fraction = String(text[text.index(after: dot)...])
        } else if epochSeconds != whole {
            var micros = Int(((epochSeconds - whole) * 1e6).rounded())
            if micros >= 1_000_000 { micros -= 1_000_000; whole += 1 }
            let digits = String(micros)
            fraction = String(repeating: "0", count: 6 - digits.count) + digits
            while fraction.hasSuffix("0") { fraction.removeLast() }
        }
        let base = TimeText.format(whole, "%Y-%m-%dT%H:%M:%S", utc: true)
        return fraction.isEmpty ? base + "Z" : base + "." + fraction + "Z"
    }

    /// Escapes text for XML character data and attribute values.
    public static func xml(_ text: String) -> String {
        var out = ""
        for ch in text.unicodeScalars {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default:
                // XML 1.0 forbids most control characters.
                if ch.value < 0x20 && ch != "\t" && ch != "\n" && ch != "\r" { continue }
                out.unicodeScalars.append(ch)
            }
        }
        return out
    }
}
