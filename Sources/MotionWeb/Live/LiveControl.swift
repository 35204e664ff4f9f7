import Foundation

/// The running recorder as the web sees it: the control socket's own protocol (one JSON
/// request, one JSON reply), answered in-process by the daemon or forwarded to its socket.
/// The web therefore shows exactly the status `motionlog status` shows, and start, stop and
/// label do what `motionlog start|stop|label` do. Calls may block (a stop waits for the
/// files to close): the server makes them on the blocking-I/O thread pool.
public protocol LiveControl: Sendable {
    /// Sends one control request (JSON) and returns the reply (JSON).
    func exchange(_ request: [UInt8]) throws -> [UInt8]
}

/// A control request as the control socket takes it.
struct LiveRequest: Codable, Sendable {
    var command: String
    var label: String?
    var protocolVersion = 1
}

/// A control reply; `status` is kept as the daemon wrote it and decoded for the page.
struct LiveReply: Decodable, Sendable {
    var ok: Bool
    var message: String?
    var status: LiveStatus?
}

/// The fields of the daemon's status the live card shows (all optional: a newer or older
/// daemon may add or drop some).
public struct LiveStatus: Codable, Sendable, Equatable {
    public var state: String?
    public var message: String?
    public var board: String?
    public var currentFile: String?
    public var elapsedSeconds: Double?
    public var rateHz: Int?
    public var rowsPerSecond: [String: Double]?
    public var rowsWritten: [String: Int64]?
    public var droppedRows: Int64?
    public var overruns: Int64?
    public var gps: GPS?
    public var clock: Clock?
    public var freeSpace: FreeSpace?
    public var label: String?

    public struct GPS: Codable, Sendable, Equatable { public var fix: String? }
    public struct Clock: Codable, Sendable, Equatable { public var source: String?; public var synchronized: Bool? }
    public struct FreeSpace: Codable, Sendable, Equatable { public var availableBytes: Int64?; public var minimumBytes: Int64? }

    public var isRecording: Bool { state == "recording" || state == "stopping" }

    /// The base name of the file being written (the one that cannot be deleted).
    public var currentName: String? {
        guard isRecording, let f = currentFile else { return nil }
        let base = f.split(separator: "/").last.map(String.init) ?? f
        return base.hasSuffix(".csv") ? String(base.dropLast(4)) : base
    }
}

extension LiveControl {
    func send(_ command: String, label: String? = nil) throws -> LiveReply {
        let request = try JSONEncoder().encode(LiveRequest(command: command, label: label))
        let reply = try exchange(Array(request) + [0x0A])
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return try decoder.decode(LiveReply.self, from: Data(reply))
    }
}
