import Foundation
import HTTPTypes
import Hummingbird
import MotionAnalysis
import MotionCore
import NIOCore

/// The JSON API (docs/WEB.md) and the live events stream.
extension WebApp {
    struct StatusBody: Encodable {
        var live: Bool
        var status: LiveStatus?
        var folder: String
        /// Recordings (the parts of a rotated one count once).
        var recordings: Int
        var files: Int
        var sizeBytes: Int64
        var login: Bool
    }

    struct ListItem: Encodable {
        var entry: RecordingEntry
        var writing: Bool
        func encode(to encoder: any Encoder) throws {
            try entry.encode(to: encoder)
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(writing, forKey: .writing)
        }
        enum Key: String, CodingKey { case writing }
    }

    struct SummaryBody: Encodable {
        var recording: ListItem
        /// The names of the files of the whole recording (its parts), in order: the summary
        /// and the series are of all of them.
        var parts: [String]
        var metadata: RecordingMetadataJSON?
        /// The MotionAnalysis summary as `motionlog summary --json` prints it (snake_case
        /// keys); null while the recording is being written or when it cannot be read.
        var summary: JSONValue   // `.null`, not a missing key
        var note: String?
        var track: [[[Double]]]
        var speedKmh: [[Double]]
        var elevationM: [[Double]]
        var accelerationG: [[Double]]
        enum CodingKeys: String, CodingKey {
            case recording, parts, metadata, summary, note, track, speedKmh = "speed_kmh", elevationM = "elevation_m", accelerationG = "acceleration_g"
        }
    }

    /// The metadata as stored, passed through.
    struct RecordingMetadataJSON: Encodable {
        var value: RecordingMetadata
        func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
    }

    struct LabelBody: Decodable { var label: String }

