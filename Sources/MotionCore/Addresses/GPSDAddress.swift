/// Where gpsd listens: `host:port` (`localhost:2947` by default; `[::1]:2947` for IPv6).
public struct GPSDAddress: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int

    /// gpsd's registered port.
    public static let defaultPort = 2947
    public static let `default` = GPSDAddress(host: "localhost", port: defaultPort)
    /// What `init(parsing:)` accepts, for messages.
    public static let expected = "host:port, e.g. localhost:2947 or [::1]:2947 (host alone: port 2947)"

    public init(host: String, port: Int) {
        self.host = host; self.port = port
    }

    /// Parses `host:port`, `host` (default port), `[v6]:port` or `[v6]`; nil when malformed.
    public init?(parsing text: String) {
        let t = text.trimmingCharacters()
        guard !t.isEmpty else { return nil }
        var host: Substring, port: Substring?
        if t.hasPrefix("[") {
            guard let close = t.firstIndex(of: "]") else { return nil }
            host = t[t.index(after: t.startIndex)..<close]
            let rest = t[t.index(after: close)...]
            if rest.isEmpty { port = nil } else {
                guard rest.hasPrefix(":") else { return nil }
                port = rest.dropFirst()
            }
        } else if let colon = t.lastIndex(of: ":") {
            guard t.firstIndex(of: ":") == colon else { return nil }  // bare IPv6 needs brackets
            host = t[..<colon]
            port = t[t.index(after: colon)...]
        } else {
            host = Substring(t); port = nil
        }
        guard !host.isEmpty, !host.contains(where: { $0 == " " || $0 == "/" }) else { return nil }
        var number = Self.defaultPort
        if let p = port {
            guard let n = Int(p), (1...65_535).contains(n) else { return nil }
            number = n
        }
        self.init(host: String(host), port: number)
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

extension String {
    fileprivate func trimmingCharacters() -> String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return String(s)
    }
}
