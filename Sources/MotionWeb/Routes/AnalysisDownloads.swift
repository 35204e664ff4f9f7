import Foundation
import HTTPTypes
import Hummingbird
import MotionAnalysis
import MotionCore
import NIOCore

/// Downloads computed from a recording (all its parts): the timeline (`NAME.timeline.json`,
/// what `motionlog export --format timeline` writes), the wide CSV (`NAME.wide.csv`) and the
/// track as GPX or GeoJSON, each streamed as it is written. Each takes a download slot and
/// costs a pass or more over the CSVs (for the timeline, a whole-file analysis first).
extension WebApp {
    /// The timeline JSON of the whole recording, 404 when it has none; a HEAD computes
    /// nothing (`computedHead`). A fresh cached summary with an empty timeline answers 404
    /// at once, GET and HEAD alike (the analysis would find the same). As
    /// `motionlog export --format timeline` does, the summary is computed first (holding no
    /// more fixes than half the free memory holds: 503 past that, as for a summary given up
    /// before, GET and HEAD alike), then the recording is read again and the JSON streamed a
    /// day at a time (`StorylineWriter`).
    func timeline(_ recording: RecordingParts, _ context: WebContext, head: Bool) async -> Response {
        let paths = recording.csvPaths(in: folder.path), name = recording.name
        if let cached = await cachedSummary(paths), cached.timeline.isEmpty { return Self.noTimeline(name) }
        let available = configuration.availableMemory()
        if let tooLong = summaryRefusals.declines(recording, available: available) { return Self.timelineTooLong(tooLong) }
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        headers[.contentDisposition] = Text.contentDisposition(recording.name + "." + Kind.timeline.rawValue)
        headers[.cacheControl] = "no-cache"
        if head { return computedHead(headers) }
        guard let slot = takeDownloadSlot() else { return busy() }
        let fileName = name + "." + Kind.timeline.rawValue
        configuration.onExport?(fileName)
        let limit = AnalysisMemory.heldFixLimit(availableBytes: available)
        let summary: AnalysisSummary
        do {
            summary = try await blocking { try RecordingAnalyzer.summarize(paths, heldFixLimit: limit) }
        } catch let tooLong as AnalysisMemory.TooLong {
            slot.release()
            summaryRefusals.note(recording, tooLong)
            return Self.timelineTooLong(tooLong)
        } catch {
            slot.release()
            return Self.failure(.internalServerError, "cannot analyse \(name): \(error)", api: false)
        }
        guard !summary.timeline.isEmpty else { slot.release(); return Self.noTimeline(name) }
        return Response(status: .ok, headers: headers, body: .init { writer in
            let guarded = self.guarding(writer, context, what: fileName, slot: slot)
            defer { guarded.stall.end() }
            var out: any ResponseBodyWriter = guarded
            try await ProducedStream.run(to: &out, name: "motionlog-web-timeline") { emit in
                try StorylineWriter(summary, sink: emit).write(fixesOf: paths)
            }
            try await out.finish(nil)
        })
    }

    static func timelineTooLong(_ tooLong: AnalysisMemory.TooLong) -> Response {
        failure(.serviceUnavailable, tooLong.sentence(what: "export its timeline", command: "motionlog export --format timeline"),
                api: false)
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
    /// reads no row (`computedHead`). The rows are read once to find the track's segments
    /// (`TrackScan`), then the document is streamed as it is written; a long track is read
    /// again for it rather than held (GeoJSON: once per per-point property).
    func track(_ recording: RecordingParts, _ kind: Kind, _ context: WebContext, head: Bool) async -> Response {
        let name = recording.name
        // Known to have none: GET and HEAD answer 404 alike, before any row is read.
        guard await knownPositions(recording) != false else {
            return Self.failure(.notFound, "\(name) has no GPS positions to export", api: false)
        }
        var headers = HTTPFields()
        headers[.contentType] = kind == .gpx ? "application/gpx+xml" : "application/geo+json"
        headers[.contentDisposition] = Text.contentDisposition(name + "." + kind.rawValue)
        if head { return computedHead(headers) }
        guard let slot = takeDownloadSlot() else { return busy() }
        let inputs = RecordingSeries.inputs(recording, folder: folder.path).map {
            TrackInput(path: $0.csvPath, epochOffset: $0.epochOffset)
        }
        configuration.onExport?(name + "." + kind.rawValue)
        let track: any TrackPointSource
        do {
            let held = configuration.heldTrackPoints
            track = try await blocking { try TrackScan.reading(inputs, holdLimit: held).track() }
        } catch {
            slot.release()
            return Self.failure(.internalServerError, "cannot read \(name).csv: \(error)", api: false)
        }
        guard track.count > 0 else {
            slot.release()
            return Self.failure(.notFound, "\(name) has no usable GPS positions", api: false)
        }
        let fileName = name + "." + kind.rawValue
        return Response(status: .ok, headers: headers, body: .init { writer in
            let guarded = self.guarding(writer, context, what: fileName, slot: slot)
            defer { guarded.stall.end() }
            var out: any ResponseBodyWriter = guarded
            try await ProducedStream.run(to: &out, name: "motionlog-web-track") { emit in
                if kind == .gpx {
                    try GPXWriter.write(track, name: name, creator: "motionlog web") { try emit(Array($0.utf8)) }
                } else {
                    try GeoJSONWriter.write(track, name: name, creator: "motionlog web", to: emit)
                }
            }
            try await out.finish(nil)
        })
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
