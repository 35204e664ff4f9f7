import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import MotionAnalysis
import MotionCore
@testable import MotionWeb
import NIOCore
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// What the web page serves from MotionAnalysis (summary API, timeline JSON, wide CSV,
/// background summaries) and how it treats a client that stops reading.
@Suite struct WebAnalysisTests {
    @Test func theSummaryAPICarriesTheAnalysisSummary() async throws {
        let f = try WebFixture()
        try f.addRecording("20260101080000", seconds: 120)
        let expected = try RecordingAnalyzer.summarize([f.folder + "/20260101080000.csv"])
        try await f.app().test(.router) { client in
            let r = try await client.execute(uri: "/api/recordings/20260101080000/summary", method: .get)
            #expect(r.status == .ok)
            let body = try #require(try JSONSerialization.jsonObject(with: Data(buffer: r.body)) as? [String: Any])
            let summary = try #require(body["summary"] as? [String: Any])
            let distance = try #require(summary["distance_m"] as? Double)
            #expect(abs(distance - expected.distanceM) < 1e-6)
            #expect(body["note"] == nil || body["note"] is NSNull)
        }
    }

    @Test func timelineJSONIsWhatExportWrites() async throws {
        let f = try WebFixture()
        try f.addRecording("20260101080000", seconds: 120)
        let result = try RecordingAnalyzer.analyze([f.folder + "/20260101080000.csv"])
        try #require(!result.summary.timeline.isEmpty)
        let expected = try TimelineExport.storyline(result)
        try await f.app().test(.router) { client in
            let r = try await client.execute(uri: "/recordings/20260101080000.timeline.json", method: .get)
            #expect(r.status == .ok)
            #expect(Array(buffer: r.body) == expected)
            #expect(r.headers[.contentDisposition]?.contains("20260101080000.timeline.json") == true)
            let page = try await client.execute(uri: "/recordings/20260101080000", method: .get)
            let html = String(buffer: page.body)
            #expect(html.contains("href=\"/recordings/20260101080000.timeline.json\""))
            // Movement per interval as bars, one per interval with movement.
            let bars = html.components(separatedBy: "<rect class=\"bar\"").count - 1
            #expect(bars >= 1 && bars == result.summary.movement.sums.filter { $0 > 0 }.count)
        }
    }

    @Test func aRecordingWithoutGPSOrMovementHasNoTimeline() async throws {
        let f = try WebFixture()
        try f.addRecording("20260101080000", seconds: 5, gps: false)
        let result = try RecordingAnalyzer.analyze([f.folder + "/20260101080000.csv"])
        try await f.app().test(.router) { client in
            let r = try await client.execute(uri: "/recordings/20260101080000.timeline.json", method: .get)
            #expect(r.status == (result.summary.timeline.isEmpty ? .notFound : .ok))
        }
    }

    /// A recording with no ticks (`motionlog import` of a GPX track: rate 0) shows no "0 Hz"
    /// and no scheduler or buffer counters, which say nothing about it.
    @Test func anImportedTrackShowsNoRateAndNoSchedulerCounters() async throws {
        let f = try WebFixture()
        try f.addRecording("20260101080000", seconds: 60)
        let path = f.folder + "/20260101080000.json"
        var meta = try #require(RecordingFiles.readMetadata(besides: f.folder + "/20260101080000.csv"))
        meta.recording.rateHz = 0
        meta.recording.board = "imported"
        meta.endReason = "imported"
        try Data(meta.encoded()).write(to: URL(fileURLWithPath: path))
        try await f.app().test(.router) { client in
            let page = String(buffer: try await client.execute(uri: "/recordings/20260101080000", method: .get).body)
            #expect(page.contains("imported") && !page.contains("0 Hz"), "\(page.prefix(1500))")
            #expect(!page.contains("No scheduler overruns") && !page.contains("No rows dropped"))
        }
    }

