import Foundation
import Logging
import MotionCore
@testable import MotionWeb
import Testing

/// Stopping the web server (`RunningWebServer.stop`, as `systemctl stop` of the daemon does)
/// logs no error: what Hummingbird and NIO log about being cancelled then is debug
/// (`QuietWhenStopping`). Before, every clean stop left "Waiting on child channel:
/// CancellationError()" and "Server shutdown error: Already closed" in the journal as errors.
@Suite struct WebStopTests {
    @Test func aCleanStopLogsNoError() async throws {
        let log = LogLines()
        let folder = NSTemporaryDirectory() + "motionlog-webstop-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let web = try WebServer(configuration: WebConfiguration(folder: folder, listen: ListenAddress(host: "127.0.0.1", port: 0)),
                                log: log.logger)
        let server = try await web.start()
        server.stop()
        await server.task.value
        let seen = log.leveled
        #expect(seen.contains { $0.level == .info }, "\(seen)")   // (the handler saw the server start)
        #expect(!seen.contains { $0.level >= .error }, "\(seen)")
    }
}
