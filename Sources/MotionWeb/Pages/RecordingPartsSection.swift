import MotionAnalysis
import MotionCore

/// What the page of a recording rotated into several files says about its parts: their
/// files (raw downloads part by part), how each ended, and their counters (the running
/// totals of the latest part).
enum RecordingPartsSection {
    /// The files, part by part, with their CSV and metadata downloads and a ZIP of them all.
    static func files(_ r: RecordingParts, writingName: String?) -> String {
        var rows = ""
        for p in r.parts {
            let base = "/recordings/" + Text.path(p.name)
            var facts = [Text.duration(p.durationSeconds), Text.size(p.sizeBytes)]
            if p.name == writingName { facts.append("being written") }
            rows += "<li><b>\(p.part.map { "Part \($0)" } ?? "Part ?")</b>"
                + "<span class=\"facts\">\(facts.map { "<span>\(Text.html($0))</span>" }.joined())</span>"
                + "<span class=\"name\">\(Text.html(p.name))</span>"
                + "<span class=\"downloads\"><a class=\"button\" href=\"\(base).csv\" download>CSV</a>"
                + (p.metadata != nil ? "<a class=\"button\" href=\"\(base).json\" download>Metadata JSON</a>" : "")
                + "</span></li>"
        }
        let zip = "/download.zip?" + r.parts.map { "name=" + Text.path($0.name) }.joined(separator: "&amp;")
        var out = "<h2>Files</h2>"
        if let missing = missingText(r) { out += "<p class=\"gap\">\(Text.html(missing))</p>" }
        out += "<ul class=\"timeline parts\">" + rows + "</ul>"
        out += "<div class=\"downloads\"><a class=\"button\" href=\"\(zip)\" download>All \(r.parts.count) files (ZIP)</a></div>"
        return out
    }

    /// Which parts are not in the folder (deleted or offloaded), as a sentence; nil when none.
    /// `inner: false` leaves out those between two parts here (the summary's findings name
    /// them), not those before the first.
    static func missingText(_ r: RecordingParts, inner: Bool = true) -> String? {
        var what: [String] = []
        let first = r.parts.compactMap(\.part).min() ?? 0
        let missing = r.missingParts.filter { inner || $0 < first }
        if !missing.isEmpty {
            let more = inner && r.missingCount > missing.count ? ", … (\(r.missingCount) parts)" : ""
            what.append((missing.count == 1 ? "part " : "parts ") + missing.map(String.init).joined(separator: ", ") + more)
        }
        if r.lastPartMissing { what.append("the part after the last one here") }
        guard !what.isEmpty else { return nil }
        return "Not in this folder (deleted or offloaded): " + what.joined(separator: " and ") + ". The page shows the parts that are here."
    }

    /// `1–3 (3 files)`, or the numbers present when some are missing.
    static func partNumbers(_ r: RecordingParts) -> String {
        let numbers = r.parts.compactMap(\.part)
        guard numbers.count == r.parts.count, let a = numbers.first, let b = numbers.last else { return "\(r.parts.count) files" }
        if r.missingParts.isEmpty { return "\(a)–\(b) (\(r.parts.count) files)" }
        return numbers.map(String.init).joined(separator: ", ") + " (\(r.parts.count) files)"
    }

    /// Health of all the parts: how each part that did not end cleanly ended and how the
    /// last one did, the counters (running totals: the latest part's; each problem said once, as for one file), notes
    /// once, then the summary's findings over the whole recording.
    static func health(_ r: RecordingParts, _ summary: AnalysisSummary?) -> String {
        let metas = r.parts.compactMap(\.metadata)
        guard !metas.isEmpty else {
            let none = ["No readable metadata beside the CSVs: nothing known about how they were recorded."]
            return Text.list(none + (summary?.health.findings ?? []))
        }
        let summarized = summary != nil
        var items: [String] = []
        if metas.count < r.parts.count { items.append("\(r.parts.count - metas.count) of the \(r.parts.count) files have no metadata.") }
        for (k, p) in r.parts.enumerated() {
            guard let m = p.metadata else { continue }
            let last = k == r.parts.count - 1
            if (last && (m.ending.isClean || !summarized)) || (!m.ending.isClean && !summarized) {
                let part = p.part.map { "part \($0)" } ?? p.name
                items.append(FileEndingText.sentence(m, subject: last ? "Its last part (\(part))" : part.prefix(1).uppercased() + part.dropFirst()))
            }
        }
        // Running totals of the recording: the latest part's (the largest of each).
        let c = metas.reduce(CounterSnapshot()) { $0.latest($1.counters) }
        items += RecordingPage.counterSentences(c, summarized: summarized)
        if !summarized && r.sources.contains("L") && !r.hasLocation { items.append("GPS was on but recorded no position.") }
        // Each problem said once: the summary's findings name a part missing between two here.
        if let missing = missingText(r, inner: !summarized) { items.append(missing) }
        for note in metas.flatMap(\.recording.notes) where !items.contains(note) { items.append(note) }
        items += summary?.health.findings ?? []
        return Text.list(items)
    }
}
