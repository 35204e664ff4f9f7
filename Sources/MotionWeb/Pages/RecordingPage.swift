import Foundation
import MotionAnalysis
import MotionCore

/// `/recordings/NAME`: what one recording holds, at a glance (track, charts) and in detail
/// (health, metadata, downloads). A recording rotated into several files is shown whole:
/// one track, charts and timeline over all its parts, and its files listed part by part.
enum RecordingPage {
    /// `writingName`: the file the attached recorder is writing, if any; `summaryNote`: why
    /// there is no summary, when that is known.
    static func render(_ r: RecordingParts, series: RecordingSeries?, summary: AnalysisSummary?, summaryNote: String? = nil,
                       seriesError: String?, writing: Bool, writingName: String? = nil, csrf: String) -> String {
        let e = r.first, multi = r.parts.count > 1
        let base = "/recordings/" + Text.path(e.name)
        // Without metadata (or with metadata it cannot read) the rows' own times from the
        // summary, epoch When only, as the list takes them from a cached one: where no cache
        // could be written (a folder the server may not write) the page said "unknown time".
        let rowsStart = e.startEpoch == nil ? summary?.start.flatMap { $0 >= RecordingAnalyzer.relativeLooking ? $0 : nil } : nil
        var body = "<h1>\(Text.html(Text.localTime(e.startEpoch ?? rowsStart)))</h1>"
        var facts = [Text.duration(r.durationSeconds ?? (rowsStart != nil ? summary?.durationS : nil)), Text.size(r.sizeBytes)]
        // No distance at all (not "0 m") without a usable fix.
        let distance = summary.map { $0.fixesUsed > 0 ? $0.distanceM : nil } ?? r.distanceMeters
        if let d = Text.distance(distance) { facts.insert(d, at: 1) }
        if let m = summary?.movingS, m > 0, let d = summary?.distanceM, d > 0 {
            facts.append("moving " + Text.duration(m) + String(format: ", %.1f km/h avg", d / m * 3.6))
        }
        // As the summary's report writes it: a gain beyond Int (altitudes of 1e19 m in a file) ended the server.
        if let g = summary?.elevationGainM, g > 0 { facts.append("↑ \(MotionAnalysis.Text.number(g, 0)) m") }
        if !r.sources.isEmpty { facts.append(ListPage.sourcesText(r.sources)) }
        // A rate of 0: no ticks (an imported track, a fused file without metadata).
        if let m = e.metadata, m.recording.rateHz > 0 { facts.append("\(m.recording.rateHz) Hz") }
        if let parts = r.partsText { facts.append(parts) }
        body += "<div class=\"facts\">\(facts.map { "<span>\(Text.html($0))</span>" }.joined())</div>"
        body += "<div>" + (writing ? "<span class=\"badge live\">recording now</span>" : "")
            + r.health.filter { !(writing && $0 == "unfinished") }.map(ListPage.badge).joined() + "</div>"
        body += "<div class=\"name\">\(Text.html(r.parts.map(\.name).joined(separator: " · ")))</div>"
        if writing { body += "<p class=\"gap\">Still being written: the page shows the rows written so far; downloads end at the last complete row.</p>" }

        // Track and charts.
        body += "<div class=\"page-top\"><section><h2>Track</h2>"
        if let series, let svg = SVGTrack.render(series.track, timeline: summary?.timeline ?? []) {
            body += svg + legend(summary)
        } else if let seriesError {
            body += "<p class=\"gap\">Could not read the rows: \(Text.html(seriesError))</p>"
        } else {
            // Without metadata (a CSV copied in) nothing says whether GPS was recorded.
            let why = r.sources.contains("L") ? " (GPS was on, but no position was recorded: Health says why)"
                : r.parts.allSatisfy({ $0.metadata != nil }) ? " (GPS was not recorded)" : ""
            body += "<p class=\"gap\">No GPS positions in this " + (multi ? "recording" : "file") + why + ".</p>"
        }
        body += "</section><section><h2>Health</h2>" + (multi ? RecordingPartsSection.health(r, summary) : health(e, summary, writing: writing)) + "</section></div>"
        body += "<h2>Charts</h2><div class=\"grid2\">"
        // At least 5 km/h and 10 m of axis: a standing GPS's speed jitter and its altitude
        // noise (metres) are not drawn as full-height motion or relief.
        // Where gpsd gave no speed (a converted GPX), the speed from positions; the title says so.
        let speedTitle = series?.speedIsFromPositions == true ? "Speed (from positions)" : "Speed"
        // A sparse track without gpsd's speed (a logger saving a fix a minute or less often)
        // gives too few speeds from positions to draw: it said "no GPS speed" under "from positions".
        let noSpeed = series.map { !$0.track.isEmpty && $0.speedFromGPSD == 0 } == true
            ? "gpsd gave no speed, and too few fixes lie within a minute of each other to take it from positions"
            : "no GPS speed"
        body += chart(speedTitle, unit: "km/h", points: series?.speed, minimumSpan: 5, css: "speed", missing: noSpeed)
        body += chart("Elevation", unit: "m", points: series?.elevation, minimumSpan: 10, css: "elevation", missing: "no GPS altitude")
        body += acceleration(series)
        body += movementChart(summary, writing: writing, declined: summaryNote != nil)
        body += "</div>"
        body += "<h2>Timeline</h2>" + timeline(summary, writing: writing, note: summaryNote)

        body += "<h2>Downloads</h2><div class=\"downloads\">"
        if !multi {
            body += "<a class=\"button\" href=\"\(base).csv\" download>CSV</a>"
            if e.metadata != nil { body += "<a class=\"button\" href=\"\(base).json\" download>Metadata JSON</a>" }
        }
        // Positions as the metadata counts them, or as the summary read them (a CSV without
        // metadata, such as a converted GPX, had its track drawn but no GPX button).
        if r.hasLocation || (summary?.rows["L"] ?? 0) > 0 {
            body += "<a class=\"button\" href=\"\(base).gpx\" download>GPX</a><a class=\"button\" href=\"\(base).geojson\" download>GeoJSON</a>"
        }
        if let summary, !summary.timeline.isEmpty {
            body += "<a class=\"button\" href=\"\(base).timeline.json\" download>Timeline JSON</a>"
        }
        body += "<a class=\"button\" href=\"\(base).wide.csv\" download>Wide CSV</a></div>"
        if multi { body += RecordingPartsSection.files(r, writingName: writingName) }
        body += "<h2>Metadata</h2>" + metadata(e, of: r)
        if !writing {
            let files = Text.html(r.parts.map(\.name).joined(separator: "/"))
            body += "<div class=\"actions\"><button class=\"danger\" id=\"delete\" data-name=\"\(Text.html(e.name))\" data-files=\"\(files)\">Delete this recording</button></div><div class=\"msg\" id=\"msg\"></div>"
        }
        return Layout.page(title: Text.localTime(e.startEpoch), csrf: csrf, body: body, script: script)
    }

