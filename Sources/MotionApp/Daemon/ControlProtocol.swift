import Foundation

/// The control socket's protocol: one JSON request per connection, as one line, answered
/// by one JSON reply line. Encoded and decoded with Foundation's JSON coders only.
enum ControlProtocol {
    /// Bumped when requests or replies change incompatibly.
    static let version = 1
    /// Longest reply line the client accepts (the daemon takes requests of at most
    /// `ControlConnections.Limits.maxRequestBytes`).
    static let maxLineBytes = 1 << 20

    static func encode<T: Encodable>(_ value: T) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        guard let data = try? encoder.encode(value) else { return Array("{}\n".utf8) }
        return Array(data) + [0x0A]
    }

    static func decode<T: Decodable>(_ type: T.Type, from line: [UInt8]) throws -> T {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return try decoder.decode(type, from: Data(line))
    }
}

/// A request to the daemon.
struct ControlRequest: Codable, Sendable, Equatable {
    enum Command: String, Codable, Sendable {
        case start, stop, status, label
    }

    var command: Command
    /// For `label`: one uppercase letter.
    var label: String?
    /// Optional in a request: `{"command":"status"}` from a script is version 1's.
    var protocolVersion: Int = ControlProtocol.version

    init(command: Command, label: String? = nil, protocolVersion: Int = ControlProtocol.version) {
        self.command = command; self.label = label; self.protocolVersion = protocolVersion
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        command = try c.decode(Command.self, forKey: .command)
        label = try c.decodeIfPresent(String.self, forKey: .label)
        protocolVersion = try c.decodeIfPresent(Int.self, forKey: .protocolVersion) ?? ControlProtocol.version
    }
}

/// The daemon's answer: whether it did what was asked, a sentence, and its status after.
struct ControlReply: Codable, Sendable, Equatable {
    var ok: Bool
    var message: String?
    var status: DaemonStatus?
    var protocolVersion: Int = ControlProtocol.version
}
