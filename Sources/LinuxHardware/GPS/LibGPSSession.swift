import CGPS
import MotionCore
import MotionSystem

/// Opens gpsd sessions through libgps (gps_open, then a JSON watch).
public struct LibGPSConnector: GPSDConnector {
    public init() {}

    public func connect(to address: GPSDAddress) throws(GPSDError) -> GPSDSession {
        try LibGPSSession(address: address)
    }
}

/// A thin typed wrapper over one libgps connection: `gps_open`,
/// `gps_stream(WATCH_ENABLE | WATCH_JSON)`, `gps_waiting`, `gps_read`, `gps_close`.
///
/// libgps decodes each JSON report into `gps_data_t`; a TPV resets every fix field it
/// does not carry to NaN (time to 0), so each decoded TPV stands on its own. The class of
/// the report is taken from the JSON text gps_read hands back.
final class LibGPSSession: GPSDSession {
    private let address: GPSDAddress
    private let data: UnsafeMutablePointer<gps_data_t>
    private var message: [CChar]
    private var isOpen = false

    /// Bytes of the raw report kept: enough for the `{"class":"TPV"` prefix of any report.
    private static let messageBytes = 256

    init(address: GPSDAddress) throws(GPSDError) {
        self.address = address
        data = .allocate(capacity: 1)
        data.initialize(to: gps_data_t())
        message = [CChar](repeating: 0, count: Self.messageBytes)
        let result = gps_open(address.host, String(address.port), data)
        guard result == 0 else {
            let reason = String(cString: gps_errstr(LibraryErrno.last?.rawValue ?? 0))
            throw GPSDError(.connect, address: address, reason: reason)
        }
        isOpen = true
        // Bound a read that finds half a line, so the thread always gets back to its loop.
        UnixSocket.setReceiveTimeout(Int32(data.pointee.gps_fd), seconds: 2)
        guard gps_stream(data, UInt32(WATCH_ENABLE | WATCH_JSON), nil) == 0 else {
            let reason = String(cString: gps_errstr(LibraryErrno.last?.rawValue ?? 0))
            close()
            throw GPSDError(.watch, address: address, reason: reason)
        }
    }

    deinit {
        close()
        data.deallocate()
    }

    func close() {
        guard isOpen else { return }
        isOpen = false
        _ = gps_close(data)
    }

    func next(timeoutMicroseconds: Int32) throws(GPSDError) -> GPSDMessage? {
        guard isOpen else { throw GPSDError(.read, address: address, reason: "the connection is closed") }
        guard gps_waiting(data, timeoutMicroseconds) else { return nil }
        message[0] = 0
        LibraryErrno.clear()
        let n = message.withUnsafeMutableBufferPointer { gps_read(data, $0.baseAddress, Int32($0.count)) }
        if n < 0 {
            let e = LibraryErrno.last
            if e == .resourceTemporarilyUnavailable || e == .wouldBlock || e == .interrupted { return nil }
            throw GPSDError(.read, address: address, reason: e.map { "\($0)" } ?? "gpsd closed the connection")
        }
        if n == 0 { return nil }
        switch reportClass {
        case "TPV": return .tpv(decodeTPV())
        case "WATCH": return .watch
        case "DEVICES": return .devices(Int(data.pointee.devices.ndevices))
        case "DEVICE": return .devices(nil)
        default: return .other
        }
    }

    /// The `class` of the report just read, from the start of its JSON text.
    private var reportClass: Substring? {
        let text = message.withUnsafeBufferPointer { buffer -> String in
            let end = buffer.firstIndex(of: 0) ?? buffer.count
            return String(decoding: buffer[0..<end].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        let key = "\"class\":\""
        guard let start = text.range(of: key)?.upperBound,
              let end = text[start...].firstIndex(of: "\"") else { return nil }
        return text[start..<end]
    }

    private func decodeTPV() -> TPVReport {
        let fix = data.pointee.fix
        return TPVReport(
            time: GPSFixTime(seconds: Int64(fix.time.tv_sec), nanoseconds: Int64(fix.time.tv_nsec)),
            mode: Int(fix.mode), latitude: fix.latitude, longitude: fix.longitude,
            altitudeMSL: fix.altMSL, speed: fix.speed, track: fix.track, climb: fix.climb,
            eph: fix.eph, epv: fix.epv)
    }
}
