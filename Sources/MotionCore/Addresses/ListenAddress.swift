/// The address the server listens on, and whether it is only reachable from this machine.
public struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int

    public static let defaultPort = 8080

    /// What `parse` accepts, for messages.
    public static let expected = "HOST:PORT, e.g. 127.0.0.1:8080 or 0.0.0.0:8080 ([V6]:PORT for IPv6)"

    /// Parses `HOST:PORT`, `[V6]:PORT`, `HOST` or `:PORT` (port 0: any free port). A bare
    /// IPv6 address needs brackets.
    public static func parse(_ text: String) -> ListenAddress? {
        var host = text, port = defaultPort
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":"), let p = Int(rest.dropFirst()) else { return nil }
                port = p
            }
        } else if let colon = text.lastIndex(of: ":"), text.filter({ $0 == ":" }).count == 1 {
            host = String(text[..<colon])
            guard let p = Int(text[text.index(after: colon)...]) else { return nil }
            port = p
        } else if text.contains(":") {
            return nil
        }
        if host.isEmpty { host = "127.0.0.1" }
        // A number alone is a port given without its host, not a host: `--listen 8080` was
        // "8080:8080, reachable from other machines", then "Cannot assign requested address".
        guard (0...65535).contains(port), !host.contains(" "), !isPortAlone(host) else { return nil }
        return ListenAddress(host: host, port: port)
    }

    public init(host: String, port: Int) { self.host = host; self.port = port }

    /// Whether `text` is only digits: a port written without its host.
    public static func isPortAlone(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    /// Why `text` is not an address and what to write instead: `"8080" is a port alone: …`.
    public static func refusal(of text: String) -> String {
        isPortAlone(text) && Int(text).map({ (1...65535).contains($0) }) == true
            ? "\"\(text)\" is a port alone: write 0.0.0.0:\(text) to be reached from other machines, or 127.0.0.1:\(text) for this machine only"
            : "\"\(text)\" is not \(expected)"
    }

    /// `refusal` as an error (for the config's `listen`).
    public struct Refusal: Error, CustomStringConvertible {
        public var description: String
    }

    /// `parse`, with a port of 1 or more, or the refusal.
    public static func parsing(_ text: String) throws(Refusal) -> ListenAddress {
        guard let a = parse(text), a.port > 0 else { throw Refusal(description: refusal(of: text)) }
        return a
    }

    /// 127.0.0.0/8, ::1 or localhost.
    public var isLoopback: Bool { Self.isLoopbackName(host) }

    /// `localhost`, `::1` or a dotted 127.x.y.z address (not a name that merely starts
    /// with "127.", which DNS could point anywhere).
    public static func isLoopbackName(_ host: String) -> Bool {
        if host == "localhost" || host == "::1" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127"
            && parts.allSatisfy { !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) && Int($0).map { $0 < 256 } == true }
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
