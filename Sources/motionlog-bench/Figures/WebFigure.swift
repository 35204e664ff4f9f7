import Foundation
import MotionCore
import MotionSystem

/// Figure 7: the web page (issue 13, `motionlog serve` on Hummingbird), three questions in
/// one run:
///
/// 1. **Download.** A real recording of about 500 MB (`record --fast --rate 1000`, all
///    sources) fetched with `curl -o /dev/null` from `motionlog serve`, next to `cat FILE >
///    /dev/null` (the floor: reading the page cache) and Debian's nginx serving the same
///    folder (`sendfile on`), started here as a non-daemon child with a generated config.
///    Warm page cache; serve idle (its background summary of the recording done first);
///    the rounds rotate the order of the three; best of the rounds.
/// 2. **List.** `GET /api/recordings` and `GET /` for a folder of 10 000 small recordings
///    (copies of one real 1-second recording, each with its own start time, name and id).
///    serve computes a summary of every recording in the background (nice 19) and caches
///    it beside the CSV; the figure measures the very first listing (nothing read yet),
///    waits until those summaries are done, then per page: a first request after every
///    metadata file was rewritten by rename, as the recorder writes it (the server's cache
///    no longer matches a file, and the folder itself changed), with the pages of the
///    metadata and summaries dropped from the page cache; then the median of warm requests
///    (curl's `time_total`).
/// 3. **Sampler.** Overruns of `motionlog record --rate 1000` on the real clock, alone,
///    while a loop downloads the big recording from serve again and again, and (the
///    baseline for "any fast download") while the loop downloads it from nginx, in
///    alternating segments (alone, serve, nginx, nginx, serve, alone, ...) so all sides
///    see the same machine load. Counters come from the metadata JSON the recorder writes.
enum WebFigure {
    /// One way of reading the big recording.
    struct Download: Codable, Sendable {
        var who: String
        var command: String
        /// Wall time of each round (child process start to exit), seconds.
        var roundsSeconds: [Double]
        var bestSeconds: Double
        var megabytesPerSecond: Double
        /// curl's own `time_total` in the best round (servers only).
        var transferSeconds: Double?
        /// CPU seconds of the client (cat or curl) and of the server in the best round.
        var clientCPUSeconds: Double
        var serverCPUSeconds: Double?
    }

    /// One page of the 10 000-recording folder (curl's `time_total`, seconds).
    struct ListTiming: Codable, Sendable {
        var path: String
        var status: Int
        var responseBytes: Int64
        /// After every metadata file was rewritten by rename and the pages of them and of
        /// the cached summaries dropped: the server rereads all of them.
        var firstSeconds: Double
        var warmRequests: Int
        var warmMedianSeconds: Double
        var warmMinSeconds: Double
        var warmMaxSeconds: Double
        /// The server's CPU seconds per warm request (from /proc/PID/stat, 10 ms ticks
        /// summed over all warm requests).
        var warmServerCPUSeconds: Double?
    }

    /// One side of the sampler comparison, its segments summed.
    struct SamplerSide: Codable, Sendable {
        var withDownload: Bool
        /// Who served the concurrent download: `motionlog serve`, `nginx`; nil when alone.
        var server: String?
        var seconds: Double
        var segments: Int
        /// `A` rows written: one per tick taken.
        var ticks: Int64
        var overruns: Int64
        var missedTicks: Int64
        var droppedRows: Int64
        /// Downloads completed while this side recorded, their bytes, the loop's throughput.
        var downloads: Int?
        var downloadedBytes: Int64?
        var downloadMegabytesPerSecond: Double?
        var downloadFailures: Int?
        var downloadFailure: String?
        /// motionlog's own summary of each segment.
        var summary: [String]
    }