    /// A ride across local midnight: its day is named, and its end says it is the next
    /// day; a ride within one day has no day lines.
    @Test func aTimelineAcrossMidnightNamesTheDays() async throws {
        let f = try WebFixture()
        let midnight = try #require(LocalDay.bounds("2026-01-02")?.start)
        try f.addRecording("20260101235500", start: midnight - 300, seconds: 600)
        try f.addRecording("20260102080000", start: midnight + 8 * 3600, seconds: 600)
        try await f.app().test(.router) { client in
            let across = String(buffer: try await client.execute(uri: "/recordings/20260101235500", method: .get).body)
            #expect(across.contains("<li class=\"day\">Thu 01 Jan 2026</li>") && across.contains("–Fri 02 Jan 00:04"),
                    "\(across.components(separatedBy: "<ul class=\"timeline\">").last?.prefix(600) ?? "")")
            let within = String(buffer: try await client.execute(uri: "/recordings/20260102080000", method: .get).body)
            #expect(within.contains("<ul class=\"timeline\">") && !within.contains("<li class=\"day\">"))
        }
    }

    @Test func aRecordingWithoutGPSShowsNoDistance() async throws {
        // A night in bed has no distance, not "0 m", on its page and its card.
        let f = try WebFixture()
        try f.addRecording("20260101080000", seconds: 120, gps: false)
        try await f.app().test(.router) { client in
            let page = String(buffer: try await client.execute(uri: "/recordings/20260101080000", method: .get).body)
            #expect(page.contains("2 min") && !page.contains("<span>0 m</span>"), "\(page.prefix(1200))")
            let list = String(buffer: try await client.execute(uri: "/", method: .get).body)
            #expect(list.contains("20260101080000") && !list.contains("<span>0 m</span>"))
            let api = try await client.execute(uri: "/api/recordings", method: .get)
            let entries = try #require(try JSONSerialization.jsonObject(with: Data(buffer: api.body)) as? [[String: Any]])
            #expect(entries.first?["distance_m"] is NSNull, "\(entries)")
        }
    }

    @Test func wideCSVStreamsOneLinePerTick() async throws {
        let f = try WebFixture()
        try f.addRecording("20260101080000", seconds: 30)
        var produced: [UInt8] = []
        var export = WideCSVExport { produced += $0 }
        try export.convert([f.folder + "/20260101080000.csv"])
        let expected = produced
        try await f.app().test(.router) { client in
            let r = try await client.execute(uri: "/recordings/20260101080000.wide.csv", method: .get)
            #expect(r.status == .ok)
            #expect(Array(buffer: r.body) == expected)
            let text = String(buffer: r.body)
            #expect(text.hasPrefix("time,label,ax,ay,az,"))
            #expect(text.split(separator: "\n").count == 1 + 300)   // header + one line per 10 Hz tick (L joins its tick)
            let head = try await client.execute(uri: "/recordings/20260101080000.wide.csv", method: .head)
            #expect(head.status == .ok && head.body.readableBytes == 0)
        }
    }

    @Test func finishedRecordingsGetTheirSummaryInTheBackground() async throws {
        let f = try WebFixture()
        try f.addRecording("20260101080000", seconds: 60)
        try f.addRecording("20260102080000", start: 1_790_086_400, seconds: 60, endedCleanly: false, endReason: "recording")
        let live = FakeLive()
        live.state.withLock { $0.status = "recording"; $0.currentFile = f.folder + "/20260102080000.csv" }
        let (rounds, roundDone) = AsyncStream<Int>.makeStream()
        try await f.app(live: live, summaryRounds: { roundDone.yield($0) }).test(.router) { client in
            #expect(!f.exists("20260101080000.summary.json"))
            let first = try await client.execute(uri: "/api/recordings", method: .get)
            #expect(first.status == .ok)
            var it = rounds.makeAsyncIterator()
            #expect(await it.next() == 1)      // the finished one; never the one being written
            #expect(f.exists("20260101080000.summary.json"))
            #expect(!f.exists("20260102080000.summary.json"))
            // The one being written: `summary` is null (the key is there) with a note why.
            let writing = try await client.execute(uri: "/api/recordings/20260102080000/summary", method: .get)
            let body = try JSONSerialization.jsonObject(with: Data(buffer: writing.body)) as? [String: Any]
            #expect(body?["summary"] is NSNull && (body?["note"] as? String)?.hasPrefix("being written") == true, "\(String(buffer: writing.body).prefix(300))")
            let again = try await client.execute(uri: "/api/recordings", method: .get)
            let list = try JSONSerialization.jsonObject(with: Data(buffer: again.body)) as? [[String: Any]]
            let finished = list?.first { $0["name"] as? String == "20260101080000" }
            #expect((finished?["distance_m"] as? Double).map { $0 > 0 } == true)
        }
    }

    @Test func aClientThatStopsReadingIsCutOffAndFreesItsSlot() async throws {
        let f = try WebFixture()
        try f.addRecording("20260101080000")
        try SlowReader.writeLargeFile(f.folder + "/20260102080000.csv")
        let (ends, ended) = AsyncStream<Void>.makeStream()
        // The test client opens its connection at once and sends nothing until the stall is
        // over: on a loaded machine that took longer than the 30 s request deadline, which
        // then closed the idle connection ("Connection reset by peer"). Not what is tested.
        try await f.app(maxDownloads: 1, stalled: (.milliseconds(200), { ended.yield() }), requestTimeout: .seconds(600)).test(.live) { client in
            let sock = try SlowReader.connect(port: try #require(client.port))
            defer { close(sock) }
            let request = Array("GET /recordings/20260102080000.csv HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
            #expect(request.withUnsafeBytes { send(sock, $0.baseAddress, $0.count, 0) } == request.count)
            // The client never reads: the server closes it and frees the only slot.
            var it = ends.makeAsyncIterator()
            await it.next()
            let other = try await client.execute(uri: "/recordings/20260101080000.csv", method: .get)
            #expect(other.status == .ok)
            // What the stalled client got is less than the file: it was cut off, not served.
            var received = 0
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let n = buffer.withUnsafeMutableBytes { recv(sock, $0.baseAddress, $0.count, 0) }
                if n <= 0 { break }
                received += n
            }
            #expect(received < 48 << 20)
        }
    }
}

