@testable import MotionApp
import Testing

/// The shutdown command a long press runs: its failure said with what it printed.
@Suite("Shutdown command")
struct ShutdownRunnerTests {
    @Test func successIsSilentAndAFailureSaysWhatTheCommandSaid() {
        let runner = ShellShutdownRunner()
        #expect(runner.run("true") == nil)
        let failed = runner.run("echo 'Access denied' >&2; exit 3")
        #expect(failed?.contains("failed (exit status 3) (it said: Access denied)") == true, "\(failed ?? "nil")")
        // Started with no signal blocked: a command ended by SIGTERM says so.
        let ended = runner.run("kill -TERM $$; sleep 5")
        #expect(ended?.contains("ended by signal 15") == true, "\(ended ?? "nil")")
    }
}