    struct Result: Codable, Sendable {
        var recordingSeconds: Double
        /// The served recording: its name (NAME.csv, NAME.json beside it) and CSV bytes.
        var name: String
        var bytes: Int64
        var downloads: [Download] = []
        /// serve's throughput as a share of nginx's and of cat's.
        var serveToNginx: Double?
        var serveToCat: Double?
        var nginxVersion: String?
        /// Seconds from serve's start on the download folder until it was idle (its
        /// background summary of the recording done); nil: still busy at the limit.
        var serveSettleSeconds: Double?
        var listRecordings: Int
        /// The very first `GET /api/recordings` of the folder (no metadata read, no
        /// summaries yet), and the seconds until serve was idle after it (the background
        /// summaries of every recording), with the number of summaries then cached.
        var listInitialSeconds: Double?
        var listSettleSeconds: Double?
        var listSummaryFiles: Int?
        var lists: [ListTiming] = []
        var sampler: [SamplerSide] = []
        /// Parts that could not be measured, with the reason.
        var unavailable: [String: String] = [:]
    }

    static func run(_ ctx: BenchContext) throws(BenchError) -> Result {
        guard let motionlog = ctx.motionlogPath else {
            throw BenchError("the motionlog executable was not found next to motionlog-bench: build it (swift build -c release) or pass --motionlog PATH")
        }
        let plan = ctx.plan
        let seconds = plan.webRecordingSeconds
        let big = try ctx.folder("web-download")
        defer { ctx.remove(big) }
        ctx.progress("web: recording \(Int(seconds)) s at 1 kHz on the simulator (--fast) to serve for download")
        let rec = try ChildProcess.run(motionlog, ["record", "--board", "simulator", "--boards-dir", ctx.repo + "/boards", "--fast",
                                                   "--duration", "\(Int(seconds))", "--rate", "1000", "--out", big, "--quiet"],
                                       scratch: ctx.work)
        guard rec.succeeded else { throw BenchError(rec.failure) }
        let (name, bytes) = try largestRecording(big)
        var result = Result(recordingSeconds: seconds, name: name, bytes: bytes, listRecordings: plan.webListRecordings)

        let serve = try Server.serve(motionlog, folder: big, ctx)
        defer { serve.process.stop() }
        ctx.progress("web: waiting until serve is idle (it summarises the recording in the background)")
        result.serveSettleSeconds = serve.settle(limit: ctx.plan.webSettleLimitSeconds)
        if result.serveSettleSeconds == nil { ctx.progress("web: serve still busy after \(Int(ctx.plan.webSettleLimitSeconds)) s; measuring anyway") }

        var nginx: Server?
        do {
            nginx = try Server.nginx(root: big, ctx)
            result.nginxVersion = nginx?.version
        } catch {
            result.unavailable["nginx"] = error.description
            ctx.progress("web: nginx not measured — \(error)")
        }
        defer { nginx?.process.stop() }

        try measureDownloads(ctx, folder: big, name: name, bytes: bytes, serve: serve, nginx: nginx, into: &result)

        do {
            try measureList(ctx, motionlog: motionlog, into: &result)
        } catch {
            result.unavailable["list"] = error.description
            ctx.progress("web: list not measured — \(error)")
        }

        do {
            var loads: [(String, String)] = [("motionlog serve", serve.base + "/recordings/" + name + ".csv")]
            if let n = nginx, result.unavailable["nginx"] == nil { loads.append(("nginx", n.base + "/" + name + ".csv")) }
            result.sampler = try measureSampler(ctx, motionlog: motionlog, downloads: loads, bytes: bytes, serve: serve)
        } catch {
            result.unavailable["sampler"] = error.description
            ctx.progress("web: sampler not measured — \(error)")
        }
        return result
    }

    // MARK: - 1. Download

    private enum Side: CaseIterable { case cat, serve, nginx }

    private struct Sample {
        var wall: Double
        var transfer: Double?
        var clientCPU: Double
        var serverCPU: Double?
    }

