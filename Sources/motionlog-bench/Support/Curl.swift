import Foundation

/// curl as the client of every request: its arguments and what its `-w` line says.
enum Curl {
    /// `curl -s -o /dev/null`, no proxy, a time limit, and one line: status, bytes, seconds.
    static func arguments(_ url: String, maxTime: Int) -> [String] {
        ["-s", "--noproxy", "*", "--max-time", "\(maxTime)", "-o", "/dev/null",
         "-w", "%{http_code} %{size_download} %{time_total}\\n", url]
    }

    struct Timing: Sendable {
        var status: Int
        var bytes: Int64
        /// curl's `time_total`: from the start of the request to the last byte, seconds.
        var seconds: Double

        init?(_ output: String) {
            let fields = output.split(whereSeparator: { $0 == " " || $0 == "\n" })
            guard fields.count >= 3, let s = Int(fields[0]), let b = Int64(fields[1]), let t = Double(fields[2]) else { return nil }
            status = s; bytes = b; seconds = t
        }
    }
}