    func addAPI(_ router: WebRoutes) {
        router.getAndHead("/api/status") { _, _ -> Response in
            let recordings = (try? await self.recordings()) ?? []
            let live = await self.liveStatus()
            return Self.json(StatusBody(live: self.configuration.live != nil, status: live, folder: self.folder.path,
                                        recordings: recordings.count, files: recordings.reduce(0) { $0 + $1.parts.count },
                                        sizeBytes: recordings.reduce(0) { $0 + $1.sizeBytes },
                                        login: self.access.needsLogin))
        }
        router.getAndHead("/api/recordings") { _, _ -> Response in
            let entries: [RecordingEntry]
            do { entries = try await self.listing() } catch {
                return Self.failure(.internalServerError, "\(error)", api: true)
            }
            let writing = await self.writingName()
            // Each entry's JSON was encoded once when it was read; `writing` is added here.
            let key = Array(",\"writing\":".utf8), yes = Array("true}".utf8), no = Array("false}".utf8)
            var bytes: [UInt8] = [0x5B]
            bytes.reserveCapacity(entries.reduce(2) { $0 + $1.json.count + 20 })
            for i in entries.indices {
                if i > 0 { bytes.append(0x2C) }
                let json = entries[i].json
                guard json.count > 2, json.last == 0x7D else { bytes += json.isEmpty ? Array("{}".utf8) : json; continue }
                bytes.append(contentsOf: json[0 ..< json.count - 1])
                bytes.append(contentsOf: key)
                bytes.append(contentsOf: self.isBeingWritten(entries[i], writing: writing) ? yes : no)
            }
            bytes.append(0x5D)
            var headers = HTTPFields()
            headers[.contentType] = "application/json; charset=utf-8"
            headers[.cacheControl] = "no-store"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
        }
        router.get("/api/recordings/:name/summary") { _, context -> Response in
            try await self.summary(context, head: false)
        }
        // Answered from what is cached, never computed (it read every CSV whole).
        router.head("/api/recordings/:name/summary") { _, context -> Response in
            Self.headersOnly(try await self.summary(context, head: true))
        }
        router.delete("/api/recordings/:name") { _, context -> Response in
            guard let name = Self.parameter(context, "name") else { return Self.failure(.notFound, "no name", api: true) }
            return await self.delete(name, client: context.client)
        }
        for command in ["start", "stop"] {
            router.post("/api/\(command)") { _, _ -> Response in await self.control(command) }
        }
        router.post("/api/label") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 1024)
            guard let label = try? JSONDecoder().decode(LabelBody.self, from: Data(buffer: body)).label else {
                return Self.failure(.badRequest, "send {\"label\": \"W\"}: one uppercase letter", api: true)
            }
            return await self.control("label", label: label)
        }
        router.getAndHead("/events") { request, context -> Response in
            self.events(context, cookie: request.cookies[WebAccess.cookieName]?.value)
        }
    }

    /// The summary of the recording a file belongs to, with its series. `head`: only what is
    /// at hand is used, the series read before (in memory) and the summary cached beside the
    /// recording (`NAME.summary.json`); neither is computed. With both (or the series of a
    /// recording being written, which has no summary), the response is the GET's, length
    /// included; without, the status and headers only, with no length (it depends on what
    /// only the computation gives; the body is never produced).
    func summary(_ context: WebContext, head: Bool) async throws -> Response {
        guard let name = Self.parameter(context, "name"), let recording = try self.folder.recording(containing: name),
              let entry = recording.parts.first(where: { $0.name == name }) else {
            return Self.failure(.notFound, WebError.notFound(Self.parameter(context, "name") ?? "").description, api: true)
        }
        let writing = await self.writingName()
        let isWriting = recording.parts.contains { self.isBeingWritten($0, writing: writing) }
        let s: RecordingSeries?, summary: AnalysisSummary?
        if head {
            let cached = isWriting ? nil : await cachedSummary(recording.csvPaths(in: folder.path))
            guard let known = series.get(recording.name, recording.stamps), isWriting || cached != nil else {
                return Response(status: .ok, headers: Self.jsonHeaders, body: .init { _ in })
            }
            (s, summary) = (known, cached)
        } else {
            s = try? await self.seriesFor(recording)
            summary = isWriting ? nil : await self.summaryFor(recording)
        }
        return Self.json(SummaryBody(
            recording: ListItem(entry: entry, writing: self.isBeingWritten(entry, writing: writing)),
            parts: recording.parts.map(\.name),
            metadata: entry.metadata.map(RecordingMetadataJSON.init),
            summary: summary.flatMap { try? JSONDecoder().decode(JSONValue.self, from: Data(SummaryJSON.encode($0, pretty: false))) } ?? .null,
            note: isWriting ? "being written: the summary is computed once the recording has ended"
                : summary == nil ? summaryRefusals.why(recording)?.description ?? "the summary could not be computed (see `motionlog summary`)" : nil,
            track: s?.track.map { $0.map { [$0.latitude, $0.longitude] } } ?? [],
            speedKmh: s?.speed.joined().map { [$0.t, $0.v] } ?? [],
            elevationM: s?.elevation.joined().map { [$0.t, $0.v] } ?? [],
            accelerationG: s?.acceleration.joined().map { [$0.t, $0.min, $0.mean, $0.max] } ?? []))
    }

    /// Start, stop, label: what `motionlog start|stop|label` do, through the control protocol.
    func control(_ command: String, label: String? = nil) async -> Response {
        guard let live = configuration.live else {
            return Self.failure(.conflict, "no recorder attached: this is `motionlog serve` without a daemon (use `motionlog daemon --web`)", api: true)
        }
        do {
            let reply = try await blocking { try live.send(command, label: label) }
            log.notice("web control", metadata: ["command": "\(command)", "ok": "\(reply.ok)", "message": "\(reply.message ?? "")"])
            struct Body: Encodable { var ok: Bool; var message: String?; var status: LiveStatus? }
            return Self.json(Body(ok: reply.ok, message: reply.message, status: reply.status), status: reply.ok ? .ok : .conflict)
        } catch {
            return Self.failure(.serviceUnavailable, "the recorder does not answer: \(error)", api: true)
        }
    }

    /// Removes a recording's CSV, metadata and cached summary; never the one being written.
    func delete(_ name: String, client: String) async -> Response {
        let entry: RecordingEntry?
        do { entry = try folder.lookup(name) } catch { return Self.failure(.internalServerError, "\(error)", api: true) }
        guard let entry else { return Self.failure(.notFound, WebError.notFound(name).description, api: true) }
        let writing = await writingName()
        if entry.name == writing {
            return Self.failure(.conflict, "\(name) is being recorded right now: stop the recording first", api: true)
        }
        // Claimed until the files are gone: a ZIP starting meanwhile leaves the recording out.
        guard let claim = DeleteClaim(app: self, name: entry.name) else {
            return Self.failure(.conflict, "\(name) is in a ZIP being downloaded right now: try again when the download has ended", api: true)
        }
        defer { claim.release() }
        if folder.mayBeWriting(entry) {
            return Self.failure(.conflict, "\(name) has not ended cleanly and is locked by its writer or was written to less than a minute ago: it may still be recording; stop the recording first, or try again later", api: true)
        }
        if let why = partOfLiveRecording(entry, writing: writing) { return Self.failure(.conflict, why, api: true) }
        var removed: [String] = []
        var failed: [String] = []
        for file in [entry.name + ".csv", RecordingFiles.metadataPath(for: entry.name)] + RecordingFolder.cacheSuffixes.map({ entry.name + $0 }) {
            guard folder.stamp(file) != nil else { continue }
            if let e = folder.unlink(file) { failed.append("\(file): \(e)") } else { removed.append(file) }
        }
        folder.forget(entry.name)
        series.forget(entry.name)
        if !failed.isEmpty {
            log.error("web delete failed", metadata: ["recording": "\(name)", "removed": "\(removed)", "failed": "\(failed)", "client": "\(client)"])
            return Self.failure(.internalServerError, "could not delete " + failed.joined(separator: "; ") + " — is the folder writable by the service?", api: true)
        }
        log.notice("recording deleted from the web page", metadata: ["recording": "\(name)", "files": "\(removed.joined(separator: " "))", "bytes": "\(entry.sizeBytes)", "client": "\(client)"])
        return Self.json(["deleted": removed])
    }

    /// Why a finished part of a rotated recording may not go now, or nil: another of its
    /// parts is being written (deleting the earlier parts of a recording still going on
    /// leaves a torso the owner never asked for), or its last part present ended by rotation
    /// while a CSV without metadata is being written — the recorder between closing one part
    /// and describing the next, when nothing else shows the recording is still going on.
    /// The writer now describes the next part before it finalises the old one (the first
    /// check then sees the next part being written); the second check stays for files
    /// written by a recorder of an earlier version, which finalised the old part first.
    func partOfLiveRecording(_ entry: RecordingEntry, writing: String?) -> String? {
        guard entry.recordingID != nil, let group = try? folder.recording(containing: entry.name) else { return nil }
        if let live = group.parts.first(where: { $0.name != entry.name && ($0.name == writing || folder.mayBeWriting($0)) }) {
            return "\(entry.name) is a part of a recording still being recorded (\(live.name) is being written): stop the recording first"
        }
        if group.lastPartMissing,
           let next = (try? folder.list())?.first(where: { $0.recordingID == nil && $0.name != entry.name && folder.mayBeWriting($0) }) {
            return "\(entry.name) is a part of a recording that may be moving on to a new file right now (\(next.name) is being written): try again in a moment"
        }
        return nil
    }

    /// Server-sent events: the recorder's status once per interval, for a bounded number of
    /// events (the browser's EventSource reconnects by itself). Behind a password the stream
    /// ends when its session does (a log-out in another tab, expiry): a tab kept receiving
    /// the status for up to ten minutes after its owner logged out.
    func events(_ context: WebContext, cookie: String?) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream"
        headers[.cacheControl] = "no-store"
        let count = configuration.eventsPerConnection, interval = configuration.eventInterval
        return Response(status: .ok, headers: headers, body: .init { body in
            let guarded = self.guarding(body, context, what: "events", slot: nil)
            defer { guarded.stall.end() }
            var writer: any ResponseBodyWriter = guarded
            let encoder = JSONEncoder()
            encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
            try await writer.write(ByteBuffer(string: "retry: 2000\n\n"))
            for i in 0..<count {
                if i > 0 { try await Task.sleep(for: interval) }
                if self.access.needsLogin && self.access.session(cookie: cookie) == nil { break }
                let status = await self.liveStatus()
                let data = (try? encoder.encode(status)) ?? Data("null".utf8)
                try await writer.write(ByteBuffer(string: "data: " + String(decoding: data, as: UTF8.self) + "\n\n"))
            }
            try await writer.finish(nil)
        })
    }
}