/// A DELETE and a ZIP's hold on a name exclude each other, so a ZIP never announces a file
/// a DELETE then removes: the hold is taken before the ZIP looks up, opens or sizes its
/// files (it was taken after, and a DELETE in that gap cut the ZIP short, unlogged).
@Suite struct WebZipDeleteRaceTests {
    /// A DELETE arriving once the ZIP holds its names, while it has not yet opened or sized
    /// them, is refused; the ZIP then sends every file whole.
    @Test func aDeleteWhileAZipSizesItsFilesIsRefused() async throws {
        let f = try WebFixture()
        try f.addRecording("20260101080000")
        try f.addRecording("20260101090000")
        let (entered, enteredC) = AsyncStream.makeStream(of: Void.self)
        let (go, goC) = AsyncStream.makeStream(of: Void.self)
        try await f.app(zipHeld: {
            enteredC.yield()
            for await _ in go { break }
        }).test(.live) { client in
            let port = try #require(client.port)
            let page = try await client.execute(uri: "/", method: .get)
            let token = try #require(csrfToken(in: String(buffer: page.body)))
            async let zip = client.execute(uri: "/download.zip?all=1", method: .get)
            for await _ in entered { break }
            // On its own connection (the test client's waits for the ZIP).
            let answer = await RawHTTP.onThread { (try? RawHTTP.exchange(port: port,
                "DELETE /api/recordings/20260101080000 HTTP/1.1\r\nHost: 127.0.0.1\r\nX-CSRF-Token: \(token)\r\nConnection: close\r\n\r\n")) ?? "" }
            #expect(answer.hasPrefix("HTTP/1.1 409"), "\(answer)")
            goC.yield()
            let response = try await zip
            #expect(response.status == .ok)
            #expect(response.headers[.contentLength] == "\(response.body.readableBytes)")
            let body = String(decoding: response.body.readableBytesView, as: UTF8.self)
            #expect(body.contains("20260101080000.csv") && body.contains("20260101090000.csv"))
            #expect(f.exists("20260101080000.csv"))
        }
    }

    /// A DELETE being carried out when a ZIP takes its hold: the ZIP leaves the recording
    /// out; a DELETE while a ZIP holds the name gets no claim (409).
    @Test func aDeleteClaimAndAZipHoldExcludeEachOther() throws {
        let f = try WebFixture()
        let app = WebApp(configuration: WebConfiguration(folder: f.folder, listen: ListenAddress(host: "127.0.0.1", port: 0)),
                         log: Logger(label: "test"), verify: { _, _ in false })
        let claim = try #require(DeleteClaim(app: app, name: "x"))
        let hold = ZipHold(app: app, names: ["x", "y"])
        #expect(hold.names == ["y"])
        #expect(DeleteClaim(app: app, name: "y") == nil)
        claim.release()
        hold.release()
        #expect(app.zipping.withLock { $0 } == HeldNames())
        do { _ = DeleteClaim(app: app, name: "y") }
        #expect(app.zipping.withLock { $0 } == HeldNames())
    }

