/// Parses the human quantities of the CLI and config: sizes with K/M/G and durations with
/// s/m/h (`64M`, `1.5G`, `90s`, `10m`, `2h`; plain numbers are bytes and seconds).
public enum QuantityText {
    /// Bytes (binary multiples: K = 1024). Nil when malformed or not positive.
    public static func bytes(_ text: String) -> Int64? {
        let t = text.trimmingSpaces
        guard let last = t.last else { return nil }
        let scale: Double
        var digits = Substring(t)
        switch last.uppercased() {
        case "K": scale = 1024; digits = digits.dropLast()
        case "M": scale = 1024 * 1024; digits = digits.dropLast()
        case "G": scale = 1024 * 1024 * 1024; digits = digits.dropLast()
        case "B": scale = 1; digits = digits.dropLast()
        default: scale = 1
        }
        guard let v = Double(digits), v.isFinite, v > 0, v * scale < 9e18 else { return nil }
        return Int64((v * scale).rounded())
    }

    /// Seconds. Nil when malformed or negative.
    public static func seconds(_ text: String) -> Double? {
        let t = text.trimmingSpaces
        guard let last = t.last else { return nil }
        var digits = Substring(t)
        let scale: Double
        switch last {
        case "s": scale = 1; digits = digits.dropLast()
        case "m": scale = 60; digits = digits.dropLast()
        case "h": scale = 3600; digits = digits.dropLast()
        default: scale = 1
        }
        guard let v = Double(digits), v.isFinite, v >= 0 else { return nil }
        return v * scale
    }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