    private static func measureDownloads(_ ctx: BenchContext, folder: String, name: String, bytes: Int64, serve: Server,
                                         nginx: Server?, into result: inout Result) throws(BenchError) {
        let file = folder + "/" + name + ".csv"
        let catArgs = ["-c", "exec cat \"$1\" > /dev/null", "sh", file]
        // Warm the page cache (the recording was just written, but make sure all of it is in).
        _ = try? ChildProcess.run("sh", catArgs, scratch: ctx.work)

        var samples: [Side: [Sample]] = [:]
        let rounds = max(1, ctx.plan.webDownloadRounds)
        ctx.progress("web: downloading \(Fmt.f(Double(bytes) / 1e6, 0)) MB, \(rounds) rounds of cat, motionlog serve\(nginx == nil ? "" : " and nginx")")
        for round in 0..<rounds {
            let order = Side.allCases.indices.map { Side.allCases[($0 + round) % Side.allCases.count] }
            for side in order {
                switch side {
                case .cat:
                    let r = try ChildProcess.run("sh", catArgs, scratch: ctx.work)
                    guard r.succeeded else { throw BenchError(r.failure) }
                    samples[.cat, default: []].append(Sample(wall: r.wallSeconds, transfer: nil,
                                                             clientCPU: r.userSeconds + r.systemSeconds, serverCPU: nil))
                case .serve:
                    let s = try download(serve, url: serve.base + "/recordings/" + name + ".csv", bytes: bytes, ctx)
                    samples[.serve, default: []].append(s)
                case .nginx:
                    guard let n = nginx, result.unavailable["nginx"] == nil else { continue }
                    do {
                        samples[.nginx, default: []].append(try download(n, url: n.base + "/" + name + ".csv", bytes: bytes, ctx))
                    } catch {
                        result.unavailable["nginx"] = error.description
                        ctx.progress("web: nginx not measured — \(error)")
                    }
                }
            }
        }
        if result.unavailable["nginx"] != nil { samples[.nginx] = nil }

        func side(_ s: Side, who: String, command: String) -> Download? {
            guard let all = samples[s], let best = all.min(by: { $0.wall < $1.wall }) else { return nil }
            return Download(who: who, command: command, roundsSeconds: all.map(\.wall), bestSeconds: best.wall,
                            megabytesPerSecond: best.wall > 0 ? Double(bytes) / 1e6 / best.wall : 0,
                            transferSeconds: best.transfer, clientCPUSeconds: best.clientCPU, serverCPUSeconds: best.serverCPU)
        }
        let cat = side(.cat, who: "cat", command: "cat <csv> > /dev/null")
        let ours = side(.serve, who: "motionlog serve", command: "curl -o /dev/null http://127.0.0.1:PORT/recordings/<name>.csv")
        let theirs = side(.nginx, who: "nginx" + (result.nginxVersion.map { " " + $0 } ?? ""),
                          command: "curl -o /dev/null http://127.0.0.1:PORT/<name>.csv")
        result.downloads = [cat, ours, theirs].compactMap { $0 }
        if let o = ours, let n = theirs, n.megabytesPerSecond > 0 { result.serveToNginx = o.megabytesPerSecond / n.megabytesPerSecond }
        if let o = ours, let c = cat, c.megabytesPerSecond > 0 { result.serveToCat = o.megabytesPerSecond / c.megabytesPerSecond }
    }

    /// One timed download with curl; the whole file must arrive with status 200.
    private static func download(_ server: Server, url: String, bytes: Int64, _ ctx: BenchContext) throws(BenchError) -> Sample {
        let before = server.process.cpuSecondsSoFar
        let r = try ChildProcess.run("curl", Curl.arguments(url, maxTime: 600), scratch: ctx.work)
        let after = server.process.cpuSecondsSoFar
        guard r.succeeded else { throw BenchError(r.failure) }
        guard let t = Curl.Timing(r.stdout) else { throw BenchError("curl printed no timing for \(url): \(r.stdout.prefix(200))") }
        guard t.status == 200, t.bytes == bytes else {
            throw BenchError("\(url) answered \(t.status) with \(t.bytes) of \(bytes) bytes")
        }
        return Sample(wall: r.wallSeconds, transfer: t.seconds, clientCPU: r.userSeconds + r.systemSeconds,
                      serverCPU: before.flatMap { b in after.map { $0 - b } })
    }

