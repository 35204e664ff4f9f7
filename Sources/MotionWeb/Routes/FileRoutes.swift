import Foundation
import HTTPTypes
import Hummingbird
import MotionCore
import NIOCore
import SystemPackage

/// Downloads: `/recordings/NAME.csv|.json|.gpx|.geojson|.timeline.json|.wide.csv` (the
/// page is `/recordings/NAME`) and `/download.zip?name=A&name=B` or `?all=1`.
extension WebApp {
    /// What `/recordings/NAME.SUFFIX` downloads; compound suffixes are tried first.
    enum Kind: String, CaseIterable {
        case timeline = "timeline.json", wideCSV = "wide.csv", csv, json, gpx, geojson
    }

    func addFiles(_ router: WebRoutes) {
        router.get("/recordings/:file") { request, context -> Response in
            try await self.recordingPath(request, context, head: false)
        }
        router.head("/recordings/:file") { request, context -> Response in
            Self.headersOnly(try await self.recordingPath(request, context, head: true))
        }
        router.get("/download.zip") { request, context -> Response in
            await self.zip(request, context, head: false)
        }
        // Its streamed response is dropped unsent: the slot and the hold it took are freed.
        router.head("/download.zip") { request, context -> Response in
            Self.headersOnly(await self.zip(request, context, head: true))
        }
    }

    /// The path parameter, percent-decoded once.
    static func parameter(_ context: WebContext, _ key: String) -> String? {
        guard let raw = context.parameters.get(key) else { return nil }
        return raw.removingPercentEncoding ?? raw
    }

    func recordingPath(_ request: Request, _ context: WebContext, head: Bool) async throws -> Response {
        guard let file = Self.parameter(context, "file") else { return Self.failure(.notFound, "no such page", api: false) }
        do {
            if let recording = try folder.recording(containing: file) {
                return await recordingPage(recording, asked: file, request: request)
            }
            for kind in Kind.allCases where file.hasSuffix("." + kind.rawValue) {
                let name = String(file.dropLast(kind.rawValue.count + 1))
                if let recording = try folder.recording(containing: name), let entry = recording.parts.first(where: { $0.name == name }) {
                    return await download(entry, of: recording, kind, request: request, context: context, head: head)
                }
            }
            // A provisional name (`unsynced-…`) renamed once GPS time was known: a page or
            // link opened before still finds the recording (it was a 404).
            if file.hasPrefix(RecordingFiles.provisionalStem + "-"), let renamed = try renamedTo(file) {
                return Self.redirect("/recordings/" + Text.path(renamed))
            }
        } catch {
            return Self.failure(.internalServerError, "\(error)", api: false)
        }
        return Self.failure(.notFound, WebError.notFound(file).description, api: false)
    }

    /// The name `file` (a recording, or one of its downloads) has now, where its metadata
    /// says it was renamed from it (`file.renamedFrom`).
    func renamedTo(_ file: String) throws(WebError) -> String? {
        let suffix = Kind.allCases.map { "." + $0.rawValue }.first { file.hasSuffix($0) } ?? ""
        let old = String(file.dropLast(suffix.count)) + ".csv"
        for r in try folder.recordings() {
            if let part = r.parts.first(where: { $0.metadata?.file.renamedFrom == old }) { return part.name + suffix }
        }
        return nil
    }

    /// The file `entry` as it is (the CSV, up to its last complete row while written, or the
    /// metadata), or what is computed from the whole `recording` it belongs to (all its parts,
    /// in order, whichever part is named): the timeline, the wide CSV, and the track of its
    /// `L` rows as GPX or GeoJSON.
    func download(_ entry: RecordingEntry, of recording: RecordingParts, _ kind: Kind, request: Request, context: WebContext,
                  head: Bool) async -> Response {
        switch kind {
        case .csv:
            let writing = isBeingWritten(entry, writing: await writingName())
            return serveFile(request, context, fileName: entry.name + ".csv", contentType: "text/csv; charset=utf-8",
                             completeRows: true, mutable: writing, head: head)
        case .json:
            guard entry.jsonStamp != nil else { return Self.failure(.notFound, "\(entry.name) has no metadata file", api: false) }
            return serveFile(request, context, fileName: RecordingFiles.metadataPath(for: entry.name), contentType: "application/json",
                             completeRows: false, mutable: false, head: head)
        case .timeline:
            return await timeline(recording, context, head: head)
        case .wideCSV:
            return await wideCSV(recording, context)
        case .gpx, .geojson:
            return await track(recording, kind, context, head: head)
        }
    }