    /// The acceleration chart: the mean magnitude per bin over its min–max band, in pieces
    /// between gaps in the rows.
    static func acceleration(_ series: RecordingSeries?) -> String {
        let title = "<figure class=\"card\" style=\"margin:0\"><figcaption>Acceleration magnitude</figcaption>"
        if let pieces = series?.acceleration, case let a = Array(pieces.joined()), a.count >= 2,
           let svg = SVGChart.render(title: "Acceleration", unit: "g (min–max, mean)",
                                     line: .init(t: a.map(\.t), v: a.map(\.mean), pieceStarts: SVGChart.Line.starts(of: pieces)),
                                     band: (a.map(\.min), a.map(\.max)), cssClass: "accel") {
            return title + svg + "</figure>"
        }
        return title + "<p class=\"gap\">no accelerometer rows</p></figure>"
    }

    /// A line chart of `pieces` (the series between gaps: no line is drawn across one).
    static func chart(_ title: String, unit: String, points pieces: [[RecordingSeries.Point]]?, minimumSpan: Double = 0,
                      css: String, missing: String) -> String {
        if let pieces, case let p = Array(pieces.joined()),
           let svg = SVGChart.render(title: title, unit: unit,
                                     line: .init(t: p.map(\.t), v: p.map(\.v), pieceStarts: SVGChart.Line.starts(of: pieces)),
                                     minimumSpan: minimumSpan, cssClass: css) {
            return "<figure class=\"card\" style=\"margin:0\"><figcaption>\(title)</figcaption>\(svg)</figure>"
        }
        return "<figure class=\"card\" style=\"margin:0\"><figcaption>\(title)</figcaption><p class=\"gap\">\(missing)</p></figure>"
    }

