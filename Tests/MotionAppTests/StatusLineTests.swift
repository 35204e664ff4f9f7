import Foundation
@testable import MotionApp
import MotionCore
import MotionSystem
import Synchronization
import Testing

/// The live status line (issue 10, major 12): it used to be ~87 characters and wrapped on
/// an 80-column terminal (a new line every second), and log lines ran into it.
@Suite("Live status line")
struct StatusLineTests {
    let busy = StatusLine.Snapshot(
        elapsedSeconds: 3723, remainingSeconds: 4077,
        rates: [(.accelerometer, 100), (.gyroscope, 100), (.magnetometer, 100), (.deviceMotion, 100), (.location, 1)],
        gps: "3D fix", drops: 12, overruns: 3, file: "2026-11-23_17-01-02.csv")

    @Test func itFitsEveryWidthWithoutWrapping() {
        for width in [200, 120, 100, 80, 72, 60, 40, 20, 10] {
            let line = StatusLine.render(busy, width: width)
            #expect(line.count <= width - 1, "\(width): \(line.count) \(line)")
            #expect(line.hasPrefix("01:02:03"))
        }
        let wide = StatusLine.render(busy, width: 200)
        #expect(wide == "01:02:03  01:07:57 left  GPS 3D fix  A 100/s G 100/s M 100/s D 100/s L 1/s  drops 12  overruns 3  2026-11-23_17-01-02.csv")
        // At 80 columns the file name and overruns go first, then the last rates; time left, GPS and drops stay.
        let eighty = StatusLine.render(busy, width: 80)
        #expect(eighty == "01:02:03  01:07:57 left  GPS 3D fix  A 100/s G 100/s M 100/s D 100/s  drops 12")
        let sixty = StatusLine.render(busy, width: 60)
        #expect(sixty.contains("left") && sixty.contains("GPS 3D fix") && sixty.contains("drops 12"), "\(sixty)")
    }

    @Test func withoutDurationOrGPSThoseAreLeftOut() {
        var s = busy
        s.remainingSeconds = nil
        s.gps = nil
        s.file = nil
        #expect(StatusLine.render(s, width: 200) == "01:02:03  A 100/s G 100/s M 100/s D 100/s L 1/s  drops 12  overruns 3")
    }

    @Test func theWidthComesFromTheTerminalElseCOLUMNS() {
        // A pipe is no terminal: $COLUMNS, else 80.
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        #expect(Terminal.columns(fd: fds[1], environment: ["COLUMNS": "60"]) == 60)
        #expect(Terminal.columns(fd: fds[1], environment: [:]) == 80)
    }

    @Test func aLogMessageClearsTheStatusLineAndItIsDrawnAgainBelow() {
        let written = Mutex<[String]>([])
        let terminal = StatusTerminal { text in written.withLock { $0.append(text) } }
        terminal.showStatus(nil)   // none shown: nothing written (no escape into a log file)
        terminal.message("motionlog: before")
        terminal.showStatus("00:00:01  A 100/s")
        terminal.message("motionlog: warning: gpsd went away")
        terminal.showStatus(nil)
        terminal.message("motionlog: after")
        #expect(written.withLock { $0 } == [
            "motionlog: before\n",
            "\r\u{1B}[K00:00:01  A 100/s",
            "\r\u{1B}[Kmotionlog: warning: gpsd went away\n00:00:01  A 100/s",
            "\r\u{1B}[K",
            "motionlog: after\n",
        ])
    }
}
