import Foundation
import MotionCore
import MotionSystem
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `motionlog record` stopped by the signals users send — Ctrl-C on a real terminal,
/// SIGTERM, SIGHUP, GNU `timeout` — started as a shell starts it (empty signal mask): every
/// stop is clean, exit 0, summary printed, metadata finished.
@Suite("record stops cleanly on signals", .serialized)
struct RecordSignalTests {
    typealias S = DaemonTestSupport

    static func recordArguments(_ out: String, quiet: Bool = true) -> [String] {
        [Binary.path, "record", "--board", "simulator", "--boards-dir", S.repo + "/boards", "--out", out,
         "--config", S.emptyConfig(), "--fsync-interval", "0.2"] + (quiet ? ["--quiet"] : [])
    }

    /// Waits (bounded) until rows reach the recording's file.
    static func waitForRows(_ out: String, child: ShellChild? = nil) -> Bool {
        S.eventually(120) {
            child?.drainTerminal()
            guard let f = Binary.csvFiles(in: out).first,
                  let size = try? FileManager.default.attributesOfItem(atPath: f)[.size] as? Int else { return false }
            return size > 2000
        }
    }

    /// The metadata of the only file: it ended cleanly because it was stopped.
    static func expectStoppedCleanly(_ out: String) throws {
        let files = Binary.csvFiles(in: out)
        #expect(files.count == 1)
        let csv = try #require(files.first)
        let meta = try S.metadata(csv)
        #expect(meta.endedCleanly, "endReason \(meta.endReason)")
        #expect(meta.endReason == "stopped")
        #expect((meta.file.rows["A"] ?? 0) > 0)
        #expect(try Binary.run(["check", csv]).status == 0)
        // Nothing left for the next start to recover.
        #expect(RecordingRecovery.recover(folder: out, softwareVersion: "t").isEmpty)
    }

    @Test(arguments: [SIGTERM, SIGHUP, SIGINT, SIGQUIT])
    func aSignalFromAnotherProcessStopsCleanly(signal: Int32) throws {
        let out = Binary.temporaryDirectory()
        let stdout = out + ".stdout"
        let child = try ShellChild(Self.recordArguments(out), stdout: stdout)
        #expect(Self.waitForRows(out))
        child.signal(signal)
        child.wait()
        #expect(child.exitCode == 0, "\(child.outcome)")
        #expect(try String(contentsOfFile: stdout, encoding: .utf8).contains("Recorded "))
        try Self.expectStoppedCleanly(out)
    }

    @Test func everyThreadBlocksTheStopSignals() throws {
        let out = Binary.temporaryDirectory()
        let child = try ShellChild(Self.recordArguments(out))
        #expect(Self.waitForRows(out))
        let threads = child.blockedSignals()
        #expect(threads.count >= 3)
        let needed: UInt64 = (1 << UInt64(SIGINT - 1)) | (1 << UInt64(SIGTERM - 1)) | (1 << UInt64(SIGHUP - 1)) | (1 << UInt64(SIGQUIT - 1))
        // One thread, the watcher, waits for them in sigwaitinfo (the kernel shows waited-for
        // signals as unblocked meanwhile); every other thread blocks them, or the kernel
        // may hand a signal to it and its default action kills the process.
        let open = threads.filter { $0.mask & needed != needed }
        #expect(open.count <= 1, "threads that do not block SIGINT/SIGTERM/SIGHUP/SIGQUIT: \(open.map { "\($0.thread) \(String($0.mask, radix: 16))" })")
        #if arch(x86_64)
        let sigtimedwait = 128
        #else
        let sigtimedwait = 137
        #endif
        for t in open where t.syscall != nil {
            #expect(t.syscall == sigtimedwait, "\(t.thread) is in system call \(t.syscall ?? -1), not rt_sigtimedwait")
        }
        child.signal(SIGTERM)
        #expect(child.wait() == 0, "\(child.outcome)")
    }

    @Test func ctrlCOnARealTerminalStopsCleanly() throws {
        let out = Binary.temporaryDirectory()
        let child: ShellChild
        do { child = try ShellChild(Self.recordArguments(out, quiet: false), terminal: true) } catch let e as ShellChild.SpawnError where e.description.hasPrefix("no pseudo-terminal") {
            print("skipped: \(e.description)")
            return
        }
        #expect(Self.waitForRows(out, child: child))
        child.type([3])      // Ctrl-C: the terminal sends SIGINT to the foreground group
        child.wait()
        #expect(child.exitCode == 0, "\(child.outcome): \(child.terminalText)")
        #expect(child.terminalText.contains("Recorded "), "\(child.terminalText)")
        try Self.expectStoppedCleanly(out)
    }

    /// GNU `timeout` signals the child, then its own process group (the child again).
    @Test func gnuTimeoutWithSIGINTStopsCleanly() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/timeout") else {
            print("skipped: /usr/bin/timeout (GNU coreutils) is not installed")
            return
        }
        let out = Binary.temporaryDirectory()
        let stdout = out + ".stdout"
        let child = try ShellChild(["/usr/bin/timeout", "--preserve-status", "-s", "INT", "10"] + Self.recordArguments(out),
                                   stdout: stdout)
        child.wait()
        #expect(child.exitCode == 0, "\(child.outcome)")
        // On a very slow machine the signal may come before the first sample: then nothing
        // is recorded and that is said; otherwise the file ended cleanly.
        let text = try String(contentsOfFile: stdout, encoding: .utf8)
        if Binary.csvFiles(in: out).isEmpty {
            #expect(text.contains("nothing was recorded"), "\(text)")
        } else {
            #expect(text.contains("Recorded "), "\(text)")
            try Self.expectStoppedCleanly(out)
        }
    }

    /// The same signal twice from one sender at once (as `timeout` does) is one stop.
    @Test func aSignalDeliveredTwiceAtOnceIsOneStop() throws {
        let out = Binary.temporaryDirectory()
        let child = try ShellChild(Self.recordArguments(out))
        #expect(Self.waitForRows(out))
        child.signal(SIGINT)
        child.signal(SIGINT)
        child.wait()
        #expect(child.exitCode == 0, "\(child.outcome)")
        try Self.expectStoppedCleanly(out)
    }

    /// Commands that record nothing still die by Ctrl-C as usual (blocked signals are
    /// handed back to their default action).
    @Test func otherCommandsStillDieByTheSignal() throws {
        // `status` asking a "daemon" that takes the connection and never answers waits for
        // the reply (up to 60 s); SIGINT must end it. (This was `check` of a FIFO, which
        // blocked in open(2) until files came to be opened non-blocking: then `check` ended
        // by itself, "not a regular file", whenever the signal came late, as under CI load.)
        let socket = Binary.temporaryDirectory() + "/control.sock"
        let listening = try UnixSocket.listen(socket)
        defer { UnixSocket.close(listening) }
        let child = try ShellChild([Binary.path, "status", "--socket", socket])
        var accepted: Int32?
        #expect(S.eventually(60) { accepted = try? UnixSocket.accept(listening); return accepted != nil })
        defer { accepted.map(UnixSocket.close) }
        child.signal(SIGINT)
        child.wait()
        #expect(child.endingSignal == SIGINT, "\(child.outcome)")
    }
}
