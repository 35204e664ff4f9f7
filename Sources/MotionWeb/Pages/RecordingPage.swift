import Foundation
import MotionCore

/// `/recordings/NAME`: what one recording holds, at a glance (track, charts) and in detail
/// (health, metadata, downloads).
enum RecordingPage {
    static func render(_ e: RecordingEntry, series: RecordingSeries?, seriesError: String?, writing: Bool, csrf: String) -> String {
        let base = "/recordings/" + Text.path(e.name)
        var body = "<h1>\(Text.html(Text.localTime(e.startEpoch)))</h1>"
        var facts = [Text.duration(e.durationSeconds), Text.size(e.sizeBytes)]
        if let d = Text.distance(e.distanceMeters) { facts.insert(d, at: 1) }
        if !e.sources.isEmpty { facts.append(ListPage.sourcesText(e.sources)) }
        if let m = e.metadata { facts.append("\(m.recording.rateHz) Hz") }
        body += "<div class=\"facts\">\(facts.map { "<span>\(Text.html($0))</span>" }.joined())</div>"
        body += "<div>" + (writing ? "<span class=\"badge live\">recording now</span>" : "")
            + e.health.filter { !(writing && $0 == "unfinished") }.map(ListPage.badge).joined() + "</div>"
        body += "<div class=\"name\">\(Text.html(e.name))</div>"
        if writing { body += "<p class=\"gap\">Still being written: the page shows the rows written so far; downloads end at the last complete row.</p>" }

        // Track and charts.
        body += "<div class=\"page-top\"><section><h2>Track</h2>"
        if let series, let svg = SVGTrack.render(series.track) {
            body += svg
            body += "<p class=\"gap\">One colour for the whole ride: moves coloured by activity and stops come with the summary (MotionAnalysis, issue 12), not yet available here.</p>"
        } else if let seriesError {
            body += "<p class=\"gap\">Could not read the rows: \(Text.html(seriesError))</p>"
        } else {
            body += "<p class=\"gap\">No GPS positions in this file" + (e.sources.contains("L") ? " (GPS was on but had no fix)." : " (GPS was not recorded).") + "</p>"
        }
        body += "</section><section><h2>Health</h2>" + health(e) + "</section></div>"
        body += "<h2>Charts</h2><div class=\"grid2\">"
        body += chart("Speed", unit: "km/h", points: series?.speed, css: "speed", missing: "no GPS speed")
        body += chart("Elevation", unit: "m", points: series?.elevation, css: "elevation", missing: "no GPS altitude")
        if let a = series?.acceleration, a.count >= 2,
           let svg = SVGChart.render(title: "Acceleration", unit: "g (min–max, mean)",
                                     line: .init(t: a.map(\.t), v: a.map(\.mean)),
                                     band: (a.map(\.min), a.map(\.max)), cssClass: "accel") {
            body += "<figure class=\"card\" style=\"margin:0\"><figcaption>Acceleration magnitude</figcaption>\(svg)</figure>"
        } else {
            body += "<figure class=\"card\" style=\"margin:0\"><figcaption>Acceleration magnitude</figcaption><p class=\"gap\">no accelerometer rows</p></figure>"
        }
        body += "<figure class=\"card\" style=\"margin:0\"><figcaption>Movement per interval</figcaption><p class=\"gap\">Comes with the summary (MotionAnalysis, issue 12): not computed here yet.</p></figure>"
        body += "</div>"
        body += "<h2>Timeline</h2><p class=\"gap\">Stops and moves with their activity come with the summary (MotionAnalysis, issue 12): not available yet.</p>"

        body += "<h2>Downloads</h2><div class=\"downloads\">"
        body += "<a class=\"button\" href=\"\(base).csv\" download>CSV</a>"
        if e.metadata != nil { body += "<a class=\"button\" href=\"\(base).json\" download>Metadata JSON</a>" }
        if e.hasLocation {
            body += "<a class=\"button\" href=\"\(base).gpx\" download>GPX</a><a class=\"button\" href=\"\(base).geojson\" download>GeoJSON</a>"
        }
        body += "<span class=\"gap\"> Timeline JSON and wide CSV: with the summary (issue 12).</span></div>"
        body += "<h2>Metadata</h2>" + metadata(e)
        if !writing {
            body += "<div class=\"actions\"><button class=\"danger\" id=\"delete\" data-name=\"\(Text.html(e.name))\">Delete this recording</button></div><div class=\"msg\" id=\"msg\"></div>"
        }
        return Layout.page(title: Text.localTime(e.startEpoch), csrf: csrf, body: body, script: script)
    }