    /// A file the ZIP has announced but cannot read whole (removed outside the server) breaks
    /// the connection off short of the announced length; the response does not end cleanly.
    @Test func aFileRemovedBehindTheServersBackBreaksTheZipOff() async throws {
        let f = try WebFixture()
        try f.addRecording("20260101080000")
        try SlowReader.writeLargeFile(f.folder + "/20260102080000.csv")
        try await f.app().test(.live) { client in
            // Default buffers (48 MiB is still far more than they hold): a 4 KiB one is slow.
            let sock = try RawHTTP.connect(port: try #require(client.port))
            defer { close(sock) }
            var timeout = timeval(tv_sec: 60, tv_usec: 0)
            setsockopt(sock, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            let request = Array("GET /download.zip?name=20260102080000&name=20260101080000 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
            #expect(request.withUnsafeBytes { send(sock, $0.baseAddress, $0.count, 0) } == request.count)
            let received = await RawHTTP.onThread { () -> [UInt8] in
                var received = [UInt8]()
                var buffer = [UInt8](repeating: 0, count: 65536)
                while received.firstRange(of: Array("\r\n\r\n".utf8)) == nil {
                    let n = buffer.withUnsafeMutableBytes { recv(sock, $0.baseAddress, $0.count, 0) }
                    if n <= 0 { break }
                    received += buffer.prefix(n)
                }
                return received
            }
            try #require(received.firstRange(of: Array("\r\n\r\n".utf8)) != nil)
            // The small file's turn comes only after the 48 MiB one, which waits for us.
            #expect(unlink(f.folder + "/20260101080000.csv") == 0)
            let (head, total) = await RawHTTP.onThread { () -> (head: String, total: Int) in
                var all = received
                var chunk = [UInt8](repeating: 0, count: 65536)
                while true {
                    let n = chunk.withUnsafeMutableBytes { recv(sock, $0.baseAddress, $0.count, 0) }
                    if n <= 0 { break }
                    all += chunk.prefix(n)
                }
                let end = all.firstRange(of: Array("\r\n\r\n".utf8))?.upperBound ?? 0
                return (String(decoding: all[..<end], as: UTF8.self), all.count - end)
            }
            let announced = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) }
            let length = try #require(announced)
            #expect(head.hasPrefix("HTTP/1.1 200"))
            #expect(total > 48 << 20 && total < length, "\(total) of \(length)")
        }
    }
}

/// One HTTP exchange on a raw blocking socket: `text` sent, everything read until the
/// server closes (the request should say `Connection: close`).
enum RawHTTP {
    /// Runs blocking socket calls on a thread of their own: on the cooperative pool (two
    /// threads on a two-core machine) they starved the server under test.
    static func onThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: body()) }.start()
        }
    }

    static func exchange(port: Int, _ text: String) throws -> String {
        let sock = try connect(port: port)
        defer { close(sock) }
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(sock, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let bytes = Array(text.utf8)
        guard bytes.withUnsafeBytes({ send(sock, $0.baseAddress, $0.count, 0) }) == bytes.count else { throw Failure() }
        var all = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(sock, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            all += chunk.prefix(n)
        }
        return String(decoding: all, as: UTF8.self)
    }

    /// A TCP connection to 127.0.0.1:`port` with the system's buffers.
    static func connect(port: Int) throws -> Int32 {
        let sock = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard sock >= 0 else { throw Failure() }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(sock, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(sock)
            throw Failure()
        }
        return sock
    }

    struct Failure: Error {}
}

/// A client that reads slowly or not at all, on a raw socket.
enum SlowReader {
    /// A 48 MiB file: more than the kernel's socket buffers hold on both sides.
    static func writeLargeFile(_ path: String) throws {
        let line = Array(repeating: UInt8(ascii: "x"), count: 1023) + [0x0A]
        let fd = open(path, O_WRONLY | O_CREAT, 0o644)
        try #require(fd >= 0)
        defer { close(fd) }
        for _ in 0..<48 { line.withUnsafeBufferPointer { l in
            var chunk = [UInt8](); chunk.reserveCapacity(1 << 20)
            for _ in 0..<1024 { chunk += l }
            _ = chunk.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        } }
    }