    // MARK: - 2. List

    private static func measureList(_ ctx: BenchContext, motionlog: String, into result: inout Result) throws(BenchError) {
        let plan = ctx.plan
        let template = try ctx.folder("web-list-template")
        defer { ctx.remove(template) }
        // One real, small recording: 1 s at 10 Hz, all sources.
        let rec = try ChildProcess.run(motionlog, ["record", "--board", "simulator", "--boards-dir", ctx.repo + "/boards", "--fast",
                                                   "--duration", "1", "--rate", "10", "--out", template, "--quiet"],
                                       scratch: ctx.work)
        guard rec.succeeded else { throw BenchError(rec.failure) }
        let (base, _) = try largestRecording(template)
        guard let csv = FileManager.default.contents(atPath: template + "/" + base + ".csv"),
              let jsonData = FileManager.default.contents(atPath: RecordingFiles.metadataPath(for: template + "/" + base)),
              let metadata = try? RecordingMetadata.decode(Array(jsonData)) else {
            throw BenchError("cannot read the template recording \(base) in \(template)")
        }

        // The server starts on the empty folder, so the first list after the copies is cold.
        let folder = try ctx.folder("web-list")
        defer { ctx.remove(folder) }
        let server = try Server.serve(motionlog, folder: folder, ctx)
        defer { server.process.stop() }

        let count = plan.webListRecordings
        ctx.progress("web: writing \(count) recordings (copies of a 1 s recording)")
        var jsonPaths: [String] = []
        jsonPaths.reserveCapacity(count)
        let texts = TimeTexts()
        for i in 1...max(1, count) {
            // Copy i started i minutes before the template, with its own id and a name from
            // its start, as the recorder names files (so the list sorts real start times).
            let copy = shifted(metadata, by: -60 * Double(i), texts)
            let name = String(copy.file.name.dropLast(4))
            do {
                try csv.write(to: URL(fileURLWithPath: folder + "/" + name + ".csv"))
                try Data(copy.encoded()).write(to: URL(fileURLWithPath: RecordingFiles.metadataPath(for: folder + "/" + name)))
            } catch {
                throw BenchError("cannot write recording \(i) of \(count) into \(folder): \(error)")
            }
            jsonPaths.append(RecordingFiles.metadataPath(for: folder + "/" + name))
        }
        ctx.progress("web: \(count) recordings written; listing them")

        // The very first listing: every metadata file read from the disk, no summaries yet
        // (it starts the background summaries, which the server then computes).
        dropPages(files: jsonPaths)
        let initial = try timedGet(server.base + "/api/recordings", ctx)
        result.listInitialSeconds = initial.seconds
        ctx.progress("web: first listing \(Fmt.f(initial.seconds * 1000, 0)) ms; waiting until serve has summarised \(count) recordings")
        let began = Date()
        if server.settle(limit: plan.webSettleLimitSeconds) != nil {
            result.listSettleSeconds = Date().timeIntervalSince(began) + initial.seconds
        } else {
            ctx.progress("web: serve still busy after \(Int(plan.webSettleLimitSeconds)) s; measuring anyway")
        }
        let summaryPaths = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.hasSuffix(".summary.json") }.map { folder + "/" + $0 }
        result.listSummaryFiles = summaryPaths.count

