import MotionCore

/// Why talking to gpsd failed: what, where, and what to do.
public struct GPSDError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// gps_open failed (gpsd not running, wrong address, refused).
        case connect
        /// gps_stream (the WATCH request) failed.
        case watch
        /// The connection broke (gpsd stopped or restarted, or a read error).
        case read
    }
    public var kind: Kind
    public var address: GPSDAddress
    /// libgps's or the system's reason.
    public var reason: String

    public init(_ kind: Kind, address: GPSDAddress, reason: String) {
        self.kind = kind; self.address = address; self.reason = reason
    }

    public var description: String {
        switch kind {
        case .connect:
            return "cannot connect to gpsd at \(address): \(reason) — is gpsd running (systemctl status gpsd) and listening there? Use --gpsd HOST:PORT or the board's gps.gpsd"
        case .watch:
            return "gpsd at \(address) refused the watch request: \(reason)"
        case .read:
            return "lost the connection to gpsd at \(address): \(reason) (gpsd stopped or restarted)"
        }
    }
}

/// One message read from gpsd.
public enum GPSDMessage: Sendable, Equatable {
    /// Whether this is a TPV report with a fix (`TPVReport.isFix`; mode 0/1 is none).
    public var isFix: Bool { if case .tpv(let report) = self { report.isFix } else { false } }

    /// A TPV report.
    case tpv(TPVReport)
    /// gpsd's answer to the watch request: from now on reports stream.
    case watch
    /// gpsd's list of receivers (DEVICES: how many it has), or a receiver added or removed
    /// (DEVICE: nil, the count is then unknown).
    case devices(Int?)
    /// Any other report (SKY, VERSION, ...): not used for `L` rows.
    case other
}

/// An open, watching connection to gpsd. Used from one thread only.
public protocol GPSDSession: AnyObject {
    /// Waits up to `timeoutMicroseconds` for the next message; nil if none arrived in time.
    /// Throws when the connection is broken.
    func next(timeoutMicroseconds: Int32) throws(GPSDError) -> GPSDMessage?
    /// Closes the connection (idempotent).
    func close()
}

/// Opens sessions: `LibGPSConnector` over libgps in production, scripted ones in tests.
public protocol GPSDConnector: Sendable {
    func connect(to address: GPSDAddress) throws(GPSDError) -> GPSDSession
}