    /// Streams one folder file with validators and ranges. `completeRows`: a file being
    /// written is served up to its last LF. `mutable`: the file may still grow, so it gets
    /// no strong validator (a resumed download of it starts over).
    func serveFile(_ request: Request, _ context: WebContext, fileName: String, contentType: String, completeRows: Bool,
                   mutable: Bool, head: Bool) -> Response {
        let fd: SystemPackage.FileDescriptor
        do { fd = try folder.open(fileName) } catch { return Self.failure(.notFound, "\(error)", api: false) }
        guard let st = try? fd.status() else { try? fd.close(); return Self.failure(.internalServerError, "cannot stat \(fileName)", api: false) }
        let size = st.size
        let length = completeRows && mutable ? FileChunks.completeLength(fd: fd, size: size) : size
        try? fd.close()
        let stamp = FileStamp(st)
        var headers = HTTPFields()
        headers[.contentType] = contentType
        headers[.acceptRanges] = "bytes"
        headers[.contentDisposition] = Text.contentDisposition(fileName)
        headers[.lastModified] = Text.httpDate(stamp.modifiedEpoch)
        headers[.cacheControl] = "no-cache"
        let etag = mutable ? nil : stamp.etag
        if let etag {
            headers[.eTag] = etag
            // Weak comparison (RFC 9110 §13.1.2): W/"x" matches "x".
            func opaque(_ tag: some StringProtocol) -> Substring {
                let t = Substring(tag).trimmingCharacters(in: .whitespaces)
                return t.hasPrefix("W/") ? Substring(t.dropFirst(2)) : Substring(t)
            }
            if let inm = request.headers[.ifNoneMatch], inm.split(separator: ",").contains(where: { opaque($0) == opaque(etag) || opaque($0) == "*" }) {
                return Response(status: .notModified, headers: headers)
            }
        }
        var range = ByteRange.parse(request.headers[.range], length: length)
        if let ifRange = request.headers[.ifRange] {
            // The same version: the entity tag, or the exact Last-Modified date of a file
            // finished at least a second before now (a strong date, RFC 9110 §13.1.5).
            let sameTag = etag != nil && ifRange == etag
            let sameDate = etag != nil && ifRange == headers[.lastModified] && stamp.modifiedEpoch <= configuration.clock() - 1
            if !(sameTag || sameDate) { range = .whole }   // another version: send it all
        }
        var status = HTTPResponse.Status.ok
        var offset: Int64 = 0, count = length
        switch range {
        case .whole: break
        case .part(let r):
            status = .partialContent
            offset = r.lowerBound
            count = r.upperBound - r.lowerBound + 1
            headers[.contentRange] = "bytes \(r.lowerBound)-\(r.upperBound)/\(length)"
        case .unsatisfiable:
            // Not the file: a sentence saying why, not labelled as the file's type or as a download.
            headers[.contentRange] = "bytes */\(length)"
            headers[.contentType] = "text/plain; charset=utf-8"
            headers[.contentDisposition] = nil
            let why = "The range asked for starts past the end of \(fileName) (\(length) bytes).\n"
            return Response(status: .rangeNotSatisfiable, headers: headers, body: .init(byteBuffer: ByteBuffer(string: why)))
        }
        headers[.contentLength] = "\(count)"
        // A HEAD answers 503 where its GET would; its slot is free again at once.
        guard let slot = takeDownloadSlot() else { return busy() }
        if head { slot.release(); return Response(status: status, headers: headers) }
        let folder = self.folder
        let (start, bytes) = (offset, count)
        return Response(status: status, headers: headers, body: .init(contentLength: Int(count)) { writer in
            let guarded = self.guarding(writer, context, what: fileName, slot: slot)
            defer { guarded.stall.end() }
            var out: any ResponseBodyWriter = guarded
            let fd = try folder.open(fileName)
            defer { try? fd.close() }
            try await FileChunks.stream(fd: fd, offset: start, count: bytes, to: &out)
            try await out.finish(nil)
        })
    }