        for path in ["/api/recordings", "/"] {
            // New files under the same names: no cached entry matches, and the folder changed.
            try rewriteByRename(jsonPaths)
            dropPages(files: jsonPaths + summaryPaths)
            // A folder changed in the last 2 s is rescanned on every request; past that,
            // warm requests may use the server's sorted snapshot.
            SystemClocks.sleep(nanos: 2_500_000_000)
            let url = server.base + path
            let first = try timedGet(url, ctx)
            var warm: [Double] = []
            let cpuBefore = server.process.cpuSecondsSoFar
            for _ in 0..<max(1, plan.webListWarmRequests) { warm.append(try timedGet(url, ctx).seconds) }
            let cpuAfter = server.process.cpuSecondsSoFar
            result.lists.append(ListTiming(path: path, status: first.status, responseBytes: first.bytes, firstSeconds: first.seconds,
                                           warmRequests: warm.count, warmMedianSeconds: median(warm) ?? 0,
                                           warmMinSeconds: warm.min() ?? 0, warmMaxSeconds: warm.max() ?? 0,
                                           warmServerCPUSeconds: cpuBefore.flatMap { b in cpuAfter.map { ($0 - b) / Double(warm.count) } }))
            ctx.progress("web: GET \(path): first \(Fmt.f(first.seconds * 1000, 0)) ms, warm median \(Fmt.f((median(warm) ?? 0) * 1000, 0)) ms")
        }
        try checkListed(server.base + "/api/recordings", expected: count, ctx)
    }

    /// The metadata of a recording that started `seconds` later (earlier when negative):
    /// times, file name and recording id changed, everything else the same.
    static func shifted(_ m: RecordingMetadata, by seconds: Double, _ f: TimeTexts) -> RecordingMetadata {
        var c = m
        let start = m.recording.startEpoch + seconds
        let date = Date(timeIntervalSince1970: start)
        c.recording.startEpoch = start
        c.recording.id = UUID().uuidString
        c.file.firstWhen = m.file.firstWhen.map { $0 + seconds }
        c.file.lastWhen = m.file.lastWhen.map { $0 + seconds }
        c.file.name = f.name.string(from: date) + ".csv"
        c.file.startLocal = f.local.string(from: date)
        c.recording.started = f.utc.string(from: date)
        if m.ended != nil, let last = c.file.lastWhen { c.ended = f.utc.string(from: Date(timeIntervalSince1970: last)) }
        return c
    }

    /// The recorder's time texts: file names (local `yyyyMMddHHmmss`), local ISO 8601 with
    /// offset, UTC ISO 8601 with milliseconds. Made once (formatters are costly to create).
    struct TimeTexts {
        let name = DateFormatter()
        let local = ISO8601DateFormatter()
        let utc = ISO8601DateFormatter()

        init() {
            name.locale = Locale(identifier: "en_US_POSIX")
            name.timeZone = .current
            name.dateFormat = "yyyyMMddHHmmss"
            local.timeZone = .current
            utc.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        }
    }

    private static func timedGet(_ url: String, _ ctx: BenchContext) throws(BenchError) -> Curl.Timing {
        let r = try ChildProcess.run("curl", Curl.arguments(url, maxTime: 120), scratch: ctx.work)
        guard r.succeeded else { throw BenchError(r.failure) }
        guard let t = Curl.Timing(r.stdout) else { throw BenchError("curl printed no timing for \(url): \(r.stdout.prefix(200))") }
        guard t.status == 200 else { throw BenchError("\(url) answered \(t.status)") }
        return t
    }

    /// The list must hold every recording written (else the timing is of something else).
    private static func checkListed(_ url: String, expected: Int, _ ctx: BenchContext) throws(BenchError) {
        let body = ctx.work + "/web-list.json"
        defer { try? FileSystem.remove(body) }
        let r = try ChildProcess.run("curl", ["-s", "--noproxy", "*", "--max-time", "120", "-o", body, url], scratch: ctx.work)
        guard r.succeeded else { throw BenchError(r.failure) }
        guard let data = FileManager.default.contents(atPath: body),
              let items = (try? JSONSerialization.jsonObject(with: data)) as? [Any] else {
            throw BenchError("\(url) did not answer a JSON array")
        }
        guard items.count == expected else { throw BenchError("\(url) listed \(items.count) recordings, not the \(expected) written") }
    }

    /// Writes each file anew under its name (a temporary file renamed over it, as the
    /// recorder rewrites its metadata): new inode and time stamp, same content.
    private static func rewriteByRename(_ paths: [String]) throws(BenchError) {
        for p in paths {
            guard let data = FileManager.default.contents(atPath: p) else { throw BenchError("cannot read \(p) to rewrite it") }
            let temporary = p + ".rewrite"
            do { try data.write(to: URL(fileURLWithPath: temporary)) } catch {
                throw BenchError("cannot write \(temporary): \(error)")
            }
            do { try FileSystem.rename(temporary, to: p) } catch {
                throw BenchError("cannot rename \(temporary) to \(p): \(error)")
            }
        }
    }

    /// Drops the files' pages from the page cache, so a first request reads them from the
    /// disk as after a reboot. `sync` writes them back first (only clean pages can be
    /// dropped); the dropping itself is per file (`POSIX_FADV_DONTNEED`), nothing global.
    private static func dropPages(files: [String]) {
        FileSystem.syncAll()
        for p in files {
            guard let fd = try? FileSystem.open(p, .readOnly, options: [.closeOnExec]) else { continue }
            fd.adviseDontNeed()
            try? fd.close()
        }
    }

    // MARK: - 3. Sampler

    /// `downloads`: who serves the concurrent download and its URL (serve first).
    private static func measureSampler(_ ctx: BenchContext, motionlog: String, downloads: [(String, String)], bytes: Int64,
                                       serve: Server) throws(BenchError) -> [SamplerSide] {
        let plan = ctx.plan
        let segments = max(1, plan.webSamplerSegments)
        let perSegment = max(1, Int((plan.webSamplerSeconds / Double(segments)).rounded()))
        // Side 0 records alone; side k downloads from downloads[k - 1].
        let loads: [(String, String)?] = [nil] + downloads.map { Optional($0) }
        var sides = loads.map { load in
            SamplerSide(withDownload: load != nil, server: load?.0, seconds: 0, segments: 0, ticks: 0, overruns: 0, missedTicks: 0,
                        droppedRows: 0, downloads: load == nil ? nil : 0, downloadedBytes: load == nil ? nil : 0,
                        downloadMegabytesPerSecond: nil, downloadFailures: load == nil ? nil : 0, downloadFailure: nil, summary: [])
        }
        var loopSeconds = [Double](repeating: 0, count: loads.count)
        // Alone, serve, nginx, then the other way round, ...: every side sees the same load.
        let order = (0..<segments).flatMap { $0 % 2 == 0 ? Array(loads.indices) : Array(loads.indices.reversed()) }
        for (i, k) in order.enumerated() {
            let what = loads[k].map { "while downloading from \($0.0)" } ?? "alone"
            ctx.progress("web: sampler segment \(i + 1) of \(order.count): record --rate 1000 for \(perSegment) s \(what)")
            let out = try ctx.folder("web-sampler-\(i)")
            defer { ctx.remove(out) }
            var loop: DownloadLoop?
            if let (_, url) = loads[k] {
                let l = DownloadLoop(url: url, expectedBytes: bytes, scratch: ctx.work)
                l.start()
                loop = l
                SystemClocks.sleep(nanos: 300_000_000)  // downloads flowing before the first tick
            }
            let rec: ChildResult
            do {
                rec = try ChildProcess.run(motionlog, ["record", "--board", "simulator", "--boards-dir", ctx.repo + "/boards",
                                                       "--duration", "\(perSegment)", "--rate", "1000", "--out", out, "--quiet"],
                                           scratch: ctx.work)
            } catch {
                _ = loop?.stop()
                throw error
            }
            let totals = loop?.stop()
            guard rec.succeeded else { throw BenchError(rec.failure) }
            let c = try counters(out)
            sides[k].seconds += Double(perSegment)
            sides[k].segments += 1
            sides[k].ticks += c.ticks
            sides[k].overruns += c.overruns
            sides[k].missedTicks += c.missedTicks
            sides[k].droppedRows += c.droppedRows
            sides[k].summary += (rec.stdout + rec.stderr).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty && !$0.hasPrefix(out) }.map { $0.replacingOccurrences(of: out, with: "<out>") }
            if let t = totals {
                sides[k].downloads = (sides[k].downloads ?? 0) + t.downloads
                sides[k].downloadedBytes = (sides[k].downloadedBytes ?? 0) + t.bytes
                sides[k].downloadFailures = (sides[k].downloadFailures ?? 0) + t.failures
                if let f = t.lastFailure { sides[k].downloadFailure = f }
                loopSeconds[k] += t.seconds
            }
        }
        for k in sides.indices where loopSeconds[k] > 0 {
            if let b = sides[k].downloadedBytes { sides[k].downloadMegabytesPerSecond = Double(b) / 1e6 / loopSeconds[k] }
        }
        if !serve.process.isRunning { throw BenchError("motionlog serve ended during the sampler runs: \(serve.process.result.failure)") }
        return sides
    }

    private struct Counters { var ticks: Int64; var overruns: Int64; var missedTicks: Int64; var droppedRows: Int64 }

    /// Ticks and the recording's running counters from the metadata the recorder wrote
    /// (the counters of the last file are the recording's totals).
    private static func counters(_ folder: String) throws(BenchError) -> Counters {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".json") }
        var docs: [RecordingMetadata] = []
        for n in names {
            guard let data = FileManager.default.contents(atPath: folder + "/" + n),
                  let doc = try? RecordingMetadata.decode(Array(data)) else { continue }
            docs.append(doc)
        }
        guard let last = docs.max(by: { $0.file.index < $1.file.index }) else {
            throw BenchError("the recording in \(folder) wrote no readable metadata")
        }
        let ticks = docs.reduce(Int64(0)) { $0 + Int64($1.file.rows["A"] ?? 0) }
        return Counters(ticks: ticks, overruns: last.counters.overruns, missedTicks: last.counters.missedTicks,
                        droppedRows: last.counters.droppedRows)
    }

    // MARK: - Helpers

    /// The largest CSV of a folder that has its metadata beside it: name and bytes.
    static func largestRecording(_ folder: String) throws(BenchError) -> (String, Int64) {
        let fm = FileManager.default
        let names = ((try? fm.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".csv") }
        var best: (String, Int64)?
        for n in names {
            let base = String(n.dropLast(4))
            guard fm.fileExists(atPath: RecordingFiles.metadataPath(for: folder + "/" + base)),
                  let size = (try? fm.attributesOfItem(atPath: folder + "/" + n))?[.size] as? Int else { continue }
            if best == nil || Int64(size) > best?.1 ?? 0 { best = (base, Int64(size)) }
        }
        guard let best else { throw BenchError("the recording wrote no CSV with metadata beside it into \(folder)") }
        return best
    }

    /// A server the figure started, the base URL it answers on, and its version.
    struct Server {
        let process: BackgroundProcess
        let base: String
        var version: String?

        /// A loopback port that was free a moment ago.
        static func freePort() throws(BenchError) -> Int {
            do { return try Loopback.freePort() } catch { throw BenchError("\(error)") }
        }

        /// `motionlog serve --out FOLDER --listen 127.0.0.1:PORT` on a free port, once it answers.
        static func serve(_ motionlog: String, folder: String, _ ctx: BenchContext) throws(BenchError) -> Server {
            let port = try freePort()
            let p = try BackgroundProcess.start(motionlog, ["serve", "--out", folder, "--listen", "127.0.0.1:\(port)"], scratch: ctx.work)
            let base = "http://127.0.0.1:\(port)"
            do { try waitUntilAnswering(base + "/api/status", p, ctx) } catch {
                p.stop()
                throw error
            }
            return Server(process: p, base: base)
        }

        /// Debian's nginx in the foreground (`daemon off; master_process off`) with a config,
        /// pid file, logs and temporary folders in the scratch folder, serving `root`.
        static func nginx(root: String, _ ctx: BenchContext) throws(BenchError) -> Server {
            guard let program = locate("nginx", extra: ["/usr/sbin", "/usr/local/sbin", "/sbin"]) else {
                throw BenchError("nginx is not installed (Debian package nginx; make bench installs it when run as root)")
            }
            let dir = try ctx.folder("web-nginx")
            let port = try freePort()
            let config = """
                daemon off;
                master_process off;
                worker_processes 1;
                pid \(dir)/nginx.pid;
                error_log \(dir)/error.log warn;
                events { worker_connections 64; }
                http {
                    access_log off;
                    client_body_temp_path \(dir)/body;
                    proxy_temp_path \(dir)/proxy;
                    fastcgi_temp_path \(dir)/fastcgi;
                    uwsgi_temp_path \(dir)/uwsgi;
                    scgi_temp_path \(dir)/scgi;
                    types { text/csv csv; application/json json; }
                    default_type application/octet-stream;
                    sendfile on;
                    tcp_nopush on;
                    server {
                        listen 127.0.0.1:\(port);
                        root \(root);
                    }
                }

                """
            do { try Data(config.utf8).write(to: URL(fileURLWithPath: dir + "/nginx.conf")) } catch {
                throw BenchError("cannot write the nginx config into \(dir): \(error)")
            }
            let version = try? ChildProcess.run(program, ["-v"], scratch: ctx.work)
            let text = ((version?.stderr ?? "") + (version?.stdout ?? "")).split(separator: "\n").first.map(String.init)
            let p = try BackgroundProcess.start(program, ["-p", dir + "/", "-e", dir + "/error.log", "-c", dir + "/nginx.conf"],
                                                scratch: ctx.work)
            let base = "http://127.0.0.1:\(port)"
            do { try waitUntilAnswering(base + "/", p, ctx) } catch {
                p.stop()
                let log = (try? String(contentsOfFile: dir + "/error.log", encoding: .utf8)) ?? ""
                throw BenchError("\(error)" + (log.isEmpty ? "" : " — error.log: " + log.split(separator: "\n").suffix(3).joined(separator: " | ")))
            }
            return Server(process: p, base: base,
                          version: text.map { $0.replacingOccurrences(of: "nginx version: nginx/", with: "") })
        }

        /// Waits until the server has used no CPU for two seconds (its background work —
        /// the warm-up listing, summaries of recordings — is done); returns the seconds
        /// waited, nil when it was still busy after `limit` seconds or could not be watched.
        func settle(limit: Double) -> Double? {
            let began = Date()
            guard var last = process.cpuSecondsSoFar else { return nil }
            var quietSince = Date()
            while Date().timeIntervalSince(began) < limit {
                SystemClocks.sleep(nanos: 250_000_000)
                guard let now = process.cpuSecondsSoFar else { return nil }
                if now - last > 0.005 { quietSince = Date() }
                last = now
                if Date().timeIntervalSince(quietSince) >= 2 { return Date().timeIntervalSince(began) }
            }
            return nil
        }

        /// Polls `url` until any HTTP answer comes (up to 30 s), or the server has ended.
        private static func waitUntilAnswering(_ url: String, _ p: BackgroundProcess, _ ctx: BenchContext) throws(BenchError) {
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline {
                guard p.isRunning else { throw BenchError("`\(p.command)` ended before it answered: \(p.result.failure)") }
                if let r = try? ChildProcess.run("curl", ["-s", "--noproxy", "*", "--max-time", "2", "-o", "/dev/null",
                                                          "-w", "%{http_code}", url], scratch: ctx.work),
                   let code = Int(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), code > 0 {
                    return
                }
                SystemClocks.sleep(nanos: 100_000_000)
            }
            throw BenchError("`\(p.command)` did not answer \(url) within 30 s")
        }

        /// A program in PATH or in one of `extra` (sbin folders are not in every PATH).
        private static func locate(_ name: String, extra: [String]) -> String? {
            let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
            for dir in path + extra where FileManager.default.isExecutableFile(atPath: dir + "/" + name) {
                return dir + "/" + name
            }
            return nil
        }
    }
}
