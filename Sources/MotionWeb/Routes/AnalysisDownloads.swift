import Foundation
import HTTPTypes
import Hummingbird
import MotionAnalysis
import MotionCore
import NIOCore

/// Downloads computed from a recording (all its parts): the timeline (`NAME.timeline.json`,
/// what `motionlog export --format timeline` writes), the wide CSV (`NAME.wide.csv`, streamed
/// as it is converted) and the track as GPX or GeoJSON. Each takes a download slot: each
/// costs a pass over the CSVs (a whole-file analysis for the timeline).
extension WebApp {
    /// The timeline JSON of the whole recording, 404 when it has none; a HEAD computes
    /// nothing (`computedHead`). A fresh cached summary with an empty timeline answers 404
    /// at once, GET and HEAD alike (the analysis would find the same).
    func timeline(_ recording: RecordingParts, head: Bool) async -> Response {
        let paths = recording.csvPaths(in: folder.path), name = recording.name
        if let cached = await cachedSummary(paths), cached.timeline.isEmpty { return Self.noTimeline(name) }
        if let why = memoryRefusal(recording, .timeline) { return Self.failure(.serviceUnavailable, why, api: false) }
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        headers[.contentDisposition] = Text.contentDisposition(recording.name + "." + Kind.timeline.rawValue)
        headers[.cacheControl] = "no-cache"
        if head { return computedHead(headers) }
        guard let slot = takeDownloadSlot() else { return busy() }
        defer { slot.release() }
        configuration.onExport?(name + "." + Kind.timeline.rawValue)
        let bytes: [UInt8]?
        do {
            bytes = try await blocking { () throws -> [UInt8]? in
                let result = try RecordingAnalyzer.analyze(paths)
                return result.summary.timeline.isEmpty ? nil : try TimelineExport.storyline(result)
            }
        } catch {
            return Self.failure(.internalServerError, "cannot analyse \(name): \(error)", api: false)
        }
        guard let bytes else { return Self.noTimeline(name) }
        headers[.contentLength] = "\(bytes.count)"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    static func noTimeline(_ name: String) -> Response {
        failure(.notFound, "\(name) has no timeline: no usable GPS fixes or accelerometer rows", api: false)
    }

    /// The streamed response, also for HEAD (which drops it unsent, freeing its slot): its
    /// length is not known before it is sent, and a HEAD must not claim one.
    func wideCSV(_ recording: RecordingParts, _ context: WebContext) async -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/csv; charset=utf-8"
        headers[.contentDisposition] = Text.contentDisposition(recording.name + "." + Kind.wideCSV.rawValue)
        headers[.cacheControl] = "no-cache"
        guard let slot = takeDownloadSlot() else { return busy() }
        let paths = recording.csvPaths(in: folder.path), fileName = recording.name + "." + Kind.wideCSV.rawValue
        return Response(status: .ok, headers: headers, body: .init { writer in
            let guarded = self.guarding(writer, context, what: fileName, slot: slot)
            defer { guarded.stall.end() }
            var out: any ResponseBodyWriter = guarded
            try await ProducedStream.run(to: &out, name: "motionlog-web-widecsv") { emit in
                var export = WideCSVExport(emit: emit)
                try export.convert(paths)
            }
            try await out.finish(nil)
        })
    }

    /// The track of the recording's `L` rows as GPX or GeoJSON, 404 without positions; a HEAD
    /// reads no row (`computedHead`).
    func track(_ recording: RecordingParts, _ kind: Kind, head: Bool) async -> Response {
        let name = recording.name
        // Known to have none: GET and HEAD answer 404 alike, before any row is read.
        guard await knownPositions(recording) != false else {
            return Self.failure(.notFound, "\(name) has no GPS positions to export", api: false)
        }
        if let why = memoryRefusal(recording, kind == .gpx ? .gpx : .geojson) {
            return Self.failure(.serviceUnavailable, why, api: false)
        }
        var headers = HTTPFields()
        headers[.contentType] = kind == .gpx ? "application/gpx+xml" : "application/geo+json"
        headers[.contentDisposition] = Text.contentDisposition(name + "." + kind.rawValue)
        if head { return computedHead(headers) }
        guard let slot = takeDownloadSlot() else { return busy() }
        defer { slot.release() }
        let inputs = RecordingSeries.inputs(recording, folder: folder.path)
        configuration.onExport?(name + "." + kind.rawValue)
        let bytes: [UInt8]?
        do {
            bytes = try await blocking { () throws -> [UInt8]? in
                var points: [TrackPoint] = []
                for input in inputs {
                    try RecordingReader(path: input.csvPath).read { item in
                        if case .row(_, let row) = item, let p = TrackPoint(row: row, epochOffset: input.epochOffset) { points.append(p) }
                    }
                }
                guard !points.isEmpty else { return nil }
                let track = LocationTrack(points: points)
                if kind == .gpx {
                    var bytes: [UInt8] = []
                    GPXWriter.write(track, name: name, creator: "motionlog web") { bytes += $0.utf8 }
                    return bytes
                }
                return try GeoJSONWriter.document(track, name: name, creator: "motionlog web")
            }
        } catch {
            return Self.failure(.internalServerError, "cannot read \(name).csv: \(error)", api: false)
        }
        guard let bytes else { return Self.failure(.notFound, "\(name) has no usable GPS positions", api: false) }
        headers[.contentLength] = "\(bytes.count)"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// Whether the recording has GPS positions, as far as is known without reading its rows:
    /// the metadata's row counts say so (true), or say none while every part has metadata
    /// (false); a part without metadata has no counts, so a fresh cached summary decides,
    /// as it decides the page's GPX button; nil when only reading the rows can tell.
    func knownPositions(_ recording: RecordingParts) async -> Bool? {
        if recording.hasLocation { return true }
        guard recording.parts.contains(where: { $0.metadata == nil }) else { return false }
        guard let cached = await cachedSummary(recording.csvPaths(in: folder.path)) else { return nil }
        return (cached.rows["L"] ?? 0) > 0
    }

    /// The fresh cached summary of the recording made of `paths` (`NAME.summary.json`), or
    /// nil; never computed.
    func cachedSummary(_ paths: [String]) async -> AnalysisSummary? {
        (try? await blocking { SummaryCache.load(for: paths) }) ?? nil
    }

    /// The HEAD of a download computed as a whole before it is sent (timeline, GPX, GeoJSON):
    /// what its GET says as far as that is known without computing it (the callers answer
    /// 404 first where the metadata or a fresh cached summary shows the export is empty).
    /// 503 where the GET would find no slot free (the slot is given back at once); else 200
    /// and its headers but the length, which only the computation gives (the body is never
    /// produced, so the HEAD carries no Content-Length, and NIO frames it as the chunked
    /// response it might be). Without such knowledge (no cached summary yet), a recording
    /// whose export turns out empty still answers its GET 404 and its HEAD 200: telling them
    /// apart costs the whole computation, which is what a HEAD must not start.
    func computedHead(_ headers: HTTPFields) -> Response {
        guard let slot = takeDownloadSlot() else { return busy() }
        slot.release()
        return Response(status: .ok, headers: headers, body: .init { _ in })
    }

    /// 503 with Retry-After: every download slot is taken.
    func busy() -> Response {
        var r = Self.failure(.serviceUnavailable, "\(configuration.maxDownloads) downloads are running: try again when one has finished", api: false)
        r.headers[.retryAfter] = "10"
        return r
    }
}