    static func chart(_ title: String, unit: String, points: [RecordingSeries.Point]?, css: String, missing: String) -> String {
        if let p = points, let svg = SVGChart.render(title: title, unit: unit, line: .init(t: p.map(\.t), v: p.map(\.v)), cssClass: css) {
            return "<figure class=\"card\" style=\"margin:0\"><figcaption>\(title)</figcaption>\(svg)</figure>"
        }
        return "<figure class=\"card\" style=\"margin:0\"><figcaption>\(title)</figcaption><p class=\"gap\">\(missing)</p></figure>"
    }

    /// The counters of the metadata, as sentences.
    static func health(_ e: RecordingEntry) -> String {
        guard let m = e.metadata else { return "<p class=\"gap\">No metadata beside the CSV: nothing known about how it was recorded.</p>" }
        let c = m.counters
        var items: [String] = []
        items.append(m.endedCleanly ? "Ended cleanly (\(m.endReason))." : m.endReason == "recovered"
            ? "Recovered after a crash or power cut: the rows up to the last fsync are there."
            : "Did not end cleanly (still being written, or the logger lost power).")
        items.append(c.droppedRows == 0 ? "No rows dropped." : "\(c.droppedRows) rows dropped (both buffers full).")
        if c.rowsLostToWriteErrors > 0 { items.append("\(c.rowsLostToWriteErrors) rows lost to \(c.writeErrors) write errors.") }
        items.append(c.overruns == 0 ? "No scheduler overruns." : "\(c.overruns) overruns, \(c.missedTicks) ticks missed (no sample exists for them).")
        if c.rejectedFixes > 0 { items.append("\(c.rejectedFixes) GPS fixes refused.") }
        if m.recording.sources.contains("L") && !e.hasLocation { items.append("GPS was on but recorded no position.") }
        items += m.recording.notes
        return "<ul>" + items.map { "<li>\(Text.html($0))</li>" }.joined() + "</ul>"
    }

    static func metadata(_ e: RecordingEntry) -> String {
        guard let m = e.metadata else { return "<p class=\"gap\">none</p>" }
        var rows: [(String, String)] = [
            ("Board", m.recording.board + (m.recording.boardDescription.map { " — \($0)" } ?? "")),
            ("Rate", "\(m.recording.rateHz) Hz"), ("Sources", m.recording.sources),
            ("Rows", m.file.rows.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")),
            ("Started", m.recording.started), ("Ended", m.ended ?? "–"),
            ("Clock", m.recording.clock), ("When", "\(m.recording.whenMode)"),
            ("Label", m.recording.label), ("Recording id", m.recording.id),
            ("Part", "\(m.file.index)" + (m.file.previous.map { " (after \($0))" } ?? "")),
            ("Software", "\(m.software.name) \(m.software.version)"),
        ]
        if let g = m.recording.gps { rows.append(("GPS", g)) }
        return "<table class=\"meta\">" + rows.map { "<tr><td>\(Text.html($0.0))</td><td>\(Text.html($0.1))</td></tr>" }.joined() + "</table>"
    }

    static let script = """
    const b=document.getElementById('delete');
    if(b){b.addEventListener('click',async()=>{const n=b.dataset.name;
    if(!confirm('Delete this recording for good?\\n\\n'+n+'\\n\\nThe CSV and its metadata are removed from the logger.'))return;
    const r=await fetch('/api/recordings/'+encodeURIComponent(n),{method:'DELETE',headers:{'X-CSRF-Token':document.querySelector('meta[name=csrf]').content},credentials:'same-origin'});
    if(r.ok){location.href='/';}else{let j={};try{j=await r.json();}catch(e){}const m=document.getElementById('msg');m.textContent='Not deleted: '+(j.error||r.status);m.classList.add('show');}});}
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