    /// The counters of the metadata, as sentences. The summary's findings already tell
    /// every problem the counters show and how the file ended, so with a summary the
    /// metadata adds only what went well (each problem is said once).
    static func health(_ e: RecordingEntry, _ summary: AnalysisSummary?, writing: Bool = false) -> String {
        guard let m = e.metadata else {
            // The summary's findings still hold (a GPS gap, a torn line), and say when the
            // metadata could not be read; before, the page said only "No metadata".
            var items: [String] = []
            // An empty file has nothing to summarise: the page said only "No metadata".
            if e.csvStamp.size == 0 { items.append("The file is empty (0 bytes): nothing was recorded in it.") }
            if e.jsonStamp == nil {
                items.append("No metadata beside the CSV: nothing known about how it was recorded.")
            } else if summary == nil {
                items.append("The metadata beside the CSV could not be read: \(e.metadataProblem ?? "it is damaged"). Nothing is known about how it was recorded.")
            }
            items += summary?.health.findings ?? []
            return Text.list(items)
        }
        let c = m.counters
        let summarized = summary != nil
        var items: [String] = []
        // Known to be written now (the daemon's file, or a writer's lock): not "did not end
        // cleanly … or a power cut or crash cut it off".
        if writing && m.ending == .unfinished {
            items.append("This file is being written now: its metadata is completed when the recording stops.")
        } else if m.ending.isClean || !summarized {
            items.append(FileEndingText.sentence(m, subject: "This file"))
        }
        // The summary's findings say it with the rows; without one, the size says it.
        if !summarized, let cut = CutShortFile(metadata: m, fileBytes: e.sizeBytes) {
            items.append(cut.sentence(subject: "This file") + ".")
        }
        // No ticks (an imported track): no scheduler or buffers whose counters could say anything.
        if m.recording.rateHz > 0 { items += counterSentences(c, summarized: summarized) }
        // With a summary its finding says why (gpsd never answered, no receiver, no fix).
        if !summarized && m.recording.sources.contains("L") && !e.hasLocation { items.append("GPS was on but recorded no position.") }
        items += m.recording.notes
        let ending = FileEndingText.sentence(m, subject: m.file.name)
        items += (summary?.health.findings ?? []).filter { !(writing && m.ending == .unfinished && $0 == ending) }
        return Text.list(items)
    }

    /// The counters as sentences: what went well always, problems only without a summary
    /// (whose findings tell them).
    static func counterSentences(_ c: CounterSnapshot, summarized: Bool) -> [String] {
        var items: [String] = []
        if c.droppedRows == 0 { items.append("No rows dropped.") } else if !summarized { items.append("\(CountText.of(c.droppedRows, "row")) dropped (both buffers full).") }
        if c.rowsLostToWriteErrors > 0 && !summarized { items.append("\(CountText.of(c.rowsLostToWriteErrors, "row")) lost to \(CountText.of(c.writeErrors, "write error")).") }
        if c.overruns == 0 { items.append("No scheduler overruns.") } else if !summarized || c.missedTicks == 0 {
            items.append("\(CountText.of(c.overruns, "overrun")), \(CountText.of(c.missedTicks, "tick")) missed (no sample exists for \(c.missedTicks == 1 ? "it" : "them")).")
        }
        if c.rejectedFixes > 0 { items.append("\(CountText.of(c.rejectedFixes, "GPS fix", plural: "GPS fixes")) refused.") }
        return items
    }

    static let activityColours: [Activity: String] = [.cycling: "#1f6feb", .walking: "#1a7f37", .vehicle: "#8250df", .unknown: "#6e7781"]

