import Foundation
import HTTPTypes
import Hummingbird
import MotionAnalysis
import MotionCore
import NIOCore

/// `/`, `/recordings/NAME` (the page; downloads share the path, see FileRoutes), login.
extension WebApp {
    func addPages(_ router: WebRoutes) {
        router.getAndHead("/") { request, _ -> Response in
            let recordings: [RecordingParts]
            do { recordings = try await self.recordings() } catch {
                return Self.failure(.internalServerError, "\(error)", api: false)
            }
            let live = await self.liveStatus()
            let page = request.uri.queryParameters.get("page").flatMap { Int($0) } ?? 1
            return Self.html(ListPage.render(recordings: recordings, page: page, live: live, hasLive: self.configuration.live != nil,
                                             // As the recording's page and the API judge it: the daemon's file,
                                             // or one another `record` wrote to in the last minute ("unfinished" here,
                                             // "recording now" there, before).
                                             writing: Set(recordings.flatMap(\.parts).filter { self.isBeingWritten($0, writing: live?.currentName) }.map(\.name)),
                                             csrf: self.session(request)?.csrf ?? "",
                                             folder: self.folder.path, loginEnabled: self.access.needsLogin))
        }
        router.getAndHead("/login") { _, _ -> Response in
            guard self.access.needsLogin else { return Self.redirect("/") }
            return Self.html(LoginPage.render(message: nil))
        }
        router.post("/login") { request, context -> Response in
            guard self.access.needsLogin else { return Self.redirect("/") }
            let body = try await request.body.collect(upTo: 4096)
            struct Form: Decodable { var password: String }
            guard let form = try? URLEncodedFormDecoder().decode(Form.self, from: String(buffer: body)) else {
                return Self.html(LoginPage.render(message: "Enter the password."), status: .badRequest)
            }
            let client = context.client
            let result = try await self.blocking { self.access.login(password: form.password, client: client) }
            switch result {
            case .ok(let cookie):
                self.log.notice("web login", metadata: ["client": "\(client)"])
                var response = Self.redirect("/")
                response.setCookie(Cookie(name: WebAccess.cookieName, value: cookie, maxAge: Int(WebAccess.sessionSeconds),
                                          path: "/", httpOnly: true, sameSite: .strict))
                return response
            case .wrong:
                self.log.warning("web login failed: wrong password", metadata: ["client": "\(client)"])
                return Self.html(LoginPage.render(message: "Wrong password."), status: .unauthorized)
            case .wait(let seconds):
                self.log.warning("web login refused: too many failures", metadata: ["client": "\(client)"])
                var r = Self.html(LoginPage.render(message: "Too many wrong passwords: wait \(seconds) s and try again."), status: .tooManyRequests)
                r.headers[.retryAfter] = "\(seconds)"
                return r
            }
        }
        router.post("/logout") { request, _ -> Response in
            self.access.logout(cookie: request.cookies[WebAccess.cookieName]?.value)
            var response = Self.json(["ok": true])
            response.setCookie(Cookie(name: WebAccess.cookieName, value: "", maxAge: 0, path: "/", httpOnly: true, sameSite: .strict))
            return response
        }
    }

    /// The page of a listed recording: all its parts (a later part's name leads to the first's).
    func recordingPage(_ recording: RecordingParts, asked name: String, request: Request) async -> Response {
        if name != recording.name { return Self.redirect("/recordings/" + Text.path(recording.name)) }
        let writing = await writingName()
        let isWriting = recording.parts.contains { isBeingWritten($0, writing: writing) }
        var seriesError: String?
        let s: RecordingSeries?
        do { s = try await seriesFor(recording) } catch {
            s = nil
            seriesError = "\(error)"
        }
        let summary = isWriting ? nil : await summaryFor(recording)
        let note = summary == nil && !isWriting ? summaryRefusals.why(recording)?.description : nil
        return Self.html(RecordingPage.render(recording, series: s, summary: summary, summaryNote: note, seriesError: seriesError,
                                              writing: isWriting, writingName: writing,
                                              csrf: session(request)?.csrf ?? ""))
    }

    /// The MotionAnalysis summary of a finished recording (all its parts in one pass): the
    /// cached one, else computed once and cached beside its first file as `NAME.summary.json`;
    /// nil when its analysis did not fit in the memory free (`summaryRefusals` says why,
    /// and it is not tried again until the files change).
    func summaryFor(_ recording: RecordingParts) async -> AnalysisSummary? {
        let paths = recording.csvPaths(in: folder.path)
        if let cached = await cachedSummary(paths) { return cached }
        let available = configuration.availableMemory()
        // (try?: `blocking` throws only when the server is shutting down.)
        return try? await blocking { [summaryRefusals] in summaryRefusals.summarise(recording, paths: paths, available: available) }
    }

    /// The plotted series of a recording, read once per version of its CSVs.
    func seriesFor(_ recording: RecordingParts) async throws -> RecordingSeries {
        if let s = series.get(recording.name, recording.stamps) { return s }
        let inputs = RecordingSeries.inputs(recording, folder: folder.path)
        let duration = recording.spanSeconds
        let read = try await blocking { try RecordingSeries.read(inputs, duration: duration) }
        series.put(recording.name, recording.stamps, read)
        return read
    }

    static func redirect(_ to: String) -> Response {
        var headers = HTTPFields()
        headers[.location] = to
        return Response(status: .seeOther, headers: headers)
    }
}