    /// A TCP connection to 127.0.0.1:`port` with a 4 KiB receive buffer.
    static func connect(port: Int) throws -> Int32 {
        let sock = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(sock >= 0)
        var small: Int32 = 4096
        setsockopt(sock, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(sock, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if connected != 0 { close(sock) }
        try #require(connected == 0)
        return sock
    }
}

/// A recording in a ZIP being downloaded is not deleted meanwhile: the ZIP opens each file
/// when it reaches it, after announcing its length, and a deletion cut the download short
/// (curl: partial file; unzip: no central directory).
@Suite struct WebZipDeleteTests {
    @Test func aRecordingInARunningZipIsNotDeleted() async throws {
        let f = try WebFixture()
        try f.addRecording("20260101080000")
        try SlowReader.writeLargeFile(f.folder + "/20260102080000.csv")
        try await f.app().test(.live) { client in
            let sock = try SlowReader.connect(port: try #require(client.port))
            defer { close(sock) }
            // The big file first: the small one's turn comes only after 48 MiB are read.
            let request = Array("GET /download.zip?name=20260102080000&name=20260101080000 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
            #expect(request.withUnsafeBytes { send(sock, $0.baseAddress, $0.count, 0) } == request.count)
            var head = [UInt8](repeating: 0, count: 512)
            let n = head.withUnsafeMutableBytes { recv(sock, $0.baseAddress, $0.count, 0) }
            #expect(n > 0 && String(decoding: head.prefix(max(n, 0)), as: UTF8.self).hasPrefix("HTTP/1.1 200"))
            let page = try await client.execute(uri: "/", method: .get)
            let token = try #require(csrfToken(in: String(buffer: page.body)))
            let refused = try await client.execute(uri: "/api/recordings/20260101080000", method: .delete, headers: [.csrfToken: token])
            #expect(refused.status == .conflict, "\(String(buffer: refused.body))")
            #expect(String(buffer: refused.body).contains("in a ZIP being downloaded right now"))
            #expect(f.exists("20260101080000.csv"))
        }
    }

    /// The hold ends with the download, or when it is dropped without being sent.
    @Test func aZipHoldIsReleasedOnceAndWhenDropped() throws {
        let f = try WebFixture()
        let app = WebApp(configuration: WebConfiguration(folder: f.folder, listen: ListenAddress(host: "127.0.0.1", port: 0)),
                         log: Logger(label: "test"), verify: { _, _ in false })
        let a = ZipHold(app: app, names: ["x", "y"])
        let b = ZipHold(app: app, names: ["x"])
        #expect(app.zipping.withLock { $0.zips } == ["x": 2, "y": 1])
        a.release(); a.release()
        #expect(app.zipping.withLock { $0.zips } == ["x": 1])
        _ = b
        do { _ = ZipHold(app: app, names: ["z"]) }
        #expect(app.zipping.withLock { $0.zips["z"] } == nil)
    }
}

/// The list's kept snapshot: reused while the folder is unchanged, never stale.
@Suite struct WebListSnapshotTests {
    static func sizes(_ client: some TestClientProtocol) async throws -> [String: Int] {
        let r = try await client.execute(uri: "/api/recordings", method: .get)
        let list = try JSONSerialization.jsonObject(with: Data(buffer: r.body)) as? [[String: Any]] ?? []
        var out: [String: Int] = [:]
        for item in list { if let n = item["name"] as? String, let s = item["size_bytes"] as? Int { out[n] = s } }
        return out
    }

    static func append(_ path: String, _ text: String) throws {
        let h = try #require(FileHandle(forWritingAtPath: path))
        try h.seekToEnd()
        try h.write(contentsOf: Data(text.utf8))
        try h.close()
    }

    @Test func aGrowingRecordingAndNewFilesShowInTheNextListing() async throws {
        let f = try WebFixture()
        try f.addRecording("20260101080000")
        try f.addRecording("20260102080000", endedCleanly: false, endReason: "recording")
        try await f.app().test(.router) { client in
            let before = try await Self.sizes(client)
            #expect(before.count == 2)
            // Rows appended in place (the folder itself does not change).
            try Self.append(f.folder + "/20260102080000.csv", "A,W,1790000100.0,0.1,0.2,0.3\n")
            let grown = try await Self.sizes(client)
            #expect(grown["20260102080000"] == (before["20260102080000"] ?? 0) + 29)
            // A new recording changes the folder.
            try f.addRecording("20260103080000", start: 1_790_200_000)
            let more = try await Self.sizes(client)
            #expect(more.count == 3)
        }
    }

    @Test func aFolderChangedInTheLastSecondsIsAlwaysRescanned() async throws {
        let f = try WebFixture()
        try f.addRecording("20260101080000")
        let clock = TestClock()
        clock.now.withLock { $0 = Date().timeIntervalSince1970 }
        try await f.app(clock: clock).test(.router) { client in
            let before = try await Self.sizes(client)
            // Even a file that ended cleanly is re-stat'ed while the folder is this fresh.
            try Self.append(f.folder + "/20260101080000.csv", "A,W,1790000100.0,0.1,0.2,0.3\n")
            let after = try await Self.sizes(client)
            #expect(after["20260101080000"] == (before["20260101080000"] ?? 0) + 29)
        }
    }
}