    static func legend(_ summary: AnalysisSummary?) -> String {
        guard let summary else { return "<p class=\"gap\">No summary: the track is drawn in one colour.</p>" }
        guard !summary.timeline.isEmpty else {
            return "<p class=\"gap\">No stops or moves: the track is drawn in one colour.</p>"
        }
        var items = Activity.allCases.filter { a in summary.timeline.contains { $0.activity == a } }.map { a in
            "<span><i style=\"background:\(activityColours[a] ?? "#999")\"></i>\(a.rawValue)</span>"
        }
        if summary.timeline.contains(where: { $0.type == .stop }) { items.append("<span><i class=\"stopkey\"></i>stop</span>") }
        items.append("<span><i style=\"background:var(--ok);border-radius:50%\"></i>start</span><span><i style=\"background:var(--bad);border-radius:50%\"></i>end</span>")
        return "<div class=\"legend\">" + items.joined() + "</div>"
    }

    /// `declined`: the summary was not computed here (the timeline says why).
    static func movementChart(_ summary: AnalysisSummary?, writing: Bool, declined: Bool = false) -> String {
        let head = "<figure class=\"card\" style=\"margin:0\"><figcaption>Movement per interval"
        guard let m = summary?.movement, !m.starts.isEmpty, m.starts.count == m.sums.count else {
            let why = writing ? "computed when the recording has ended" : declined ? "not computed on this logger (see Timeline)" : "not enough IMU data"
            return head + "</figcaption><p class=\"gap\">\(why)</p></figure>"
        }
        let svg = SVGChart.bars(title: "Movement", unit: "g·s per " + (Int(m.intervalS) % 60 == 0 ? "\(Int(m.intervalS) / 60) min" : "\(Int(m.intervalS)) s"), starts: m.starts,
                                values: m.sums, interval: m.intervalS, recorded: summary?.recordedSpan,
                                cssClass: "movement") { Text.hourMinute($0) } ?? ""
        return head + " (\(Text.html(m.source ?? "IMU")))</figcaption>" + svg + "</figure>"
    }

    static func timeline(_ summary: AnalysisSummary?, writing: Bool, note: String? = nil) -> String {
        guard let summary else {
            let why = writing ? "The timeline is computed when the recording has ended."
                : note ?? "No summary could be computed for this file."
            return "<p class=\"gap\">" + Text.html(why) + "</p>"
        }
        guard !summary.timeline.isEmpty else { return "<p class=\"gap\">No stops or moves found (no usable GPS).</p>" }
        var rows = ""
        // Over several local days, each day's entries follow its date, and an entry that
        // ends on a later day says which ("19:00–19:00" for a whole day said nothing).
        let severalDays = Set(summary.timeline.flatMap { [LocalDay.date($0.start), LocalDay.date($0.end)] }).count > 1
        var day: String?
        for t in summary.timeline {
            if severalDays && LocalDay.date(t.start) != day {
                day = LocalDay.date(t.start)
                rows += "<li class=\"day\">\(Text.html(Text.strftime(t.start, "%a %d %b %Y")))</li>"
            }
            let endDay = LocalDay.date(t.end) == LocalDay.date(t.start) ? "" : Text.strftime(t.end, "%a %d %b") + " "
            let when = Text.hourMinute(t.start) + "–" + endDay + Text.hourMinute(t.end)
            var what: String
            switch t.type {
            case .stop: what = "Stop"
            case .move: what = (t.activity?.rawValue.capitalized ?? "Move")
            case .gap: what = "No data"
            }
            var detail = [Text.duration(t.duration)]
            if let d = Text.distance(t.distanceM), t.type == .move { detail.append(d) }
            if let v = t.meanSpeedMps, t.type == .move { detail.append(String(format: "%.1f km/h", v * 3.6)) }
            let colour = t.type == .move ? activityColours[t.activity ?? .unknown] ?? "#999" : t.type == .stop ? "#b35900" : "#d0d7de"
            rows += "<li><i style=\"background:\(colour)\"></i><span class=\"when\">\(when)</span><b>\(Text.html(what))</b><span class=\"facts\">\(detail.map(Text.html).joined(separator: " · "))</span></li>"
        }
        return "<ul class=\"timeline\">" + rows + "</ul>"
    }

