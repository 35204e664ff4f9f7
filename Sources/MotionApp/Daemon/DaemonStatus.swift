import Foundation
import MotionCore
import MotionOffload

/// What `motionlog status` reports: the daemon's state and, while recording, the live
/// numbers of the recording. Sent as JSON over the control socket (`status --json` prints it).
struct DaemonStatus: Codable, Sendable, Equatable {
    /// `idle`, `recording`, `stopping`, `error` or `shutting-down`.
    var state: String
    /// Why the daemon is in `error`, or how the last recording ended.
    var message: String?
    var board: String
    var outputFolder: String
    /// Full path of the file being written.
    var currentFile: String?
    /// Seconds recorded so far (ticks including missed ones / rate).
    var elapsedSeconds: Double?
    var rateHz: Int
    /// Rows per second per source letter over the last second or so.
    var rowsPerSecond: [String: Double]
    /// Rows written per source letter in this recording.
    var rowsWritten: [String: Int64]
    var droppedRows: Int64
    var rowsLostToWriteErrors: Int64
    var overruns: Int64
    var missedTicks: Int64
    var gps: GPSStatus
    var clock: ClockStatus
    var freeSpace: FreeSpaceStatus
    /// The label rows get now.
    var label: String
    /// Files of the last finished recording.
    var lastFiles: [String]
    /// Recordings started since the daemon started.
    var recordings: Int
    /// `ok` when the buttons and LED work; else why not: a GPIO error, `not used (--no-gpio)`,
    /// or `no buttons or LED in the board file`.
    var gpio: String
    /// A copy to a USB stick in progress or just ended (nil: none).
    var offload: OffloadProgress?
    var pid: Int32
    var version: String

    /// GPS as the status shows it.
    struct GPSStatus: Codable, Sendable, Equatable {
        /// `no GPS`, `waiting`, `no gpsd` (not answering), `no receiver` (gpsd has none), `no fix`, `2D fix`, `3D fix`.
        var fix: String
        /// gpsd's mode (0 unknown, 1 no fix, 2, 3); nil without GPS.
        var mode: Int?
        var source: String?
    }

    /// The clock When comes from.
    struct ClockStatus: Codable, Sendable, Equatable {
        /// `system` (CLOCK_REALTIME), `gps` (When anchored to GPS time: the recording's rows
        /// carry GPS time whatever the kernel says of the system clock) or `simulated`.
        var source: String
        /// Whether the kernel says the system clock is synchronised (NTP); nil: unknown. With
        /// `source: gps` always true: When is GPS time whatever the system clock says.
        var synchronized: Bool?
    }

    /// Space left where recordings go.
    struct FreeSpaceStatus: Codable, Sendable, Equatable {
        var availableBytes: Int64?
        /// The reserve kept free, `min_free_space` (0: no guard).
        var minimumBytes: Int64
        /// Recording stops below this: the reserve plus the headroom for rows still
        /// buffered at a stop (0: no guard).
        var stopsBelowBytes: Int64 = 0
    }

    /// The human-readable form of `motionlog status`.
    func rendered() -> String {
        var lines = ["motionlog daemon: \(state)" + (message.map { " — \($0)" } ?? "")]
        func add(_ key: String, _ value: String) { lines.append("  " + key.padding(toLength: 10, withPad: " ", startingAt: 0) + value) }
        add("board", "\(board)")
        add("output", outputFolder)
        if let f = currentFile { add("file", f) }
        if let e = elapsedSeconds {
            let s = Int(e)
            add("elapsed", String(format: "%02d:%02d:%02d", s / 3600, (s / 60) % 60, s % 60) + " at \(rateHz) Hz")
        }
        if state == "recording" || state == "stopping" {
            let rates = Source.canonicalOrder.compactMap { s -> String? in
                let key = String(s.letter)
                guard let r = rowsPerSecond[key] ?? rowsWritten[key].map({ _ in 0 }) else { return nil }
                return "\(key) \(Int(r.rounded()))/s"
            }
            add("rows/s", rates.isEmpty ? "-" : rates.joined(separator: "  "))
            add("losses", "dropped \(droppedRows), lost to write errors \(rowsLostToWriteErrors), overruns \(overruns) (missed ticks \(missedTicks))")
        }
        add("GPS", gps.fix + (gps.source.map { " (\($0))" } ?? ""))
        let sync: String
        switch clock.synchronized {
        case true? where clock.source == GPSTimeRecord.gpsClock: sync = "When anchored to GPS time"
        case true?: sync = "synchronised"
        case false?: sync = "NOT synchronised: When may be wrong until NTP or GPS sets the clock"
        case nil: sync = "synchronisation unknown"
        }
        add("clock", "\(clock.source), \(sync)")
        let free = freeSpace.availableBytes.map { ByteText.describe($0) } ?? "unknown"
        let stop = max(freeSpace.stopsBelowBytes, freeSpace.minimumBytes)
        let limit = stop > 0 ? " (recording stops below \(ByteText.describe(stop)))" : ""
        add("free", free + limit)
        add("label", label)
        if !lastFiles.isEmpty { add("last", lastFiles.joined(separator: ", ")) }
        if gpio != "ok" { add("gpio", gpio) }
        if let o = offload {
            switch o.state {
            case .copying:
                add("offload", "copying to \(o.target): " + o.countsText)
            case .done: add("offload", "done (\(o.target)): " + (o.message ?? ""))
            // Ended, nothing is written to the target any more, but recordings were left behind.
            case .incomplete:
                add("offload", "INCOMPLETE (\(o.target), may be pulled out; \(o.countsText) copied): " + (o.message ?? ""))
            case .error: add("offload", "ERROR (\(o.target)): " + (o.message ?? ""))
            }
        }
        return lines.joined(separator: "\n")
    }
}