    /// One ZIP of the chosen recordings (CSV up to its last complete row, and metadata),
    /// streamed as it is built.
    /// `head`: only its headers will be sent (not logged as a download).
    func zip(_ request: Request, _ context: WebContext, head: Bool) async -> Response {
        let query = request.uri.queryParameters
        let all = query.get("all") == "1"
        let requested = query.getAll("name").map { String($0) }
        // The hold is taken on the names before any of them is looked up, opened or sized,
        // and released on every path (explicitly, or when it is dropped): a DELETE either
        // came first (the file is not in the ZIP) or is refused while the ZIP holds it.
        let hold: ZipHold
        var chosen: [RecordingEntry] = []
        do {
            if all {
                let listed = try folder.list()
                hold = ZipHold(app: self, names: listed.map(\.name))
                await configuration.onZipHeld?()
                let held = Set(hold.names)
                chosen = listed.filter { held.contains($0.name) }
            } else {
                guard !requested.isEmpty else { return Self.failure(.badRequest, "choose recordings: /download.zip?name=NAME&name=... or ?all=1", api: false) }
                guard requested.count <= 10_000 else { return Self.failure(.badRequest, "too many names", api: false) }
                var seen = Set<String>()
                let names = requested.filter { seen.insert($0).inserted }
                hold = ZipHold(app: self, names: names)
                await configuration.onZipHeld?()
                let held = Set(hold.names)
                for name in names {
                    // A name a DELETE was removing when the hold was taken is gone, as after it.
                    guard held.contains(name), let e = try folder.lookup(name) else {
                        hold.release()
                        return Self.failure(.notFound, WebError.notFound(name).description, api: false)
                    }
                    chosen.append(e)
                }
            }
        } catch {
            return Self.failure(.internalServerError, "\(error)", api: false)
        }
        let writing = await writingName()
        var entries: [ZipStream.Entry] = []
        var included: [RecordingEntry] = []
        for e in chosen {
            // A recording deleted before the hold was taken cannot be opened: left out.
            guard let fd = try? folder.open(e.name + ".csv") else { continue }
            let st = try? fd.status()
            let size = st?.size ?? 0
            let length = isBeingWritten(e, writing: writing) ? FileChunks.completeLength(fd: fd, size: size) : size
            try? fd.close()
            guard let st else { continue }
            included.append(e)
            entries.append(.init(archiveName: e.name + ".csv", fileName: e.name + ".csv", length: length,
                                 modifiedEpoch: Double(st.modifiedNanos / 1_000_000_000)))
            let json = RecordingFiles.metadataPath(for: e.name)
            if let j = folder.stamp(json) {
                entries.append(.init(archiveName: json, fileName: json, length: j.size, modifiedEpoch: j.modifiedEpoch))
            }
        }
        chosen = included
        guard !chosen.isEmpty else {
            hold.release()
            return Self.failure(.notFound, "there are no recordings to download", api: false)
        }
        guard let slot = takeDownloadSlot() else {
            hold.release()
            return busy()
        }
        let archive = ZipStream(entries: entries)
        let what = "ZIP of \(entries.count) files"
        let total = archive.totalLength
        var headers = HTTPFields()
        headers[.contentType] = "application/zip"
        let stamp = Text.strftime(configuration.clock(), "%Y%m%d-%H%M")
        // The parts of one rotated recording are one recording: named after its first file.
        let recordings = Set(chosen.map { $0.recordingID ?? "file " + $0.name }).count
        headers[.contentDisposition] = Text.contentDisposition(recordings == 1 ? chosen[0].name + ".zip" : "motionlog-\(recordings)-recordings-\(stamp).zip")
        headers[.contentLength] = "\(total)"
        headers[.cacheControl] = "no-store"
        let folder = self.folder
        let log = self.log
        if !head { log.info("ZIP download", metadata: ["recordings": "\(recordings)", "files": "\(chosen.count)", "bytes": "\(total)"]) }
        return Response(status: .ok, headers: headers, body: .init(contentLength: Int(total)) { writer in
            let guarded = self.guarding(writer, context, what: what, slot: slot)
            defer { guarded.stall.end(); hold.release() }
            var out: any ResponseBodyWriter = guarded
            do {
                try await archive.write(to: &out) { name in try folder.open(name) }
            } catch let error as ZipStream.Unreadable {
                // The Content-Length is sent: the response must not end as if complete.
                // Throwing makes Hummingbird close the connection short of the announced
                // length, so the client sees a broken transfer; logged, as it means a file
                // was removed or truncated behind the server's back.
                log.error("ZIP download broken off: a file it announced could not be read whole",
                          metadata: ["download": "\(what)", "error": "\(error)", "client": "\(context.client)"])
                throw error
            }
            try await out.finish(nil)
        })
    }
}