    /// The first file's metadata; for a rotated recording the rows of all parts and the
    /// ending of the last.
    static func metadata(_ e: RecordingEntry, of r: RecordingParts) -> String {
        guard let m = e.metadata else { return "<p class=\"gap\">\(e.jsonStamp == nil ? "none" : "unreadable: " + Text.html(e.metadataProblem ?? "damaged"))</p>" }
        let multi = r.parts.count > 1
        var rowCounts = m.file.rows
        if multi {
            rowCounts = [:]
            for p in r.parts { for (k, v) in p.rows { rowCounts[k, default: 0] += v } }
        }
        let ended = multi ? r.parts.last?.metadata?.ended : m.ended
        // The clock as the last part says it: GPS time may have set it after the first closed.
        let clock = multi ? r.parts.last?.metadata ?? m : m
        let part = multi ? RecordingPartsSection.partNumbers(r)
            : "\(m.file.index)" + (m.file.previous.map { " (after \($0))" } ?? "")
        var rows: [(String, String)] = [
            ("Board", m.recording.board + (m.recording.boardDescription.map { " — \($0)" } ?? "")),
            ("Rate", m.recording.rateHz > 0 ? "\(m.recording.rateHz) Hz" : "–"), ("Sources", m.recording.sources),
            ("Rows", rowCounts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")),
            ("Started", gpsTimed(m.recording.started, clock)), ("File closed", ended.map { gpsTimed($0, clock) } ?? "–"),
            ("Clock", clock.recording.clock), ("When", "\(m.recording.whenMode)"),
            ("Label", m.recording.label), ("Recording id", m.recording.id),
            (multi ? "Parts" : "Part", part),
            ("Software", "\(m.software.name) \(m.software.version)"),
        ]
        if let g = m.recording.gps { rows.append(("GPS", g)) }
        return "<table class=\"meta\">" + rows.map { "<tr><td>\(Text.html($0.0))</td><td>\(Text.html($0.1))</td></tr>" }.joined() + "</table>"
    }

    /// `started` and `ended` are the logger's system clock; where GPS time corrected When
    /// (`clock: gps`), that clock was off by the correction: the page's heading showed 09:11
    /// and its metadata "Started 06:11:45Z" for the same moment. Shown in GPS time, with the
    /// logger's reading beside it.
    static func gpsTimed(_ iso: String, _ m: RecordingMetadata) -> String {
        guard m.recording.clock == GPSTimeRecord.gpsClock, let c = m.counters.time?.correctionSeconds, abs(c) >= 1,
              let t = TimeText.epochSeconds(iso8601: iso) else { return iso }
        return TimeText.isoUTC(epochSeconds: t + c) + " (GPS time; the logger's clock said \(iso))"
    }

    static let script = """
    const b=document.getElementById('delete');
    if(b){b.addEventListener('click',async()=>{const n=(b.dataset.files||b.dataset.name).split('/');
    if(!confirm('Delete this recording for good?\\n\\n'+n.join('\\n')+'\\n\\n'+(n.length>1?'Each CSV and its metadata are':'The CSV and its metadata are')+' removed from the logger.'))return;
    const failed=[];for(const x of n){const r=await fetch('/api/recordings/'+encodeURIComponent(x),{method:'DELETE',headers:{'X-CSRF-Token':document.querySelector('meta[name=csrf]').content},credentials:'same-origin'});
    if(!r.ok){let j={};try{j=await r.json();}catch(e){}failed.push(x+': '+(j.error||r.status));}}
    if(!failed.length){location.href='/';}else{const m=document.getElementById('msg');m.textContent='Not deleted: '+failed.join('; ');m.classList.add('show');}});}
    """
}

/// The password form (only when a password is set).
enum LoginPage {
    static func render(message: String?) -> String {
        let body = """
        <form class="login card" method="post" action="/login">
        <h1>motionlog</h1>
        \(message.map { "<p class=\"msg show\">\(Text.html($0))</p>" } ?? "")
        <label for="pw">Password</label><input id="pw" type="password" name="password" autocomplete="current-password" autofocus required>
        <button class="primary" type="submit">Log in</button></form>
        """
        return Layout.page(title: "Log in", csrf: nil, body: body)
    }
}
