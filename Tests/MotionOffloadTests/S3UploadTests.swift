import Foundation
import MotionCore
@testable import MotionOffload
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The real rclone against an S3 server on loopback (moto, from PyPI, in a virtual
/// environment the test makes under .build): what a research group's bucket sees.
@Suite("Upload to S3 (moto on loopback)", .serialized)
struct S3UploadTests {
    let t0 = 1_763_735_405.0

    static var repo: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }

    /// `moto_server` in `.build/venv-s3`, installed on first use; nil (with the reason
    /// printed) when python3 or PyPI cannot be had.
    static let motoServer: String? = {
        let venv = repo + "/.build/venv-s3"
        let server = venv + "/bin/moto_server"
        if FileManager.default.isExecutableFile(atPath: server) { return server }
        let runner = SystemProcessRunner()
        let make = runner.run("python3", ["-m", "venv", venv], environment: [:])
        let install = make.status == 0 ? runner.run(venv + "/bin/pip", ["install", "-q", "moto[server]"], environment: [:]) : make
        if install.status != 0 || !FileManager.default.isExecutableFile(atPath: server) {
            print("S3 tests skipped: cannot install moto[server] in \(venv): \(install.output.suffix(300))")
            return nil
        }
        return server
    }()

    static var available: Bool { SystemProcessRunner.find("rclone") != nil && motoServer != nil }

    /// A free TCP port on loopback: bind to port 0 and read back what the kernel chose.
    static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) } }
        _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        return Int(UInt16(bigEndian: addr.sin_port))
    }

    /// Waits (bounded, 30 s) until something accepts connections on `port`.
    static func waitUntilListening(_ port: Int) -> Bool {
        for _ in 0..<300 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var addr = sockaddr_in()
            addr.sin_family = sa_family_t(AF_INET)
            addr.sin_port = UInt16(port).bigEndian
            addr.sin_addr.s_addr = inet_addr("127.0.0.1")
            let ok = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } } == 0
            close(fd)
            if ok { return true }
            usleep(100_000)
        }
        return false
    }

    /// A moto server on a free loopback port.
    final class Moto: @unchecked Sendable {
        let port: Int
        private var process: Process?
        init() { port = S3UploadTests.freePort() }
        func start() throws {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: try #require(S3UploadTests.motoServer))
            p.arguments = ["-H", "127.0.0.1", "-p", "\(port)"]
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            process = p
            guard S3UploadTests.waitUntilListening(port) else { throw TestFailure("moto_server did not start on port \(port)") }
        }
        func stop() {
            guard let p = process else { return }
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
            process = nil
        }
        var environment: [String: String] { environment(port: port) }
        func environment(port: Int) -> [String: String] {
            ["RCLONE_CONFIG": "/dev/null", "RCLONE_CONFIG_BUCKET_TYPE": "s3", "RCLONE_CONFIG_BUCKET_PROVIDER": "Other",
             "RCLONE_CONFIG_BUCKET_ENDPOINT": "http://127.0.0.1:\(port)", "RCLONE_CONFIG_BUCKET_ACCESS_KEY_ID": "test",
             "RCLONE_CONFIG_BUCKET_SECRET_ACCESS_KEY": "test", "RCLONE_CONFIG_BUCKET_REGION": "us-east-1",
             "RCLONE_CONFIG_BUCKET_FORCE_PATH_STYLE": "true",
             // A CA bundle in the environment makes rclone's S3 client refuse a plain-HTTP endpoint.
             "AWS_CA_BUNDLE": ""]
        }
    }

    @Test(.enabled(if: available, "needs rclone and moto[server] (make deps; pip)"))
    func everyRecordingArrivesInTheBucketWithItsChecksumEvenWhenTheServerWasAwayAtFirst() throws {
        let source = RecordingFolder()
        defer { source.remove() }
        try source.addFinished("20251121142005", start: t0, rows: 20_000)
        try source.addFinished("20251121152005", start: t0 + 3600, rows: 20_000)
        let moto = Moto()
        defer { moto.stop() }
        var options = RemoteUploadOptions(remote: "bucket:rides")
        options.attempts = 3
        options.firstRetryDelay = 1
        let runner = EnvironmentRunner(moto.environment)
        var job = RemoteUpload(source: source.path, host: "pi", options: options, runner: runner)
        // The server is away at the first attempt and comes back before the retry.
        let retries = Mutex(0)
        job.sleep = { _ in
            retries.withLock { $0 += 1 }
            try? moto.start()
        }
        let report = try job.run()
        #expect(retries.withLock { $0 } == 1)
        #expect(report.uploaded == ["20251121142005", "20251121152005"] && report.complete, "\(report.lines())")
        // What the bucket holds, read back with rclone and hashed here.
        for name in ["20251121142005.csv", "20251121142005.json", "20251121152005.csv", "20251121152005.json"] {
            let copy = NSTemporaryDirectory() + "s3-\(UUID().uuidString)"
            defer { unlink(copy) }
            let got = runner.run("rclone", ["copyto", "bucket:rides/pi/" + name, copy], environment: [:])
            #expect(got.status == 0, "\(got.output)")
            #expect(try sha256sum(copy) == (try sha256sum(source.path + "/" + name)), "\(name)")
        }
        let manifest = runner.run("rclone", ["cat", "bucket:rides/pi/manifest.csv"], environment: [:])
        #expect(manifest.output.hasPrefix("file,size_bytes,sha256,copied_at") && manifest.output.contains("20251121152005.csv,"))
        // Nothing is sent twice, and nothing was deleted (not configured).
        let again = try job.run()
        #expect(again.uploaded.isEmpty && again.alreadySent.count == 2)
        #expect(source.bytes("20251121142005.csv") != nil)
    }

    @Test(.enabled(if: available, "needs rclone and moto[server] (make deps; pip)"))
    func aServerThatGoesAwayMidTransferIsRetriedAndEveryFileArrivesIntact() throws {
        let source = RecordingFolder()
        defer { source.remove() }
        try source.addFinished("20251121142005", start: t0, rows: 40_000)
        let moto = Moto()
        try moto.start()
        defer { moto.stop() }
        // rclone talks to the proxy, which resets the upload after 300 kB and then refuses
        // connections until the backoff wakes it.
        let proxyPort = Self.freePort()
        let proxy = Process()
        proxy.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        proxy.arguments = ["python3", Self.repo + "/Tests/Fixtures/offload/cutting_proxy.py", "\(proxyPort)", "\(moto.port)", "300000"]
        proxy.standardOutput = FileHandle.nullDevice
        try proxy.run()
        defer { kill(proxy.processIdentifier, SIGKILL); proxy.waitUntilExit() }
        #expect(Self.waitUntilListening(proxyPort))
        let runner = EnvironmentRunner(moto.environment(port: proxyPort))
        var options = RemoteUploadOptions(remote: "bucket:rides")
        options.attempts = 3
        var job = RemoteUpload(source: source.path, host: "pi", options: options, runner: runner)
        let retries = Mutex(0)
        job.sleep = { _ in
            retries.withLock { $0 += 1 }
            kill(proxy.processIdentifier, SIGUSR1)
        }
        let report = try job.run()
        #expect(retries.withLock { $0 } >= 1, "the transfer was never interrupted")
        #expect(report.uploaded == ["20251121142005"] && report.complete, "\(report.lines())")
        for name in ["20251121142005.csv", "20251121142005.json"] {
            let copy = NSTemporaryDirectory() + "s3-\(UUID().uuidString)"
            defer { unlink(copy) }
            let got = EnvironmentRunner(moto.environment).run("rclone", ["copyto", "bucket:rides/pi/" + name, copy], environment: [:])
            #expect(got.status == 0, "\(got.output)")
            #expect(try sha256sum(copy) == (try sha256sum(source.path + "/" + name)), "\(name)")
        }
    }
}
